#pragma once
// Strategy0 (thesis 4.4): LRU, whatever the page class.

#include "sched/numa/replacement.hpp"

namespace cosched::sched {

extern const NumaReplacementEntry kStrategy0Entry;

}  // namespace cosched::sched
