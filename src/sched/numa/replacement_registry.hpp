#pragma once
// The replacement strategies a NUMA scenario may name in `memory.replacement` (thesis 4.4;
// docs/models/numa.md section 5). Each strategy declares its entry beside its code; this registry lists them.
// Adding one: its order rule and entry in a file of its own, and one line in replacement_registry.cpp.

#include "config/policy.hpp"
#include "sched/numa/replacement.hpp"

namespace cosched::sched {

// Every strategy, in the order error messages list them (strategy0 or strategy1); strategy1 when a scenario
// names none (the setting of the thesis's tables 5.4-5.6).
const config::PolicyRegistry<NumaReplacementEntry>& numa_replacements();

}  // namespace cosched::sched
