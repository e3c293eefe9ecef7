#pragma once
// Strategy1 (thesis 4.4): the six page classes in order, the lowest-priority process first, then LRU.

#include "sched/numa/replacement.hpp"

namespace cosched::sched {

extern const NumaReplacementEntry kStrategy1Entry;

}  // namespace cosched::sched
