#pragma once
// Waiting algorithms of the NOW model (Brim & Miller 3.1 and 3.3; Arpaci-Dusseau's conditional
// two-phase waiting). A wait for a read reply or a barrier is a sequence of spin phases, then blocking.
// The algorithm decides each phase's length; the workstation's node does the spinning and counts the
// messages that arrive during a phase. docs/models/now.md states the rules and their sources.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>

#include "config/scenario.hpp"

namespace cosched::wait {

using Nanos = std::int64_t;
inline constexpr Nanos kSpinForever = std::numeric_limits<Nanos>::max() / 4;

enum class WaitKind { Read, Barrier };

// Messages that arrived for a process, by kind.
struct MessageCounts {
  int read_requests = 0;
  int read_replies = 0;
  int barrier_arrivals = 0;
  int barrier_notices = 0;
  int barrier_replies = 0;  // the root's replies to arrivals (informed waiting)
  int wakeups = 0;          // prefetching wake-ups (wait.prefetch)
  int keep_alives = 0;      // the barrier root's keep-alives (B&M 3.4)
  int total() const {
    return read_requests + read_replies + barrier_arrivals + barrier_notices + barrier_replies + wakeups +
           keep_alives;
  }
};

// What a waiting process knows when its algorithm decides.
struct Observation {
  WaitKind kind = WaitKind::Read;
  Nanos phase_length = 0;                   // next_spin: the length of the spin phase that just ended
  MessageCounts messages;                   // next_spin: the messages that arrived during it
  std::optional<Nanos> since_last_message;  // next_spin: since the phase\'s last message, if any
  Nanos barrier_elapsed = 0;                // at a barrier: the time since this process arrived at it
  std::optional<int> arrived;               // what the root told it: processes arrived at the barrier so far
  // Informed waiting (B&M 3.3, docs/models/now.md section 5.2), at a barrier:
  Nanos told_elapsed = 0;     // with `arrived`: how long the barrier had been open when the root told it
  Nanos since_told = 0;       // with `arrived`: the time since it learnt it (0 at the root, which knows)
  Nanos phase_elapsed = 0;    // the time from the start of its phase (its last pass, or 0) to its arrival
  Nanos phase_dedicated = 0;  // its phase's length on a dedicated machine (sync_interval x its factor)
};

using Resume = config::NowWait::Resume;

class NowWaitAlgorithm {
 public:
  virtual ~NowWaitAlgorithm() = default;
  // The time a message arriving during a spin phase extends the phase to at least (from its arrival);
  // 0: messages do not extend phases (the count rule judges them at the phase's end).
  virtual Nanos extension(WaitKind) const { return 0; }
  // SPIN_FOREVER: the wait never blocks, whatever interrupts it.
  virtual bool spins_forever(WaitKind) const { return false; }
  // What a spin interrupted by a preemption or the end of a quantum does when the process runs again.
  Resume resume() const { return resume_; }
  void set_resume(Resume resume) { resume_ = resume; }

  // Length of the first spin phase of a wait; 0 blocks at once.
  virtual Nanos first_spin(const Observation& seen) const = 0;
  // At the end of a spin phase: the next phase's length, or 0 to block.
  virtual Nanos next_spin(const Observation& seen) const = 0;
  // The first phase of a process that blocked during this wait, was woken and runs again.
  virtual Nanos after_wake(const Observation& seen) const { return first_spin(seen); }
  // The algorithm needs the root's replies to arrivals (`Observation::arrived`); the process then
  // decides afresh (first_spin, or after_wake if it blocked) when it has handled its reply.
  virtual bool needs_arrival_replies() const { return false; }

 private:
  Resume resume_ = Resume::Restart;
};

// What the defaults of the two-phase algorithms derive from.
struct WaitPlatform {
  Nanos latency = 0;
  Nanos overhead = 0;
  Nanos context_switch = 0;
  Nanos load_imbalance = 0;  // V: the largest difference between two processes' phase computation
  // The job's imbalance as the informed algorithms know it (B&M 3.3: "foreknowledge of the imbalance").
  Nanos sync_interval = 0;
  double imbalance = 1.0;  // v: phase factors uniform on [2/(1+v), 2v/(1+v)] (docs/models/now.md 4.1)
  int processes = 1;
};

// The algorithm `wait.algorithm` names, through its registry entry (wait/now/now_wait_registry.cpp).
std::unique_ptr<NowWaitAlgorithm> make_now_wait(const config::NowWait& wait, const WaitPlatform& platform);
// How long before a read its partner is woken (wait.prefetch, which every algorithm takes): the given
// prefetch_lead, else W + L + 2o; -1 when prefetch is off.
Nanos prefetch_lead(const config::NowWait& wait, const WaitPlatform& platform);

}  // namespace cosched::wait
