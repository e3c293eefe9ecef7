#pragma once
// Policy1 (thesis 4.3): the first n contiguous free clusters.

#include "sched/numa/allocation.hpp"

namespace cosched::sched {

extern const NumaPolicyEntry kPolicy1Entry;

}  // namespace cosched::sched
