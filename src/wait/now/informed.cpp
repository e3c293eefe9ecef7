#include "wait/now/informed.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cosched::wait {

Informed::Informed(Settings settings) : settings_(settings), reads_(settings.reads) {
  if (settings_.threshold < 0) throw std::invalid_argument("wait.threshold: must not be negative");
  if (settings_.margin <= 0 || settings_.reply_spin <= 0)
    throw std::invalid_argument("informed waiting: the margin and the reply spin must be positive");
  if (settings_.processes < 1) throw std::invalid_argument("informed waiting: a job has processes");
}

std::optional<Nanos> Informed::remaining(const Observation& seen) const {
  const auto& s = settings_;
  const double v = std::max(1.0, s.imbalance);
  // Phase factors are uniform on [lo, hi] (docs/models/now.md 4.1); of P draws the k-th smallest is
  // expected at lo + (hi - lo) k / (P + 1), the latest at lo + (hi - lo) P / (P + 1).
  const double lo = 2.0 / (1.0 + v), hi = 2.0 * v / (1.0 + v);
  const double p = s.processes;
  const double latest = lo + (hi - lo) * p / (p + 1.0);
  const double interval = static_cast<double>(s.sync_interval);
  // Its own pace: the wall time its phase took per unit of dedicated time (1 when it cannot tell).
  const double pace =
      seen.phase_dedicated > 0 && seen.phase_elapsed > 0
          ? static_cast<double>(seen.phase_elapsed) / static_cast<double>(seen.phase_dedicated)
          : 1.0;
  double from_then = 0;  // from its arrival (variance-guess) or from when the root told it
  Nanos since = 0;
  switch (s.predictor) {
    case Predictor::VarianceGuess: {
      const double own = interval > 0 ? static_cast<double>(seen.phase_dedicated) / interval : latest;
      from_then = std::max(0.0, latest - own) * interval * pace;
      since = seen.barrier_elapsed;
      break;
    }
    case Predictor::VarianceWithProcCount: {
      if (!seen.arrived) return std::nullopt;
      const double k = std::clamp(*seen.arrived, 1, s.processes);
      from_then = std::max(0.0, latest - (lo + (hi - lo) * k / (p + 1.0))) * interval * pace;
      since = seen.since_told;
      break;
    }
    case Predictor::AvgProcDelay: {
      if (!seen.arrived) return std::nullopt;
      const double k = std::clamp(*seen.arrived, 1, s.processes);
      from_then = static_cast<double>(seen.told_elapsed) / k * (p - k);
      since = seen.since_told;
      break;
    }
  }
  return static_cast<Nanos>(std::llround(from_then)) - since;
}

Nanos Informed::decide(const Observation& seen) const {
  const auto left = remaining(seen);
  if (!left) return settings_.reply_spin;  // wait for the root's reply, as for a read's
  if (*left > settings_.threshold) return 0;
  return std::max<Nanos>(*left, 0) + settings_.margin;
}

Nanos Informed::first_spin(const Observation& seen) const {
  return seen.kind == WaitKind::Read ? reads_.first_spin(seen) : decide(seen);
}

Nanos Informed::after_wake(const Observation& seen) const {
  return seen.kind == WaitKind::Read ? reads_.after_wake(seen) : decide(seen);
}

Nanos Informed::next_spin(const Observation& seen) const {
  // At a barrier a spin that runs out means the prediction (or the wait for the reply) failed: block.
  return seen.kind == WaitKind::Read ? reads_.next_spin(seen) : 0;
}

namespace {

using config::PolicyParams;

constexpr char kVarianceGuessName[] = "variance-guess";
constexpr char kVarianceWithProcCountName[] = "variance-with-proc-count";
constexpr char kAvgProcDelayName[] = "avg-proc-delay";

// Pairwise's keys for reads and the threshold.
const config::PolicyKey kInformedKeys[] = {
    kReadSpinKey,
    kBarrierSpinKey,
    kWindowKey,
    kResumeKey,
    kConditionalKey,
    kAfterWakeKey,
    config::duration_key<&TwoPhaseParams::threshold, config::Zero::Allowed>(
        "threshold", "block when the barrier is predicted further away than this (duration, default 2W)"),
    kPrefetchKey,
    kPrefetchLeadKey};

// VARIANCE_GUESS, VARIANCE_WITH_PROC_COUNT, AVG_PROC_DELAY (B&M 3.3; docs/models/now.md section 5.2).
template <Informed::Predictor predictor>
std::unique_ptr<NowWaitAlgorithm> make_informed(const PolicyParams& params, const WaitPlatform& platform) {
  const auto& w = static_cast<const TwoPhaseParams&>(params);
  Informed::Settings s;
  s.predictor = predictor;
  s.reads = pairwise_timings(w, platform);
  // "If this time was more than a pair of context switches away, the process blocked."
  s.threshold = w.threshold.value_or(2 * platform.context_switch);
  s.margin = s.reads.window;
  s.reply_spin = s.reads.read_spin;
  s.sync_interval = platform.sync_interval;
  s.imbalance = platform.imbalance;
  s.processes = platform.processes;
  return std::make_unique<Informed>(s);
}

}  // namespace

const NowWaitEntry kVarianceGuessEntry{
    {kVarianceGuessName,
     "VARIANCE_GUESS: knows the job's imbalance, predicts the barrier's completion, blocks when it is more "
     "than "
     "two context switches away (Brim & Miller 3.3)",
     kInformedKeys, config::default_params<TwoPhaseParams>, two_phase_json,
     own_barrier_spin<kVarianceGuessName>},
    make_informed<Informed::Predictor::VarianceGuess>};

const NowWaitEntry kVarianceWithProcCountEntry{
    {kVarianceWithProcCountName,
     "VARIANCE_WITH_PROC_COUNT: variance-guess tuned by the count of arrived processes the root returns with "
     "each arrival reply (Brim & Miller 3.3)",
     kInformedKeys, config::default_params<TwoPhaseParams>, two_phase_json,
     own_barrier_spin<kVarianceWithProcCountName>},
    make_informed<Informed::Predictor::VarianceWithProcCount>,
    true};

const NowWaitEntry kAvgProcDelayEntry{
    {kAvgProcDelayName,
     "AVG_PROC_DELAY: predicts from the barrier's elapsed time divided by the processes arrived (Brim & "
     "Miller "
     "3.3)",
     kInformedKeys, config::default_params<TwoPhaseParams>, two_phase_json,
     own_barrier_spin<kAvgProcDelayName>},
    make_informed<Informed::Predictor::AvgProcDelay>,
    true};

}  // namespace cosched::wait
