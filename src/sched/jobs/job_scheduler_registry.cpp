#include "sched/jobs/job_scheduler_registry.hpp"

#include "sched/jobs/easy.hpp"
#include "sched/jobs/fcfs.hpp"
#include "sched/jobs/gang.hpp"
#include "sched/jobs/time_share.hpp"
#include "util/registry.hpp"

namespace cosched::sched {
namespace {

// Choice (docs/models/now-streams.md section 3): at most 16 jobs per workstation under the time-sharing
// policies. The sources studied 2 to 6 (the sweep asks for 2 and 4); each row or process costs
// memory on every workstation (Batat & Feitelson 2000), so a bound keeps typos out without limiting a study.
constexpr int kMaxMpl = 16;

const JobSchedulerEntry kPolicies[] = {
    {"fcfs",
     "first-come first-served on dedicated workstations: the queue's head starts when enough are free", 1, 1,
     true, false,
     [](const config::JobSchedulerConfig&, int workstations) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<FcfsJobScheduler>(workstations);
     }},
    {"easy",
     "EASY backfilling on dedicated workstations: later jobs start early if they do not delay the head's "
     "reservation (Lifka 1995; Mu'alem & Feitelson 2001)",
     1, 1, true, false,
     [](const config::JobSchedulerConfig&, int workstations) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<EasyJobScheduler>(workstations);
     }},
    {"gang",
     "gang scheduling: an Ousterhout matrix of mpl rows, first-fit placement of a job into a row, one row "
     "owning all workstations per global slot",
     1, kMaxMpl, false, true,
     [](const config::JobSchedulerConfig& config, int workstations) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<GangJobScheduler>(workstations, config.mpl);
     }},
    {"time-share",
     "time sharing with implicit coscheduling: up to mpl processes per workstation, placed on the "
     "least-loaded workstations",
     1, kMaxMpl, false, false,
     [](const config::JobSchedulerConfig& config, int workstations) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<TimeShareJobScheduler>(workstations, config.mpl);
     }},
};

}  // namespace

std::span<const JobSchedulerEntry> job_schedulers() {
  return kPolicies;
}

const JobSchedulerEntry* find_job_scheduler(std::string_view name) {
  return util::find_named(job_schedulers(), name);
}

std::string job_scheduler_names() {
  return util::names_of(job_schedulers(), " and ");
}

}  // namespace cosched::sched
