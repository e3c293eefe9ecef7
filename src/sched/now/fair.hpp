#pragma once
// Linux's fair scheduler as a workstation's local scheduler (scheduler.policy cfs or eevdf): the workstation's
// one CPU runs one fair run queue (sched/fair/run_queue.hpp) of its processes, weighted by their jobs' nice
// values. docs/models/linux-fair.md section 6.

#include <deque>
#include <optional>

#include "sched/fair/fair_keys.hpp"
#include "sched/fair/run_queue.hpp"
#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

class FairScheduler final : public LocalScheduler {
 public:
  explicit FairScheduler(const fair::Settings& settings) : rq_(settings) {}

  void admit(ProcessId process, JobId job, ProcessShare share, SimTime now) override;
  void wake(ProcessId process, SimTime now) override;
  void leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime ran) override;
  std::optional<ProcessId> pick_next(SimTime now) override;
  // Until the tick (or the high-resolution timer) that will end its slice; when it is alone, until the
  // next event (its requests renew at the ticks without rescheduling). A wake-up may bring it sooner: the
  // node asks again then (slices_move), so no tick of its own is needed.
  SimTime time_slice(ProcessId process, SimTime now) const override;
  bool slices_move() const override { return true; }
  bool should_preempt(ProcessId, SimTime, SimTime) const override { return rq_.need_resched(); }
  std::optional<SimTime> next_tick() const override { return std::nullopt; }
  bool ticks() const override { return false; }
  void tick(SimTime now) override { rq_.update(now); }
  LeaveReason preempt_reason() const override { return reason_; }
  bool has_ready() const override { return rq_.has_waiting(); }

  const fair::Entity& entity(ProcessId process) const { return entities_.at(static_cast<std::size_t>(process)); }

 private:
  fair::Entity& find(ProcessId process);

  fair::RunQueue rq_;
  std::deque<fair::Entity> entities_;  // by process id (dense)
  LeaveReason reason_ = LeaveReason::Preempted;
};

// scheduler.policy cfs's and eevdf's parameters.
struct NowFairParams : config::LocalSchedulerParams, fair::FairKnobs {
  explicit NowFairParams(fair::Algorithm algorithm) : fair::FairKnobs(algorithm) {}
  // A workstation has one CPU: the tunables' factor is 1 under every scaling but linear's min(1, 8) = 1.
  static constexpr int kCpus = 1;
  // The slice the footprint estimates count switches by: a request (EEVDF) or the minimum granularity (CFS),
  // at least a tick.
  config::Nanos quantum() const override;
  std::string_view inert(fair::Feature feature) const override;
};
extern const LocalSchedulerEntry kCfsEntry;
extern const LocalSchedulerEntry kEevdfEntry;

}  // namespace cosched::sched
