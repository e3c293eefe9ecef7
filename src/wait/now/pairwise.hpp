#pragma once
// WAIT_PAIRWISE, implicit coscheduling's conditional two-phase waiting (Arpaci-Dusseau; Brim & Miller
// 3.1, 3.3, 3.4), and its variants BLOCK_IMMEDIATELY and LARGE_INITIAL_SPIN.
//
// Rule: spin for a baseline (reads: 2L + 4o + W, a round trip plus a context switch; barriers: 3W), then
// keep spinning in windows of `window` (default: the barrier baseline) as long as the phase just ended
// received at least threshold(length) = max(1, floor(length / read baseline)) messages, i.e. messages kept
// arriving at least as often as one per read round trip plus switch. With the defaults (L 10us, o 2us,
// W 100us) a window of 300us needs 2 messages: Brim & Miller's "approximately one to two messages".

#include <optional>

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

// The parameters of the two-phase algorithms (pairwise and its variants, and the informed algorithms of
// informed.hpp, whose reads wait as pairwise's): each key is taken by the algorithms that list it.
struct TwoPhaseParams : config::NowWaitParams {
  std::optional<Nanos> read_spin;     // pairwise baseline for reads (default 2L + 4o + context switch)
  std::optional<Nanos> barrier_spin;  // pairwise baseline at barriers (default 3 context switches)
  std::optional<Nanos> window;        // conditional spin window (default: the barrier baseline)
  // The conditional spin rule: a count of messages per window, or each message extends the spin.
  enum class Conditional { Count, Extend };
  Conditional conditional = Conditional::Extend;
  // What a process woken during a wait spins first when it runs again: the wait's first phase, or one
  // conditional window.
  enum class AfterWake { FirstPhase, Window };
  AfterWake after_wake = AfterWake::Window;
  std::optional<Nanos> initial_spin;  // large-initial-spin, in time
  bool initial_spin_v_l_2o = false;   // large-initial-spin: "V+L+2o" (Brim & Miller 3.3)
  // The informed algorithms (B&M 3.3): block when the barrier is predicted further away than this (default
  // two context switches).
  std::optional<Nanos> threshold;
};

// block-immediately's: the conditional window of its reads.
struct BlockImmediatelyParams : TwoPhaseParams {
  enum class ReadWindow { Pairwise, ReadBaseline, None };
  ReadWindow read_window = ReadWindow::Pairwise;
};

// The keys the two-phase algorithms share, in the order they list them (before their own).
extern const config::PolicyKey kReadSpinKey, kBarrierSpinKey, kWindowKey, kConditionalKey, kAfterWakeKey;
// Their resolved form, and the refusal of barrier_spin by those that set the barrier spin themselves.
void two_phase_json(const config::PolicyParams& params, nlohmann::ordered_json& out);
template <const char* algorithm>
void own_barrier_spin(config::MapReader& map, const config::PolicyParams& params) {
  if (static_cast<const TwoPhaseParams&>(params).barrier_spin)
    map.optional("barrier_spin")
        ->error(fmt::format("{} sets the barrier spin itself; only pairwise takes barrier_spin", algorithm));
}
// Pairwise's timings from the keys and the platform.
Pairwise::Timings pairwise_timings(const TwoPhaseParams& params, const WaitPlatform& platform);

extern const NowWaitEntry kPairwiseEntry;
extern const NowWaitEntry kBlockImmediatelyEntry;
extern const NowWaitEntry kLargeInitialSpinEntry;

}  // namespace cosched::wait
