#pragma once
// The job-level schedulers an open workload may name in `job_scheduler.policy` (issue 24;
// docs/models/now-streams.md). Adding one: a class behind sched::JobScheduler and one entry in the table of
// job_scheduler_registry.cpp.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "config/scenario.hpp"
#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched {

struct JobSchedulerEntry {
  std::string_view name;
  std::string_view doc;
  // The smallest and largest `mpl` it takes (fcfs and easy: 1 and 1).
  int min_mpl;
  int max_mpl;
  // Each job alone on its workstations, one process per workstation (fcfs, easy).
  bool dedicated;
  // The workstations run the gang local scheduler over the policy's rows (JobStart::row).
  bool gang_rows;
  std::unique_ptr<JobScheduler> (*make)(const config::JobSchedulerConfig& config, int workstations);
};

// Every policy, in the order error messages list them.
std::span<const JobSchedulerEntry> job_schedulers();
// The entry of that name; nothing when there is none.
const JobSchedulerEntry* find_job_scheduler(std::string_view name);
// "fcfs, easy, gang and time-share", for error messages.
std::string job_scheduler_names();

}  // namespace cosched::sched
