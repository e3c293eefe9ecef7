#include "sched/now/local_scheduler_registry.hpp"

#include "sched/now/fair.hpp"
#include "sched/now/gang.hpp"
#include "sched/now/stride.hpp"
#include "sched/now/stride_credit.hpp"
#include "sched/now/time_sharing.hpp"

namespace cosched::sched {
namespace {

const LocalSchedulerEntry* const kEntries[] = {
    &kGangEntry,
    &kTimeSharingEntry,
    &kStrideEntry,
    &kStrideCreditEntry,
    &kCfsEntry,
    &kEevdfEntry,
};

}  // namespace

const config::PolicyRegistry<LocalSchedulerEntry>& local_schedulers() {
  static const config::PolicyRegistry<LocalSchedulerEntry> registry(
      kEntries, {.what = "local scheduling policy", .path = "scheduler.policy"});
  return registry;
}

}  // namespace cosched::sched
