#include "barrier/protocol.hpp"

#include <stdexcept>

namespace cosched::barrier {

void Protocol::receive(BarrierState& state, int, const Message& m, std::vector<Outgoing>&) const {
  switch (m.kind) {
    case Message::Kind::BarrierArrival:
      ++state.arrivals[m.barrier];
      return;
    case Message::Kind::BarrierNotice:
      state.notices[m.barrier] = 1;
      return;
    case Message::Kind::ReadRequest:
    case Message::Kind::ReadReply:
      break;
  }
  throw std::logic_error("barrier protocol: handed a message that is not a barrier message");
}

namespace {

// Root-based with a sequential flat notification tree (B&M 3.2: "the root process handled all barrier
// notification messages using a sequential flat tree"): every process but rank 0 sends an arrival to
// the root; the root, once it has all P-1 and has arrived, notifies ranks 1..P-1 in turn.
class FlatRoot final : public Protocol {
 public:
  explicit FlatRoot(int processes) : Protocol(processes) {}
  std::string_view name() const override { return "root"; }
  void arrive(int rank, int barrier, std::vector<Outgoing>& out) const override {
    if (rank != 0) out.push_back({0, Message::Kind::BarrierArrival, barrier});
  }
  bool passed(const BarrierState& state, int rank, int barrier) const override {
    return rank == 0 ? state.arrivals[barrier] == processes() - 1 : state.notices[barrier] != 0;
  }
  void pass(int rank, int barrier, std::vector<Outgoing>& out) const override {
    if (rank != 0) return;
    for (int r = 1; r < processes(); ++r) out.push_back({r, Message::Kind::BarrierNotice, barrier});
  }
  std::vector<int> peers(int rank) const override {
    std::vector<int> out;
    if (rank != 0) {
      out.push_back(0);
    } else {
      for (int r = 1; r < processes(); ++r) out.push_back(r);
    }
    return out;
  }
};

// All-to-all (B&M 3.2): every process tells every other one; a process passes with P-1 arrivals.
class AllToAll final : public Protocol {
 public:
  explicit AllToAll(int processes) : Protocol(processes) {}
  std::string_view name() const override { return "all-to-all"; }
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

std::shared_ptr<const Protocol> make_protocol(config::BarrierKind kind, int processes) {
  if (processes <= 0) throw std::invalid_argument("barrier protocol: a job needs at least one process");
  switch (kind) {
    case config::BarrierKind::Root:
      return std::make_shared<FlatRoot>(processes);
    case config::BarrierKind::AllToAll:
      return std::make_shared<AllToAll>(processes);
  }
  throw std::logic_error("barrier protocol: unknown kind");
}

}  // namespace cosched::barrier
