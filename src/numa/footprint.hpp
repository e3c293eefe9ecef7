#pragma once
// The NUMA model's footprint (docs/scenario-format.md, "Limits" and "Traces"): what a run holds and traces,
// estimated from the scenario alone, and the limits that rest on it. Its model registry entry
// (scenario/numa_section.cpp) checks them when a scenario is loaded.

#include "config/field.hpp"
#include "config/limits.hpp"
#include "config/scenario.hpp"

namespace cosched::numa {

// The whole run's timeline intervals, messages and length in clocks.
config::limits::TraceEstimate trace_estimate(const config::NumaConfig& numa);
// Estimated peak memory of a run in bytes.
double memory_bytes(const config::NumaConfig& numa);
// Refuses, at the key that tips it over (below `root`), more slices than the largest simulated time holds,
// more than kMaxProcesses processes or kMaxThreads threads, or more than the memory limit.
void check_limits(const config::NumaConfig& numa, const config::Field& root);

}  // namespace cosched::numa
