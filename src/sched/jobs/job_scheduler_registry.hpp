#pragma once
// The job-level schedulers an open workload may name in `job_scheduler.policy` (issue 24;
// docs/models/now-streams.md). Each policy declares its entry beside its code; this registry lists them.
// Adding one: a class behind sched::JobScheduler with its entry, and one line in job_scheduler_registry.cpp.

#include "config/policy.hpp"
#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched {

// Every policy, in the order error messages list them (fcfs, easy, gang and time-share).
const config::PolicyRegistry<JobSchedulerEntry>& job_schedulers();

}  // namespace cosched::sched
