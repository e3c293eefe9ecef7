#pragma once
// The informed waiting algorithms of Brim & Miller 3.3: VARIANCE_GUESS, VARIANCE_WITH_PROC_COUNT and
// AVG_PROC_DELAY. At a barrier a process predicts when the barrier will complete and blocks when that is
// more than `threshold` (default a pair of context switches) away; otherwise it spins until the
// prediction plus `margin`, then blocks. Reads wait as under pairwise. docs/models/now.md section 5.2
// states each prediction rule and what it assumes the process knows.

#include <optional>

#include "wait/now/now_wait.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::wait {

class Informed final : public NowWaitAlgorithm {
 public:
  enum class Predictor { VarianceGuess, VarianceWithProcCount, AvgProcDelay };
  struct Settings {
    Predictor predictor = Predictor::VarianceGuess;
    Pairwise::Timings reads;  // reads wait as under pairwise (its barrier spin is not used)
    Nanos threshold = 0;      // block when the barrier is predicted to complete further away than this
    Nanos margin = 0;         // spin until the predicted completion plus this
    Nanos reply_spin = 0;     // spin while waiting for the root's reply to the arrival
    Nanos sync_interval = 0;  // the job's imbalance, as the process knows it (WaitPlatform)
    double imbalance = 1.0;
    int processes = 1;
  };
  explicit Informed(Settings settings);

  // The predicted time from now to the barrier's completion (negative: it is overdue); nothing when the
  // algorithm needs the root's reply and has not had it.
  std::optional<Nanos> remaining(const Observation& seen) const;

  Nanos first_spin(const Observation& seen) const override;
  Nanos next_spin(const Observation& seen) const override;
  Nanos after_wake(const Observation& seen) const override;
  Nanos extension(WaitKind kind) const override {
    return kind == WaitKind::Read ? reads_.extension(kind) : 0;
  }
  bool needs_arrival_replies() const override { return settings_.predictor != Predictor::VarianceGuess; }
  const Settings& settings() const { return settings_; }

 private:
  Nanos decide(const Observation& seen) const;
  Settings settings_;
  Pairwise reads_;
};

// The three informed algorithms' entries; their parameters are pairwise's (TwoPhaseParams) with threshold.
extern const NowWaitEntry kVarianceGuessEntry;
extern const NowWaitEntry kVarianceWithProcCountEntry;
extern const NowWaitEntry kAvgProcDelayEntry;

}  // namespace cosched::wait
