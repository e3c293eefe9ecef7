#include "wait/now/pairwise.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosched::wait {

Pairwise::Pairwise(Timings timings) : timings_(timings) {
  if (timings_.read_window < 0) timings_.read_window = timings_.window;
  if (timings_.read_spin <= 0)
    throw std::invalid_argument("wait.read_spin: the read baseline must be positive");
  if (timings_.window <= 0)
    throw std::invalid_argument("wait.window: the conditional window must be positive");
}

Nanos Pairwise::first_spin(const Observation& seen) const {
  return seen.kind == WaitKind::Read ? timings_.read_spin : timings_.barrier_spin;
}

std::int64_t Pairwise::threshold(Nanos length) const {
  return std::max<Nanos>(1, length / timings_.read_spin);
}

Nanos Pairwise::after_wake(const Observation& seen) const {
  if (!timings_.window_after_wake) return first_spin(seen);
  // BLOCK_IMMEDIATELY never spins at a barrier, woken or not.
  if (seen.kind == WaitKind::Barrier && timings_.barrier_spin == 0) return 0;
  return window(seen.kind);
}

Nanos Pairwise::next_spin(const Observation& seen) const {
  // Under `extend` every message has already moved the phase's end (Node::deliver), so a phase that ends
  // has no message left extending it: it ran out, or the quantum ended during it, and the process blocks.
  if (timings_.extend) return 0;
  return seen.messages.total() >= threshold(seen.phase_length) ? window(seen.kind) : 0;
}

namespace {

using config::PolicyParams;
using Json = nlohmann::ordered_json;
using Conditional = TwoPhaseParams::Conditional;
using AfterWake = TwoPhaseParams::AfterWake;
using ReadWindow = BlockImmediatelyParams::ReadWindow;

double seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

const config::Names<Conditional> kConditionalNames = {{"count", Conditional::Count},
                                                      {"extend", Conditional::Extend}};
const config::Names<AfterWake> kAfterWakeNames = {{"first-phase", AfterWake::FirstPhase},
                                                  {"window", AfterWake::Window}};
const config::Names<ReadWindow> kReadWindowNames = {{"pairwise", ReadWindow::Pairwise},
                                                    {"read-baseline", ReadWindow::ReadBaseline},
                                                    {"none", ReadWindow::None}};

}  // namespace

constinit const config::PolicyKey kReadSpinKey = config::duration_key<&TwoPhaseParams::read_spin>(
    "read_spin",
    "the first phase of a read's wait (duration, default 2L + 4o + W: a round trip and a switch)");
// barrier_spin is read (and its value checked) by every two-phase algorithm; those that set the barrier spin
// themselves refuse it afterwards (own_barrier_spin).
constinit const config::PolicyKey kBarrierSpinKey = config::duration_key<&TwoPhaseParams::barrier_spin>(
    "barrier_spin", "the first phase of a barrier's wait (duration, default 3W)");
constinit const config::PolicyKey kWindowKey = config::duration_key<&TwoPhaseParams::window>(
    "window", "the conditional spin window (duration, default the barrier baseline)");
constinit const config::PolicyKey kConditionalKey =
    config::choice_key<&TwoPhaseParams::conditional, kConditionalNames>(
        "conditional",
        "the conditional spin rule: count (messages per window) or extend (each message extends the "
        "spin; default)");
constinit const config::PolicyKey kAfterWakeKey =
    config::choice_key<&TwoPhaseParams::after_wake, kAfterWakeNames>(
        "after_wake", "what a woken process spins first: first-phase or window (default window)");

void two_phase_json(const PolicyParams& params, Json& out) {
  const auto& w = static_cast<const TwoPhaseParams&>(params);
  if (w.read_spin) out["read_spin_s"] = seconds(*w.read_spin);
  if (w.barrier_spin) out["barrier_spin_s"] = seconds(*w.barrier_spin);
  if (w.window) out["window_s"] = seconds(*w.window);
  if (w.initial_spin) out["initial_spin_s"] = seconds(*w.initial_spin);
  if (w.initial_spin_v_l_2o) out["initial_spin"] = "V+L+2o";
  resume_json(params, out);
  out["conditional"] = config::name_of(kConditionalNames, w.conditional);
  out["after_wake"] = config::name_of(kAfterWakeNames, w.after_wake);
  if (w.threshold) out["threshold_s"] = seconds(*w.threshold);
  prefetch_json(params, out);
}

