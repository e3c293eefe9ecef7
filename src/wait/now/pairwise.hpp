#pragma once
// WAIT_PAIRWISE, implicit coscheduling's conditional two-phase waiting (Arpaci-Dusseau; Brim & Miller
// 3.1, 3.3, 3.4), and its variants BLOCK_IMMEDIATELY and LARGE_INITIAL_SPIN.
//
// Rule: spin for a baseline (reads: 2L + 4o + W, a round trip plus a context switch; barriers: 3W), then
// keep spinning in windows of `window` (default: the barrier baseline) as long as the phase just ended
// received at least threshold(length) = max(1, floor(length / read baseline)) messages, i.e. messages kept
// arriving at least as often as one per read round trip plus switch. With the defaults (L 10us, o 2us,
// W 100us) a window of 300us needs 2 messages: Brim & Miller's "approximately one to two messages".

#include "wait/now/now_wait.hpp"

namespace cosched::wait {

class Pairwise final : public NowWaitAlgorithm {
 public:
  struct Timings {
    Nanos read_spin = 0;     // baseline for reads
    Nanos barrier_spin = 0;  // baseline at barriers (0: block at once, BLOCK_IMMEDIATELY)
    Nanos window = 0;        // conditional spin window
    Nanos read_window = -1;  // the window of reads (-1: `window`; 0: no conditional phase for reads)
    // Conditional rule: false, a phase ends and the next is granted if it received threshold(length)
    // messages (count); true, each message extends the phase to at least its arrival + the window, and
    // a phase that ends is the last (extend, B&M 3.4).
    bool extend = false;
    // After a wake-up: one window (true) or the first phase again (false).
    bool window_after_wake = false;
  };
  explicit Pairwise(Timings timings);
  Nanos first_spin(const Observation& seen) const override;
  Nanos next_spin(const Observation& seen) const override;
  Nanos after_wake(const Observation& seen) const override;
  Nanos extension(WaitKind kind) const override { return timings_.extend ? window(kind) : 0; }
  Nanos window(WaitKind kind) const {
    return kind == WaitKind::Read ? timings_.read_window : timings_.window;
  }
  std::int64_t threshold(Nanos length) const;
  const Timings& timings() const { return timings_; }

 private:
  Timings timings_;
};

}  // namespace cosched::wait
