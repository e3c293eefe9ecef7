#pragma once
// Policies 2, 3 and 4 (thesis 4.3) and policy4-home (A23's other reading of policy4): one rule, the nested
// areas of figure 4.1 tried from the innermost out, at four widths.

#include "sched/numa/allocation.hpp"

namespace cosched::sched {

extern const NumaPolicyEntry kPolicy2Entry, kPolicy3Entry, kPolicy4Entry, kPolicy4HomeEntry;

}  // namespace cosched::sched
