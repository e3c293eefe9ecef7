#include "barrier/protocol.hpp"

#include <algorithm>
#include <stdexcept>

#include "barrier/tree.hpp"

namespace cosched::barrier {

void Protocol::receive(BarrierState& state, int, const Message& m, std::vector<Outgoing>&) const {
  switch (m.kind) {
    case Message::Kind::BarrierArrival:
      ++state.arrivals[m.barrier];
      return;
    case Message::Kind::BarrierNotice:
      state.notices[m.barrier] = 1;
      return;
    case Message::Kind::BarrierReply:
      return;  // what it tells is the waiting algorithm's (now::Node records it)
    case Message::Kind::ReadRequest:
    case Message::Kind::ReadReply:
    case Message::Kind::Wakeup:
    case Message::Kind::KeepAlive:
      break;
  }
  throw std::logic_error("barrier protocol: handed a message that is not a barrier message");
}

namespace {

// Root-based (B&M 3.2): every process but rank 0 sends an arrival to the root; the root, once it has all
// P-1 and has arrived, sends the completion notice down a notification tree (section 4.4): to its own
// children in their order, and every process that handles the notice forwards it to its children before
// it passes (a forwarded notice is an ordinary message: o to send, L, o to handle). A flat tree is the
// original simulator's "sequential flat tree": the root notifies ranks 1..P-1 in turn.
// Arrivals travel up a registration tree (section 4.5): a process sends one arrival to its parent in
// the tree once it has arrived and has handled one arrival from each of its children, which stands for
// its whole subtree; the root passes with one arrival from each of its own children. The flat
// registration tree is the original one: every process sends its arrival to the root.
class RootTree final : public Protocol {
 public:
  RootTree(int processes, const NotifySpec& notify, TreeKind arrive)
      : Protocol(processes),
        notify_(notify),
        order_aware_(notify.tree == TreeKind::OrderAwareSkewed),
        flat_arrivals_(arrive == TreeKind::Flat),
        replies_(notify.arrival_replies) {
    if (!order_aware_)
      children_ = children_of(build_tree({notify.tree, processes, {}, notify.latency, notify.overhead}));
    if (arrive == TreeKind::OrderAwareSkewed)
      throw std::invalid_argument(
          "barrier protocol: order-aware-skewed is a notification tree only (its interior nodes are the "
          "barrier's last arrivals)");
    if (order_aware_ && !flat_arrivals_)
      throw std::invalid_argument(
          "barrier protocol: an order-aware-skewed notification tree needs every arrival at the root "
          "(arrive: flat)");
    if (replies_ && !flat_arrivals_)
      throw std::invalid_argument(
          "barrier protocol: the root's replies to arrivals need every arrival at the root (arrive: flat)");
    const TreeGraph up = build_tree({arrive, processes, {}, notify.latency, notify.overhead});
    up_children_ = children_of(up);
    up_parent_.resize(static_cast<std::size_t>(processes));
    for (int r = 0; r < processes; ++r) up_parent_[r] = tree_parent(up, r);
  }
  std::string_view name() const override { return "root"; }
  void arrive(int rank, int barrier, std::vector<Outgoing>& out) const override {
    // Without the process's state only a flat registration tree can say what to send.
    if (!flat_arrivals_)
      throw std::logic_error("barrier protocol: a registration tree's arrival needs the process's state");
    if (rank != 0) out.push_back({0, Message::Kind::BarrierArrival, barrier});
  }
  void arrive(BarrierState& state, int rank, int barrier, std::vector<Outgoing>& out) const override {
    state.arrived[barrier] = 1;
    forward_arrival(state, rank, barrier, out);
  }
  void receive(BarrierState& state, int rank, const Message& m, std::vector<Outgoing>& out) const override {
    Protocol::receive(state, rank, m, out);
    if (m.kind == Message::Kind::BarrierArrival && rank != 0) forward_arrival(state, rank, m.barrier, out);
    // Informed waiting (B&M 3.3): the root answers each arrival at once, before anything it sends in
    // consequence (its notices, when this was the last arrival).
    if (m.kind == Message::Kind::BarrierArrival && replies_)
      out.push_back({m.from, Message::Kind::BarrierReply, m.barrier});
    if (m.kind == Message::Kind::BarrierArrival && order_aware_) {
      // B&M 3.2.3: "the root process must keep track of the order in which each coprocess reaches the
      // barrier". Arrivals for a later barrier cannot come before the root has passed this one (their
      // senders need its notice first), so one list is enough.
      state.arrival_order.push_back(m.from);
      if (static_cast<int>(state.arrival_order.size()) == processes() - 1) {
        // The tree of this barrier, which the root's notice carries to the interior nodes.
        current_ = children_of(
            build_tree({notify_.tree, processes(), state.arrival_order, notify_.latency, notify_.overhead}));
        current_barrier_ = m.barrier;
        state.arrival_order.clear();
      }
    }
    if (m.kind == Message::Kind::BarrierNotice) notify(rank, m.barrier, out);
  }
  bool passed(const BarrierState& state, int rank, int barrier) const override {
    return rank == 0 ? state.arrivals[barrier] == static_cast<int>(up_children_[0].size())
                     : state.notices[barrier] != 0;
  }
  void pass(int rank, int barrier, std::vector<Outgoing>& out) const override {
    if (rank == 0) notify(0, barrier, out);
  }
  std::vector<int> peers(int rank) const override {
    std::vector<int> out;
    if (order_aware_ || (replies_ && rank == 0)) {
      // Any process but the root may be interior and any may be its child; the root replies to all.
      for (int r = 0; r < processes(); ++r)
        if (r != rank) out.push_back(r);
      return out;
    }
    if (rank != 0) out.push_back(up_parent_[rank]);
    for (int c : children_[rank])
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    return out;
  }

