#pragma once
// How a NOW process waits for a read reply or at a barrier: its spin state and every rule that moves it
// (docs/models/now.md section 5, "The rules of a wait, in one place"). The waiting algorithm
// (wait::NowWaitAlgorithm) decides each spin phase's length; SpinWait applies its decisions: a message
// arriving during a spin, the end of a spin phase, a spin cut by the quantum, a spin interrupted by
// leaving the CPU or by a message's handler. Pure logic: the workstation (now/node.cpp) owns the CPU and
// calls these rules; it builds the algorithm's Observation, passed here as a callable so that it is only
// built when the algorithm is asked.

#include <algorithm>
#include <array>
#include <cstdint>

#include "message/now_message.hpp"
#include "wait/now/now_wait.hpp"

namespace cosched::now {

class SpinWait {
 public:
  // What the process does after SpinWait::decide: block now, or spin until phase_end().
  enum class Next : std::uint8_t { Block, Spin };
  // Which rule made the last decision (for the decision lines of cosched_now_wait).
  enum class Why : std::uint8_t { FirstPhase, AfterWake, PhaseEnded, PhaseGoesOn, ResumeBlock };
  // What a quantum's end did to a spin: nothing (no spin with time left, or one that may not be judged
  // now), a judgement that blocks, or a new phase.
  enum class Cut : std::uint8_t { None, Blocks, SpinsAgain };

  // The extension a message gives a spin phase, by WaitKind (0: none), from the job's algorithm.
  void set_algorithm(const wait::NowWaitAlgorithm& algorithm) {
    extension_ = {algorithm.extension(wait::WaitKind::Read), algorithm.extension(wait::WaitKind::Barrier)};
  }

  // A new wait (a read's reply, or a barrier) begins: no spin phase yet.
  void begin() {
    spinning_ = false;
    spun_ = false;
    blocked_ = false;
  }

  // The wait is over (its reply came, or the barrier passed).
  void complete() {
    spinning_ = false;
    interrupted_ = false;
  }

  // B&M 3.4 (section 5, `wait.conditional`): a message that arrives while the process spins is counted
  // for the algorithm's judgement at the phase's end (`count`), and with `extend` moves the phase's end
  // to at least its arrival + one conditional window ("extend the waiting period of that process by at
  // least one conditional spin time"). The one place a spinning process reacts to a message.
  // Returns true when the process was spinning.
  [[gnu::always_inline]] bool on_message(std::int64_t now, wait::WaitKind kind, Message::Kind message) {
    if (!spinning_) return false;
    last_message_ = now;
    if (const std::int64_t extension = extension_[static_cast<int>(kind)]; extension > 0)
      phase_end_ = std::max(phase_end_, now + extension);
    // A table indexed by Message::Kind: a switch here is an unpredictable indirect jump.
    using Counts = wait::MessageCounts;
    static constexpr int Counts::*kCount[] = {
        &Counts::read_requests,   &Counts::read_replies, &Counts::barrier_arrivals, &Counts::barrier_notices,
        &Counts::barrier_replies, &Counts::wakeups,      &Counts::keep_alives};
    using Kind = Message::Kind;
    static_assert(static_cast<int>(Kind::ReadRequest) == 0 && static_cast<int>(Kind::ReadReply) == 1 &&
                  static_cast<int>(Kind::BarrierArrival) == 2 && static_cast<int>(Kind::BarrierNotice) == 3 &&
                  static_cast<int>(Kind::BarrierReply) == 4 && static_cast<int>(Kind::Wakeup) == 5 &&
                  static_cast<int>(Kind::KeepAlive) == 6);
    ++(messages_.*kCount[static_cast<int>(message)]);
    return true;
  }

