#pragma once
// Input limits: what cosched refuses before it reads, allocates or simulates, so that no input can crash it,
// hang it, exhaust memory or overflow a 64-bit time (docs/scenario-format.md, "Limits").

#include <cstddef>
#include <cstdint>
#include <string>

#include "config/field.hpp"
#include "config/scenario.hpp"

namespace cosched::config::limits {

// A scenario file is a regular file of at most this many bytes (the shipped ones are under 2 KiB).
inline constexpr std::uintmax_t kMaxScenarioBytes = 1 << 20;
// Mappings and lists nest at most this deep (a scenario needs 5 levels).
inline constexpr int kMaxNestingDepth = 32;
// A scenario's name names its result folder: at most this many bytes (file names have at most 255).
inline constexpr std::size_t kMaxNameBytes = 200;
// The largest simulated time either model represents: 1e15 cycles (SMP) or nanoseconds (NOW, 1,000,000 s).
// Every single duration is bounded by it at validation, a scenario whose jobs alone would run longer on a
// dedicated machine is refused at validation, and a run that passes it stops with an error. It keeps every
// sum of times far (9000x) from overflowing 64 bits, and NOW times exact to the nanosecond in SimGrid's
// double-precision clock.
inline constexpr std::int64_t kMaxSimulatedTime = 1'000'000'000'000'000;
// Threads (SMP: synchronizing threads of every copy plus nosync) and processes (NOW, every copy).
inline constexpr std::int64_t kMaxThreads = 1'000'000;
inline constexpr std::int64_t kMaxProcesses = 1'000'000;
// Barriers of one NOW job: workload.jobs[i].barriers, and an open workload's job, whose barriers are its run
// time / its class's sync_interval (now/stream_jobs.cpp).
inline constexpr std::int64_t kMaxBarriers = 10'000'000;
// Processors of an SMP (platform.cpus, or the cores of a platform file's host).
inline constexpr int kMaxCpus = 1'000'000;
// A run whose estimated peak memory exceeds this is refused before anything is allocated.
inline constexpr double kMaxMemoryBytes = 8.0 * (1ull << 30);

// Traces (output.trace, docs/scenario-format.md "Traces"): the bytes one interval of timeline.csv takes in
// trace.paje (one SetState line, or a PushState and a PopState at a run's ends) and in trace.json (one
// compact complete event), measured on the shipped scenarios' traces and rounded up. A run whose estimated
// trace passes output.trace_limit_mb megabytes is refused before it is simulated.
inline constexpr double kPajeBytesPerInterval = 48;
inline constexpr double kChromeBytesPerInterval = 88;
// A message (output.trace_messages): a PajeStartLink and a PajeEndLink line in trace.paje, two instants and
// two flow events in trace.json, measured likewise and rounded up.
inline constexpr double kPajeBytesPerMessage = 96;
inline constexpr double kChromeBytesPerMessage = 640;

// The estimated count of timeline intervals a run's trace holds (within output.trace_window when given),
// from the scenario alone: the models' state changes per barrier, per read and per quantum (SMP, NOW) or per
// time slice (NUMA), over an estimated run length.
double estimated_trace_intervals(const Scenario& scenario);
// The estimated count of messages a run's trace holds (0 for SMP, which has none, and with
// output.trace_messages false), within output.trace_window when given; rough (docs/scenario-format.md).
double estimated_trace_messages(const Scenario& scenario);
// The estimated size in bytes of the trace files a run writes (0 without output.trace).
double estimated_trace_bytes(const Scenario& scenario);

// Throws InputError, naming the scenario file, once a run's simulated time `now` (in `unit`, "cycles" or
// "ns") passes kMaxSimulatedTime: the scenario ran far longer than its jobs would alone.
void check_simulated_time(std::int64_t now, const std::string& scenario_file, const char* unit);

// Checks the limits that depend on several keys at once; `root` is the scenario document as read.
// Throws InputError naming the key that tips the scenario over the limit.
void check(const Scenario& scenario, const Field& root);

// An open workload (workload.stream, issue 24): its `jobs` taken from the SWF file with `processes` in all.
// Every job's processes stay on their nodes until the run ends (their records are read at the end), and
// each job has its layout and result record. Throws InputError at `where` past kMaxProcesses or the memory
// limit.
double estimated_stream_bytes(std::int64_t jobs, std::int64_t processes);
void check_stream(std::int64_t jobs, std::int64_t processes, const Field& where);
// An open workload's trace (output.trace): its jobs bring `process_seconds` of dedicated run time (scaled)
// over about `run_seconds` of simulated time (0: unknown, no window share), at the rates of its busiest
// class (the closed workload's estimate per process-second). Throws InputError at output.trace (under
// `root`) past output.trace_limit_mb. Returns the estimated bytes.
double check_stream_trace(const NowConfig& now, double process_seconds, double run_seconds,
                          const Field& root);

// Estimated peak memory of a run in bytes (the numbers behind kMaxMemoryBytes).
double estimated_memory_bytes(const Scenario& scenario);

}  // namespace cosched::config::limits
