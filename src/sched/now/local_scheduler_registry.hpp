#pragma once
// The NOW model's local scheduling policies a scenario may name in scheduler.policy. Each policy declares its
// entry beside its code (its name, a line of documentation, its keys of the `scheduler` mapping with their
// checks, its parameters, their resolved form for summary.json, and its factory); this registry lists them.
// Adding a policy: one new file behind LocalScheduler with its entry, and one line in
// local_scheduler_registry.cpp (docs/models/now-schedulers.md).

#include "config/policy.hpp"
#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

// Every policy, in the order error messages list them (gang, ts, stride, stride-credit, cfs, eevdf).
const config::PolicyRegistry<LocalSchedulerEntry>& local_schedulers();

}  // namespace cosched::sched
