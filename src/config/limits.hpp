#pragma once
// Input limits: what cosched refuses before it reads, allocates or simulates, so that no input can crash it,
// hang it, exhaust memory or overflow a 64-bit time (docs/scenario-format.md, "Limits"). The bounds every
// model shares; each model's footprint rules live with the model, its registry entry (scenario/models.hpp)
// checks them.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

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

// What every run holds besides its model's own structures (the engine, the scenario, the result records).
inline constexpr double kBaseBytes = 64 * 1024 * 1024;

// Each model states its own footprint rules beside its code (smp/footprint, now/footprint, numa/footprint)
// and its model registry entry (scenario/models.hpp) names them; what follows is what the rules share.

// The field at `path` below `root`, or the deepest one that exists on the way (for keys left to their
// default, the error names the mapping they would be in).
Field field_at(const Field& root, std::initializer_list<std::string> path);

// Throws InputError at `where` when `bytes` passes kMaxMemoryBytes.
void check_memory(double bytes, const Field& where);

// A run's trace as a model estimates it from the scenario alone: its timeline intervals and messages over the
// whole run, and the run's estimated length in the timeline's unit (0: unknown).
struct TraceEstimate {
  double intervals = 0, run_length = 1, messages = 0;
};

// What of `whole` the trace holds: a window keeps its share of the run (at most all of it); no message
// without output.trace_messages.
TraceEstimate traced(const OutputConfig& output, TraceEstimate whole);
// The bytes of the trace files that hold `traced` (0 without output.trace).
double trace_bytes(const OutputConfig& output, const TraceEstimate& traced);
// Throws InputError at output.trace (under `root`) when the trace files would pass output.trace_limit_mb.
// `of` follows the counts in the message (" over the stream's jobs"), `also` the alternatives it suggests.
// Returns the estimated bytes.
double check_trace(const OutputConfig& output, const TraceEstimate& traced, const Field& root,
                   std::string_view of = {}, std::string_view also = {});

// Throws InputError, naming the scenario file, once a run's simulated time `now` (in `unit`, "cycles" or
// "ns") passes kMaxSimulatedTime: the scenario ran far longer than its jobs would alone. `expected` is the
// advice that ends the message.
inline constexpr std::string_view kEndSooner =
    "a scenario that ends sooner (fewer barriers, shorter intervals or a lighter load)";
void check_simulated_time(std::int64_t now, const std::string& scenario_file, const char* unit,
                          std::string_view expected = kEndSooner);

}  // namespace cosched::config::limits