  // The process holds the CPU, its wait not over and nothing to handle or send: block (then call block()),
  // or spin until phase_end(). `always_spin`: its scheduler keeps it spinning (gang, B&M 3.1). `observe()`
  // returns the algorithm's Observation (a const reference), built from this state and the process's.
  // - back on the CPU after a spin was interrupted: wait.resume (restart, keep, block);
  // - no spin phase yet: the first phase of the wait, or after a wake-up the algorithm's after_wake;
  // - a phase that ran out: the algorithm judges it (next_spin: another phase, or block);
  // - a phase with time left (a handler interrupted it): it goes on to the same end (section 5's last
  //   choice).
  template <typename Observe>
  [[gnu::always_inline]] Next decide(std::int64_t now, const wait::NowWaitAlgorithm& algorithm,
                                     bool always_spin, Observe&& observe) {
    std::int64_t next = -1;  // the length of a new spin phase, if one starts now
    if (interrupted_) {
      interrupted_ = false;
      switch (algorithm.resume()) {
        case wait::Resume::Restart:
          spinning_ = false;  // the wait starts afresh from its first phase
          break;
        case wait::Resume::Keep:
          break;  // the phase keeps its end time
        case wait::Resume::Block:
          why_ = Why::ResumeBlock;
          return Next::Block;
      }
    }
    if (!spinning_) {
      why_ = blocked_ ? Why::AfterWake : Why::FirstPhase;
      next = always_spin ? wait::kSpinForever
             : blocked_  ? algorithm.after_wake(observe())
                         : algorithm.first_spin(observe());
    } else if (now >= phase_end_) {
      why_ = Why::PhaseEnded;
      next = algorithm.next_spin(observe());
    } else {
      why_ = Why::PhaseGoesOn;
    }
    if (next == 0) return Next::Block;
    if (next > 0) start_phase(now, next);
    return Next::Spin;
  }

  // The quantum ended while the process spun (B&M 3.3: a process that tries to spin longer is "pre-empted
  // and slept"; section 5, quantum rule): the phase ends there and the algorithm judges it. `has_work()`:
  // it has messages to handle or send, or its wait is over, so it does not block. Cut::Blocks: it is to
  // block (then call block()); Cut::SpinsAgain: it is in a new phase; Cut::None: its spin, if any, is as it
  // was.
  template <typename HasWork, typename Observe>
  Cut quantum_cut(std::int64_t now, wait::WaitKind kind, const wait::NowWaitAlgorithm& algorithm,
                  bool always_spin, HasWork&& has_work, Observe&& observe) {
    if (always_spin || !spinning_ || now >= phase_end_) return Cut::None;
    if (has_work() || algorithm.spins_forever(kind)) return Cut::None;
    phase_length_ = now - phase_start_;
    const std::int64_t next = algorithm.next_spin(observe());
    if (next == 0) return Cut::Blocks;
    start_phase(now, next);
    return Cut::SpinsAgain;
  }

  // The process leaves the CPU while it may spin (preempted, or its quantum ended): wait.resume decides
  // what its spin does when it runs again, unless it never blocks (section 5, wait.resume).
  void leave_cpu_runnable(wait::WaitKind kind, const wait::NowWaitAlgorithm& algorithm, bool always_spin) {
    interrupted_ = spinning_ && !always_spin && !algorithm.spins_forever(kind);
  }
  // The process leaves the CPU blocked or finished: no spin goes on.
  void leave_cpu_stopped() { spinning_ = false; }
  // Its quantum ended with nobody else ready: it never left, and its spin goes on.
  void kept_cpu() { interrupted_ = false; }
  // The process blocks: the wait goes on off the CPU, and a wake-up brings it back (after_wake).
  void block() {
    spinning_ = false;
    blocked_ = true;
  }
  // Informed waiting (section 5.2): the root's reply makes the process decide afresh with what it was told.
  void decide_afresh() { spinning_ = false; }

  bool spinning() const { return spinning_; }
  bool spun() const { return spun_; }        // this wait entered a spin phase
  bool blocked() const { return blocked_; }  // this wait blocked at least once
  std::int64_t phase_start() const { return phase_start_; }
  std::int64_t phase_end() const { return phase_end_; }
  std::int64_t phase_length() const { return phase_length_; }
  const wait::MessageCounts& messages() const { return messages_; }  // during the current phase
  std::int64_t last_message() const { return last_message_; }        // -1: none in the current phase
  Why why() const { return why_; }

 private:
  void start_phase(std::int64_t now, std::int64_t length) {
    spinning_ = true;
    spun_ = true;
    phase_start_ = now;
    phase_length_ = length;
    phase_end_ = now + length;
    messages_ = {};
    last_message_ = -1;
  }

  // What a message's arrival reads first (a Process keeps this state inside its first cache lines).
  bool spinning_ = false;
  bool interrupted_ = false;  // its spin was interrupted by leaving the CPU: wait.resume applies
  bool spun_ = false;
  bool blocked_ = false;
  Why why_ = Why::FirstPhase;
  std::int64_t phase_end_ = 0;
  std::int64_t last_message_ = -1;  // arrival of the last message of the current phase
  std::array<std::int64_t, 2> extension_{};
  wait::MessageCounts messages_;
  std::int64_t phase_start_ = 0;
  std::int64_t phase_length_ = 0;
};

}  // namespace cosched::now