 private:
  static std::vector<std::vector<int>> children_of(const TreeGraph& tree) {
    std::vector<std::vector<int>> out(boost::num_vertices(tree));
    for (std::size_t r = 0; r < out.size(); ++r) out[r] = tree_children(tree, static_cast<int>(r));
    return out;
  }
  void notify(int rank, int barrier, std::vector<Outgoing>& out) const {
    const std::vector<std::vector<int>>* children = &children_;
    if (order_aware_) {
      if (processes() == 1) return;
      if (current_barrier_ != barrier)
        throw std::logic_error("barrier protocol: a notice for a barrier whose tree the root has not built");
      children = &current_;
    }
    for (int c : (*children)[rank]) out.push_back({c, Message::Kind::BarrierNotice, barrier});
  }

  // A process other than the root that has arrived and has heard from its whole subtree sends its
  // (combined) arrival to its parent; exactly once, when the last of the two happens.
  void forward_arrival(const BarrierState& state, int rank, int barrier, std::vector<Outgoing>& out) const {
    if (rank == 0 || !state.arrived[barrier]) return;
    if (state.arrivals[barrier] == static_cast<int>(up_children_[rank].size()))
      out.push_back({up_parent_[rank], Message::Kind::BarrierArrival, barrier});
  }

  NotifySpec notify_;
  bool order_aware_;
  bool flat_arrivals_;
  bool replies_;
  std::vector<std::vector<int>> up_children_;  // the registration tree: whose arrivals each rank gathers
  std::vector<int> up_parent_;                 // ... and to whom it sends its own (-1 for the root)
  std::vector<std::vector<int>> children_;     // fixed trees: each rank's children in send order
  // order-aware-skewed: the tree of the barrier being notified, built when the root has all arrivals.
  mutable std::vector<std::vector<int>> current_;
  mutable int current_barrier_ = -1;
};

// All-to-all (B&M 3.2): every process tells every other one; a process passes with P-1 arrivals.
class AllToAll final : public Protocol {
 public:
  explicit AllToAll(int processes) : Protocol(processes) {}
  std::string_view name() const override { return "all-to-all"; }
  using Protocol::arrive;
  void arrive(int rank, int barrier, std::vector<Outgoing>& out) const override {
    for (int r = 0; r < processes(); ++r)
      if (r != rank) out.push_back({r, Message::Kind::BarrierArrival, barrier});
  }
  bool passed(const BarrierState& state, int, int barrier) const override {
    return state.arrivals[barrier] == processes() - 1;
  }
  void pass(int, int, std::vector<Outgoing>&) const override {}
  std::vector<int> peers(int rank) const override {
    std::vector<int> out;
    for (int r = 0; r < processes(); ++r)
      if (r != rank) out.push_back(r);
    return out;
  }
};

}  // namespace

std::shared_ptr<const Protocol> make_protocol(BarrierKind kind, int processes, const NotifySpec& notify,
                                              TreeKind arrive) {
  if (processes <= 0) throw std::invalid_argument("barrier protocol: a job needs at least one process");
  switch (kind) {
    case BarrierKind::Root:
      return std::make_shared<RootTree>(processes, notify, arrive);
    case BarrierKind::AllToAll:
      if (arrive != TreeKind::Flat)
        throw std::invalid_argument("barrier protocol: all-to-all takes no registration tree");
      return std::make_shared<AllToAll>(processes);
  }
  throw std::logic_error("barrier protocol: unknown kind");
}

}  // namespace cosched::barrier