Pairwise::Timings pairwise_timings(const TwoPhaseParams& w, const WaitPlatform& platform) {
  Pairwise::Timings t;
  // Baselines (implicit coscheduling, docs/models/now.md's Sources; Brim & Miller 3.3): a read waits for a
  // round trip plus a switch; a barrier for three context switches.
  t.read_spin = w.read_spin.value_or(2 * platform.latency + 4 * platform.overhead + platform.context_switch);
  t.barrier_spin = w.barrier_spin.value_or(3 * platform.context_switch);
  t.window = w.window.value_or(t.barrier_spin > 0 ? t.barrier_spin : t.read_spin);
  t.extend = w.conditional == Conditional::Extend;
  t.window_after_wake = w.after_wake == AfterWake::Window;
  return t;
}

namespace {

constexpr char kBlockImmediatelyName[] = "block-immediately";
constexpr char kLargeInitialSpinName[] = "large-initial-spin";

const config::PolicyKey kPairwiseKeys[] = {kReadSpinKey,    kBarrierSpinKey, kWindowKey,   kResumeKey,
                                           kConditionalKey, kAfterWakeKey,   kPrefetchKey, kPrefetchLeadKey};
const config::PolicyKey kBlockImmediatelyKeys[] = {
    kReadSpinKey,
    kBarrierSpinKey,
    kWindowKey,
    kResumeKey,
    kConditionalKey,
    kAfterWakeKey,
    config::choice_key<&BlockImmediatelyParams::read_window, kReadWindowNames>(
        "read_window", "the conditional window of reads: pairwise, read-baseline or none (default pairwise)"),
    kPrefetchKey,
    kPrefetchLeadKey};
const config::PolicyKey kLargeInitialSpinKeys[] = {
    {"initial_spin", "the barrier's first phase: a duration or V+L+2o (required)",
     [](const config::Field& f, PolicyParams& p) {
       auto& w = config::params_as<TwoPhaseParams>(p);
       if (f.scalar("a duration or V+L+2o") == "V+L+2o") {
         w.initial_spin_v_l_2o = true;
       } else {
         w.initial_spin = config::duration(f);
       }
     },
     true, "e.g. 600us or V+L+2o"},
    kReadSpinKey,
    kBarrierSpinKey,
    kWindowKey,
    kResumeKey,
    kConditionalKey,
    kAfterWakeKey,
    kPrefetchKey,
    kPrefetchLeadKey};

void block_immediately_json(const PolicyParams& params, Json& out) {
  two_phase_json(params, out);
  out["read_window"] =
      config::name_of(kReadWindowNames, static_cast<const BlockImmediatelyParams&>(params).read_window);
}

}  // namespace

const NowWaitEntry kPairwiseEntry{
    {"pairwise",
     "WAIT_PAIRWISE: implicit coscheduling's conditional two-phase waiting (Arpaci-Dusseau; Brim & Miller "
     "3.3)",
     kPairwiseKeys, config::default_params<TwoPhaseParams>, two_phase_json},
    [](const PolicyParams& params, const WaitPlatform& platform) -> std::unique_ptr<NowWaitAlgorithm> {
      return std::make_unique<Pairwise>(
          pairwise_timings(static_cast<const TwoPhaseParams&>(params), platform));
    }};

const NowWaitEntry kBlockImmediatelyEntry{
    {kBlockImmediatelyName,
     "BLOCK_IMMEDIATELY: pairwise at reads, block at once at barriers (Brim & Miller 3.3)",
     kBlockImmediatelyKeys, config::default_params<BlockImmediatelyParams>, block_immediately_json,
     own_barrier_spin<kBlockImmediatelyName>},
    [](const PolicyParams& params, const WaitPlatform& platform) -> std::unique_ptr<NowWaitAlgorithm> {
      const auto& w = static_cast<const BlockImmediatelyParams&>(params);
      auto t = pairwise_timings(w, platform);
      t.barrier_spin = 0;
      t.read_window = w.read_window == ReadWindow::Pairwise       ? t.window
                      : w.read_window == ReadWindow::ReadBaseline ? t.read_spin
                                                                  : 0;
      return std::make_unique<Pairwise>(t);
    }};

const NowWaitEntry kLargeInitialSpinEntry{
    {kLargeInitialSpinName,
     "LARGE_INITIAL_SPIN: pairwise with a long first spin at barriers, such as V+L+2o (Brim & Miller 3.3)",
     kLargeInitialSpinKeys, config::default_params<TwoPhaseParams>, two_phase_json,
     own_barrier_spin<kLargeInitialSpinName>},
    [](const PolicyParams& params, const WaitPlatform& platform) -> std::unique_ptr<NowWaitAlgorithm> {
      const auto& w = static_cast<const TwoPhaseParams&>(params);
      auto t = pairwise_timings(w, platform);
      // V + L + 2o: the largest load imbalance plus one message's latency (Brim & Miller 3.3).
      t.barrier_spin = w.initial_spin_v_l_2o
                           ? platform.load_imbalance + platform.latency + 2 * platform.overhead
                           : *w.initial_spin;
      return std::make_unique<Pairwise>(t);
    }};

}  // namespace cosched::wait
