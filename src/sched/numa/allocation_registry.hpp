#pragma once
// The allocation policies a NUMA scenario may name in `scheduler.policy` (thesis 4.3; docs/models/numa.md
// section 4). Each policy declares its entry beside its code; this registry lists them. Adding one: its
// allocate rule and entry in a file of its own, and one line in allocation_registry.cpp.

#include "config/policy.hpp"
#include "sched/numa/allocation.hpp"

namespace cosched::sched {

// Every policy, in the order error messages list them (policy0, ..., policy4 or policy4-home); policy4 when
// a scenario names none (the setting of the thesis's tables 5.4-5.6).
const config::PolicyRegistry<NumaPolicyEntry>& numa_allocation_policies();

}  // namespace cosched::sched
