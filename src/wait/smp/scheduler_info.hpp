#pragma once
// The scheduler-information barrier of Kontothanassis & Wisniewski (section 3, appendix figure 13): the
// scheduler tells the job how many processors its partition has; an arriving thread blocks when the threads
// still to arrive outnumber them, else it spins until the barrier completes. It decides again whenever the
// state changes while it spins (the partition shrinks, a peer leaves its CPU).

#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {

// The paper states the test three ways (docs/models/smp.md, section 16):
enum class SchedulerInfoCount {
  Remaining,  // section 3: spin iff the threads still to arrive are fewer than the processors (default)
  RemainingOrEqual,  // section 1: block iff they are more than the processors
  NotBlocked,        // figure 13: spin iff (threads - blocked) <= processors
};

class SchedulerInfo final : public SmpWaitAlgorithm, public SmpWaiter {
 public:
  explicit SchedulerInfo(SchedulerInfoCount count) : count_(count) {}
  std::unique_ptr<SmpWaiter> make_waiter() const override { return std::make_unique<SchedulerInfo>(count_); }
  Cycles spin_budget(const ArrivalView& view) override { return should_spin(view) ? kUnlimitedSpin : 0; }
  bool give_up(const ArrivalView& view) override { return !should_spin(view); }
  bool should_spin(const ArrivalView& view) const;

 private:
  SchedulerInfoCount count_;
};

// scheduler-info's parameters: which peers count as running (figure 13).
struct SchedulerInfoParams : config::SmpWaitParams {
  SchedulerInfoCount count = SchedulerInfoCount::Remaining;
};
extern const SmpWaitEntry kSchedulerInfoEntry;

}  // namespace cosched::wait
