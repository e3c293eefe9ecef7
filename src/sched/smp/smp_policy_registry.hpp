#pragma once
// The SMP scheduling policies a scenario may name in scheduler.policy. Each policy declares its entry beside
// its code (its name, a line of documentation, its keys of the `scheduler` mapping with their checks, its
// parameters, their resolved form, its checks that need the workload, and its factory); this registry lists
// them. Adding a policy: one new file behind SmpScheduler with its entry, and one line in
// smp_policy_registry.cpp.

#include "config/policy.hpp"
#include "sched/smp/smp_scheduler.hpp"

namespace cosched::sched {

// Every policy, in the order error messages list them (rr, linux24 or partitioned); rr when none is named.
const config::PolicyRegistry<SmpSchedulerEntry>& smp_schedulers();

}  // namespace cosched::sched
