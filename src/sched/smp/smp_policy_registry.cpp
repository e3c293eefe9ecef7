#include "sched/smp/smp_policy_registry.hpp"

#include "sched/smp/fair.hpp"
#include "sched/smp/linux24.hpp"
#include "sched/smp/partitioned.hpp"
#include "sched/smp/round_robin.hpp"

namespace cosched::sched {
namespace {

const SmpSchedulerEntry* const kEntries[] = {
    &kRoundRobinEntry,
    &kLinux24Entry,
    &kPartitionedEntry,
    &kSmpCfsEntry,
    &kSmpEevdfEntry,
};

}  // namespace

const config::PolicyRegistry<SmpSchedulerEntry>& smp_schedulers() {
  // A policy's keys are its own: another policy's key is an unknown key of the `scheduler` mapping.
  static const config::PolicyRegistry<SmpSchedulerEntry> registry(kEntries, {.what = "scheduling policy",
                                                                             .path = "scheduler.policy",
                                                                             .last = " or ",
                                                                             .one_of = "",
                                                                             .refuse_others = false,
                                                                             .default_policy = "rr",
                                                                             .missing_names_policy = false});
  return registry;
}

}  // namespace cosched::sched
