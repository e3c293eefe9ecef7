#pragma once
// Durations of the SMP model in whole cycles, as its keys take them (Tsafrir thesis table 2.1): cycles, a
// percentage of the quantum, or a spin's context-switch symbols (CS, CS+, 2CS+; thesis 7.5-7.6).

#include <string>
#include <string_view>

#include "config/field.hpp"

namespace cosched::config {

// A bound on durations in cycles (about 11.6 days at 1 GHz) that keeps every sum of cycles far from
// overflowing 64 bits.
inline constexpr double kMaxCycles = 1e15;

// "<number>" cycles or "<number>%" of the quantum (thesis table 2.1, 'percent' column), checked against
// kMaxCycles and `max_percent`. A percentage is not rounded.
double cycles_or_percent(const Field& f, Cycles quantum, std::string_view expected, double max_percent);
// As cycles_or_percent, in whole cycles: a percentage is rounded to the nearest cycle, a number of cycles
// must be whole.
Cycles whole_cycles(const Field& f, Cycles quantum, std::string_view expected, double max_percent);
// A duration in whole cycles or a percentage of the quantum (up to 1e9%), checked.
Cycles smp_cycles(const Field& f, Cycles quantum, std::string_view expected);
// A spin duration: cycles, a percentage of the quantum (up to 100%), or CS = `context_switch` (cs_in +
// cs_out), CS+ = CS + 1 cycle, 2CS+ = 2 CS + 1 cycle (thesis 7.5-7.6). `given`, when not null, receives the
// text as written.
Cycles spin_cycles(const Field& f, Cycles quantum, Cycles context_switch, std::string* given);

}  // namespace cosched::config
