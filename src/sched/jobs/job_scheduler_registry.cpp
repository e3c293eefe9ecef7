#include "sched/jobs/job_scheduler_registry.hpp"

#include "sched/jobs/buffered.hpp"
#include "sched/jobs/easy.hpp"
#include "sched/jobs/fcfs.hpp"
#include "sched/jobs/fcs.hpp"
#include "sched/jobs/gang.hpp"
#include "sched/jobs/paired_gang.hpp"
#include "sched/jobs/slurm_gang.hpp"
#include "sched/jobs/time_share.hpp"

namespace cosched::sched {
namespace {

const JobSchedulerEntry* const kEntries[] = {
    &kFcfsEntry,      &kEasyEntry, &kGangJobEntry,  &kTimeShareEntry,
    &kSlurmGangEntry, &kFcsEntry,  &kBufferedEntry, &kPairedGangEntry,
};

}  // namespace

const config::PolicyRegistry<JobSchedulerEntry>& job_schedulers() {
  static const config::PolicyRegistry<JobSchedulerEntry> registry(
      kEntries, {.what = "job scheduler", .path = "job_scheduler.policy", .last = " and "});
  return registry;
}

}  // namespace cosched::sched
