#pragma once
// The barrier protocol of one job instance (Brim & Miller 3.2): which barrier messages a process sends
// when it arrives, when it handles a barrier message and when it passes; when it has passed; and which
// processes may send barrier messages to which (the SimGrid engine opens its mailboxes from that).
// What a process has received lives in its own BarrierState, which the protocol reads and updates; the
// protocol itself is read-only during a run but for the order-aware tree of the barrier being notified
// (what the root's notice tells the interior nodes), so each job instance has its own. No SimGrid.
// docs/models/now.md sections 4.3 and 4.4 state the rules.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "barrier/barrier_kind.hpp"
#include "barrier/tree_kind.hpp"
#include "message/now_message.hpp"

namespace cosched::barrier {

using now::Message;

// A barrier message a process must send, in order: to rank `to` of its job.
struct Outgoing {
  int to = 0;
  Message::Kind kind = Message::Kind::BarrierArrival;
  int barrier = 0;
};

// What one process has received of its job's barriers, by barrier index.
struct BarrierState {
  std::vector<int> arrivals;       // arrival messages handled
  std::vector<char> notices;       // completion notice handled
  std::vector<int> arrival_order;  // the root, order-aware trees: senders of the arrivals being gathered
  std::vector<char> arrived;       // registration trees: the process itself has arrived
  explicit BarrierState(int barriers = 0)
      : arrivals(barriers, 0), notices(barriers, 0), arrived(barriers, 0) {}
};

class Protocol {
 public:
  virtual ~Protocol() = default;
  virtual std::string_view name() const = 0;
  int processes() const { return processes_; }
  // `rank` reaches barrier `barrier`: the messages it sends.
  virtual void arrive(int rank, int barrier, std::vector<Outgoing>& out) const = 0;
  // The same, recording the arrival in the process's own state (a registration tree's interior process
  // forwards only once it and its subtree have arrived). By default the stateless form.
  virtual void arrive(BarrierState& state, int rank, int barrier, std::vector<Outgoing>& out) const {
    (void)state;
    arrive(rank, barrier, out);
  }
  // `rank` handled barrier message `m`: records it and appends what it must send in consequence.
  virtual void receive(BarrierState& state, int rank, const Message& m, std::vector<Outgoing>& out) const;
  // Has `rank`, having arrived at `barrier`, received all it needs to pass it?
  virtual bool passed(const BarrierState& state, int rank, int barrier) const = 0;
  // `rank` passes `barrier`: the messages it sends before going on.
  virtual void pass(int rank, int barrier, std::vector<Outgoing>& out) const = 0;
  // The ranks `rank` may send barrier messages to, whatever happens during the run.
  virtual std::vector<int> peers(int rank) const = 0;

 protected:
  explicit Protocol(int processes) : processes_(processes) {}

 private:
  int processes_;
};

// How a root barrier's completion notices travel (barrier.notify, docs/models/now.md section 4.4): the
// tree kind, and the L and o that shape the skewed trees.
struct NotifySpec {
  TreeKind tree = TreeKind::Flat;
  std::int64_t latency = 10'000;  // ns
  std::int64_t overhead = 2'000;  // ns
  // The root replies to every arrival with the number of processes arrived so far (informed waiting,
  // B&M 3.3: parasitic information "distributed explicitly"; docs/models/now.md section 5.2).
  bool arrival_replies = false;
};

// The protocol of `kind` for one job instance of `processes` processes. `arrive` is the registration
// tree of a root barrier (barrier.arrive, section 4.5): flat, binary, binomial or skewed, shaped with
// notify's L and o; order-aware-skewed is refused (std::invalid_argument).
std::shared_ptr<const Protocol> make_protocol(BarrierKind kind, int processes, const NotifySpec& notify = {},
                                              TreeKind arrive = TreeKind::Flat);

}  // namespace cosched::barrier
