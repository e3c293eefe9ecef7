#pragma once
// Policy0 (thesis 4.3): n free clusters drawn uniformly at random.

#include "sched/numa/allocation.hpp"

namespace cosched::sched {

extern const NumaPolicyEntry kPolicy0Entry;

}  // namespace cosched::sched
