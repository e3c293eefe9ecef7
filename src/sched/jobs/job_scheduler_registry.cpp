#include "sched/jobs/job_scheduler_registry.hpp"

#include "sched/jobs/easy.hpp"
#include "sched/jobs/fcfs.hpp"
#include "sched/jobs/gang.hpp"
#include "sched/jobs/time_share.hpp"

namespace cosched::sched {
namespace {

const JobSchedulerEntry* const kEntries[] = {
    &kFcfsEntry,
    &kEasyEntry,
    &kGangJobEntry,
    &kTimeShareEntry,
};

const config::PolicyRegistry<JobSchedulerEntry> kRegistry(kEntries, "job scheduler", "job_scheduler.policy",
                                                          " and ");

}  // namespace

const config::PolicyRegistry<JobSchedulerEntry>& job_schedulers() {
  return kRegistry;
}

}  // namespace cosched::sched
