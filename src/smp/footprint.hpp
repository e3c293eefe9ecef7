#pragma once
// The SMP model's footprint (docs/scenario-format.md, "Limits" and "Traces"): what a run holds and traces,
// estimated from the scenario alone, and the limits that rest on it. Its model registry entry
// (scenario/smp_section.cpp) checks them when a scenario is loaded.

#include "config/field.hpp"
#include "config/limits.hpp"
#include "config/scenario.hpp"

namespace cosched::smp {

// The whole run's timeline intervals and length in cycles (an SMP run sends no message).
config::limits::TraceEstimate trace_estimate(const config::SmpConfig& smp);
// Estimated peak memory of a run in bytes.
double memory_bytes(const config::SmpConfig& smp);
// Refuses, at the key that tips it over (below `root`), a job longer than the largest simulated time on a
// dedicated processor, more than kMaxThreads threads, or more than the memory limit.
void check_limits(const config::SmpConfig& smp, const config::Field& root);

}  // namespace cosched::smp
