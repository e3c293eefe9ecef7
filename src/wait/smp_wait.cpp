#include "wait/smp_wait.hpp"

#include "wait/smp_competitive.hpp"
#include "wait/smp_scheduler_info.hpp"
#include "wait/smp_thesis_proposals.hpp"

namespace cosched::wait {

std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const config::SmpWait& wait) {
  using A = config::SmpWait::Algorithm;
  switch (wait.algorithm) {
    case A::Block:
      return std::make_unique<FixedSpin>(0);
    case A::Spin:
      return std::make_unique<FixedSpin>(kUnlimitedSpin);
    case A::FixedSpin:
      return std::make_unique<FixedSpin>(wait.spin_cycles);
    case A::CompetitiveFixed:
      return std::make_unique<CompetitiveAlgorithm>(Competitive::Fixed, wait.switch_time, 0);
    case A::LastOne:
      return std::make_unique<CompetitiveAlgorithm>(Competitive::LastOne, wait.switch_time, wait.adjust);
    case A::AverageThree:
      return std::make_unique<CompetitiveAlgorithm>(Competitive::AverageThree, wait.switch_time, wait.adjust);
    case A::CoarseAdjustment:
      return std::make_unique<CompetitiveAlgorithm>(Competitive::CoarseAdjustment, wait.switch_time, 0);
    case A::SchedulerInfo:
      return std::make_unique<SchedulerInfo>(wait.count == "not-blocked" ? SchedulerInfoCount::NotBlocked
                                             : wait.count == "remaining-or-equal"
                                                 ? SchedulerInfoCount::RemainingOrEqual
                                                 : SchedulerInfoCount::Remaining);
    case A::YieldOnWake:
      return std::make_unique<YieldOnWake>(wait.spin_cycles, wait.condition == "runnable-exceeds-cpus");
    case A::LoadBased:
      return std::make_unique<LoadBased>(wait.spin_cycles, wait.factor);
    case A::GranularityAware:
      return std::make_unique<GranularityAware>(wait.spin_cycles, wait.coarse);
  }
  return std::make_unique<FixedSpin>(wait.spin_cycles);
}

}  // namespace cosched::wait
