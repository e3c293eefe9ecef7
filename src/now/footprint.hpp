#pragma once
// The NOW model's footprint (docs/scenario-format.md, "Limits" and "Traces"): what a run holds and traces,
// estimated from the scenario alone, and the limits that rest on it. Its model registry entry
// (scenario/now_section.cpp) checks a closed workload's when a scenario is loaded; an open workload's are
// checked as its SWF file is read (check_stream, check_stream_trace).

#include <cstdint>

#include "config/field.hpp"
#include "config/limits.hpp"
#include "config/scenario.hpp"

namespace cosched::now {

// The whole run's timeline intervals, messages and length in nanoseconds, for the closed workload's jobs.
config::limits::TraceEstimate trace_estimate(const config::NowConfig& now);
// Estimated peak memory of a run in bytes: the platform and the closed workload's jobs.
double memory_bytes(const config::NowConfig& now);
// Refuses, at the key that tips it over (below `root`), a job longer than the largest simulated time on
// dedicated workstations, more than kMaxProcesses processes, or more than the memory limit.
void check_limits(const config::NowConfig& now, const config::Field& root);

// An open workload (workload.stream, issue 24): its `jobs` taken from the SWF file with `processes` in all.
// Every job's processes stay on their nodes until the run ends (their records are read at the end), and
// each job has its layout and result record. Throws InputError at `where` past kMaxProcesses or the memory
// limit.
double stream_bytes(std::int64_t jobs, std::int64_t processes);
void check_stream(std::int64_t jobs, std::int64_t processes, const config::Field& where);
// An open workload's trace (output.trace): its jobs bring `process_seconds` of dedicated run time (scaled)
// over about `run_seconds` of simulated time (0: unknown, no window share), at the rates of its busiest
// class (the closed workload's estimate per process-second). Throws InputError at output.trace (under
// `root`) past output.trace_limit_mb. Returns the estimated bytes.
double check_stream_trace(const config::NowConfig& now, double process_seconds, double run_seconds,
                          const config::Field& root);

}  // namespace cosched::now
