#include "sched/now/fair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace cosched::sched {
namespace {

// A slice without end: the process runs until an event (a wake-up, its own block) changes the queue.
constexpr SimTime kUntilAnEvent = 1'000'000'000'000'000;

}  // namespace

fair::Entity& FairScheduler::find(ProcessId process) {
  if (process < 0 || static_cast<std::size_t>(process) >= entities_.size() ||
      entities_[static_cast<std::size_t>(process)].id != process)
    throw std::logic_error(fmt::format("fair scheduler: unknown process {}", process));
  return entities_[static_cast<std::size_t>(process)];
}

void FairScheduler::admit(ProcessId process, JobId, ProcessShare share, SimTime now) {
  if (process < 0) throw std::logic_error("fair scheduler: a negative process id");
  const auto index = static_cast<std::size_t>(process);
  if (index >= entities_.size()) entities_.resize(index + 1);  // a deque: the queue's pointers stay valid
  auto& e = entities_[index];
  if (e.id == process) throw std::logic_error(fmt::format("fair scheduler: process {} admitted twice", process));
  e.id = process;
  e.load = fair::nice_weight(share.nice);
  rq_.enqueue(e, fair::Enqueue::Initial, now);
}

void FairScheduler::wake(ProcessId process, SimTime now) {
  auto& e = find(process);
  // update_curr first: a slice found over here is a quantum's end, not a preemption by the woken process.
  rq_.update(now);
  bool expired = rq_.need_resched();
  if (e.delayed) {
    rq_.requeue(e, now);
  } else {
    rq_.enqueue(e, fair::Enqueue::Wakeup, now);
  }
  // The queue grew: under HRTICK the running process's slice may be over already (hrtick_update).
  if (!expired) {
    rq_.update(now);
    expired = rq_.need_resched();
  }
  if (expired) {
    reason_ = LeaveReason::QuantumExpired;
  } else if (rq_.wakeup_preempt(e, now)) {
    reason_ = LeaveReason::Preempted;
  }
}

void FairScheduler::leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime) {
  auto& e = find(process);
  if (rq_.curr() != &e) throw std::logic_error(fmt::format("fair scheduler: process {} is not running", process));
  switch (reason) {
    case LeaveReason::Blocked:
      rq_.dequeue(e, fair::Dequeue::Sleep, now);
      break;
    case LeaveReason::Finished:
      rq_.dequeue(e, fair::Dequeue::Exit, now);
      break;
    case LeaveReason::QuantumExpired:
    case LeaveReason::Preempted:
      break;
  }
  rq_.put_prev(now);
  reason_ = LeaveReason::Preempted;
}

std::optional<ProcessId> FairScheduler::pick_next(SimTime now) {
  if (fair::Entity* e = rq_.pick(now)) return e->id;
  return std::nullopt;
}

SimTime FairScheduler::time_slice(ProcessId, SimTime now) const {
  const auto due = rq_.resched_time();
  return due ? std::max<SimTime>(0, *due - now) : kUntilAnEvent;
}

config::Nanos NowFairParams::quantum() const {
  const auto s = settings(kCpus);
  return std::max(algorithm == fair::Algorithm::Cfs ? s.min_granularity : s.base_slice, s.tick);
}

std::string_view NowFairParams::inert(fair::Feature feature) const {
  if (feature == fair::Feature::PlaceRelDeadline)
    return "a workstation's processes never migrate, so PLACE_REL_DEADLINE never applies";
  return FairKnobs::inert(feature);
}

namespace {

void now_fair_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& fair = static_cast<const NowFairParams&>(params);
  fair::fair_json(fair, NowFairParams::kCpus, out);
  out["context_switch_s"] = static_cast<double>(fair.context_switch) * 1e-9;
}

std::unique_ptr<LocalScheduler> make_fair(const config::PolicyParams& params, std::shared_ptr<GangMatrix>) {
  return std::make_unique<FairScheduler>(static_cast<const NowFairParams&>(params).settings(NowFairParams::kCpus));
}

const config::PolicyKey kCfsKeys[] = {
    fair::kKernelKey,          fair::kHzKey,       fair::kTunableScalingKey, fair::kLatencyKey,
    fair::kMinGranularityKey, fair::kWakeupGranularityKey, fair::kFeaturesKey, kContextSwitchKey};
const config::PolicyKey kEevdfKeys[] = {fair::kKernelKey,    fair::kHzKey,    fair::kTunableScalingKey,
                                        fair::kBaseSliceKey, fair::kFeaturesKey, kContextSwitchKey};

}  // namespace

const LocalSchedulerEntry kCfsEntry{
    {"cfs", "Linux's Completely Fair Scheduler as of 6.1 (docs/models/linux-fair.md)", kCfsKeys,
     []() -> std::unique_ptr<config::PolicyParams> { return std::make_unique<NowFairParams>(fair::Algorithm::Cfs); },
     now_fair_json},
    false, make_fair, true};

const LocalSchedulerEntry kEevdfEntry{
    {"eevdf", "Linux's EEVDF scheduler of 6.6 onwards (docs/models/linux-fair.md)", kEevdfKeys,
     []() -> std::unique_ptr<config::PolicyParams> {
       return std::make_unique<NowFairParams>(fair::Algorithm::Eevdf);
     },
     now_fair_json},
    false, make_fair, true};

}  // namespace cosched::sched
