#pragma once
// Competitive spinning barriers of Kontothanassis & Wisniewski (section 3 and appendix figures 9-12),
// patterned after Karlin et al.: spin up to a threshold, then block; the adaptive ones move the threshold,
// shared by the job's threads, from what the previous barriers cost: tblkd, the time a thread spent blocked
// (0 after a successful spin).

#include <array>
#include <vector>

#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {

enum class Competitive {
  Fixed,             // figure 9: always switch_time
  LastOne,           // figure 11: +/- adjust after each barrier, from its own last tblkd
  AverageThree,      // figure 10: +/- adjust, from the average of its last three tblkd
  CoarseAdjustment,  // figure 12: switch_time or 0 at once, from its own last tblkd
};

class CompetitiveWaiter final : public SmpWaiter {
 public:
  CompetitiveWaiter(Competitive kind, Cycles switch_time, Cycles adjust);
  Cycles spin_budget(const ArrivalView& view) override;
  void record(const WaitRecord& record) override;
  Cycles threshold() const { return threshold_; }

 private:
  Competitive kind_;
  Cycles switch_time_;
  Cycles adjust_;
  Cycles threshold_;  // SpinThreshold, global to the job (initially switch_time, as in figure 9)
  // ttime[id][3] and tcount[id] of figure 10, zero-initialised as C globals are.
  std::vector<std::array<Cycles, 3>> ttime_;
  std::vector<std::size_t> tcount_;
};

class CompetitiveAlgorithm final : public SmpWaitAlgorithm {
 public:
  CompetitiveAlgorithm(Competitive kind, Cycles switch_time, Cycles adjust)
      : kind_(kind), switch_time_(switch_time), adjust_(adjust) {}
  std::unique_ptr<SmpWaiter> make_waiter() const override {
    return std::make_unique<CompetitiveWaiter>(kind_, switch_time_, adjust_);
  }

 private:
  Competitive kind_;
  Cycles switch_time_;
  Cycles adjust_;
};

// The competitive barriers' parameters: K&W section 3's switch_time, c, "the cost of a context switch" (CS
// unless given), and the Adjust of last-one and average-three, which the paper leaves open.
struct CompetitiveParams : config::SmpWaitParams {
  Cycles switch_time = 0;
  Cycles adjust = 0;
  void derive(Cycles scheduler_quantum, Cycles scheduler_context_switch) override {
    SmpWaitParams::derive(scheduler_quantum, scheduler_context_switch);
    switch_time = scheduler_context_switch;
  }
};
extern const SmpWaitEntry kCompetitiveFixedEntry;
extern const SmpWaitEntry kLastOneEntry;
extern const SmpWaitEntry kAverageThreeEntry;
extern const SmpWaitEntry kCoarseAdjustmentEntry;

}  // namespace cosched::wait
