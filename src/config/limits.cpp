#include "config/limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <variant>

#include "config/input_error.hpp"

namespace cosched::config::limits {
namespace {

// Bytes per thread, process, workstation and pair of talking workstations, measured on this code base
// (peak RSS growth of runs with 10^4..10^5 threads, 10^2..10^3 workstations), rounded up.
constexpr double kBytesPerSmpThread = 4096;
constexpr double kBytesPerNowProcess = 4096;
constexpr double kBytesPerWorkstation = 64 * 1024;
constexpr double kBytesPerTalkingPair = 64;
constexpr double kBaseBytes = 64 * 1024 * 1024;
// NUMA messages (pages, updates, synchronization) per running thread per clock: process set A
// (scenarios/nobukuni/set-a.yaml, w488) sends about 0.0145 per cluster per clock once its pages are loaded
// (370,000 per slice of 100,000 clocks on 256 clusters, slices 10-40), far fewer in its first, disk-bound
// slices; rounded up.
constexpr double kNumaMessagesPerThreadClock = 0.02;
// NUMA: what its machine must hold (docs/models/numa.md): a record per page of every space (a thread's local
// pages, a process's shared pages) and per page frame, a bit per shared page and cluster for where its
// copies are, and a thread's state. Estimated from those structures, not yet measured.
constexpr double kBytesPerNumaPage = 32;
constexpr double kBytesPerNumaFrame = 32;
constexpr double kBytesPerNumaThread = 1024;

// The field at `path` below `from`, or the deepest one that exists on the way (for keys left to their
// default, the error names the mapping they would be in).
Field at(const Field& from, std::initializer_list<std::string> path) {
  Field field = from;
  for (const auto& key : path) {
    const YAML::Node& node = field.node();
    YAML::Node next;
    if (node.IsSequence()) {
      next = node[std::stoul(key)];
    } else if (node.IsMap()) {
      next = node[key];
    }
    if (!next) return field;
    field = field.child(next, key);
  }
  return field;
}

Field job_field(const Field& root, std::size_t index, const std::string& key) {
  return at(root, {"workload", "jobs", std::to_string(index), key});
}

void check_memory(double bytes, const Field& where) {
  if (bytes > kMaxMemoryBytes)
    where.error(fmt::format(
        "the run would need about {:.1f} GiB of memory, more than the limit of {:.0f} GiB; expected a "
        "smaller scenario",
        bytes / (1ull << 30), kMaxMemoryBytes / (1ull << 30)));
}

void check_smp(const SmpConfig& smp, const Field& root) {
  std::int64_t threads = smp.nosync;
  for (std::size_t j = 0; j < smp.jobs.size(); ++j) {
    const auto& job = smp.jobs[j];
    // Thesis 2.2: a thread computes about `compute` cycles between barriers; alone on a processor its job
    // takes at least barriers x compute cycles.
    const double dedicated = static_cast<double>(job.barriers) * job.compute_cycles;
    if (dedicated > static_cast<double>(kMaxSimulatedTime))
      job_field(root, j, "barriers")
          .error(fmt::format("barriers x compute = {:g} cycles on a dedicated processor, more than the "
                             "largest simulated time ({:g} cycles); expected fewer barriers or a shorter "
                             "compute interval",
                             dedicated, static_cast<double>(kMaxSimulatedTime)));
    threads += static_cast<std::int64_t>(job.threads) * job.copies;
    if (threads > kMaxThreads)
      job_field(root, j, job.copies > 1 ? "copies" : "threads")
          .error(fmt::format("{} threads in all (nosync and every copy of every job), more than the limit "
                             "of {}",
                             threads, kMaxThreads));
  }
}

void check_now(const NowConfig& now, const Field& root) {
  std::int64_t processes = 0;
  for (std::size_t j = 0; j < now.jobs.size(); ++j) {
    const auto& job = now.jobs[j];
    // Brim & Miller 3.1: a process synchronizes every sync_interval; the job takes at least barriers x
    // sync_interval (on average) even alone on its workstations.
    const double dedicated = static_cast<double>(job.barriers) * static_cast<double>(job.sync_interval);
    if (dedicated > static_cast<double>(kMaxSimulatedTime))
      job_field(root, j, "barriers")
          .error(fmt::format("barriers x sync_interval = {:g} s on dedicated workstations, more than the "
                             "largest simulated time ({:g} s); expected fewer barriers or a shorter "
                             "sync_interval",
                             dedicated * 1e-9, static_cast<double>(kMaxSimulatedTime) * 1e-9));
    processes += static_cast<std::int64_t>(job.processes) * job.copies;
    if (processes > kMaxProcesses)
      job_field(root, j, job.copies > 1 ? "copies" : "processes")
          .error(fmt::format("{} processes in all (every copy of every job), more than the limit of {}",
                             processes, kMaxProcesses));
  }
}

// The memory a NUMA run needs, split into its page frames and the rest (to say which key tips it over).
struct NumaMemory {
  double frames = 0, other = 0;
};

NumaMemory numa_memory(const NumaConfig& numa) {
  // Before the platform file is loaded the clusters are unknown; the largest process needs at least one
  // cluster per thread (thesis 4.2.3), a lower bound.
  double clusters = numa.clusters;
  double threads = 0, pages = 0, shared_pages = 0;
  for (const auto& p : numa.processes) {
    clusters = std::max(clusters, static_cast<double>(p.threads));
    const double copies = p.copies;
    threads += copies * p.threads;
    pages += copies * (static_cast<double>(p.threads) * p.local_pages + p.shared_pages);
    shared_pages += copies * p.shared_pages;
  }
  return {
      clusters * numa.pages_per_cluster * kBytesPerNumaFrame,
      kBaseBytes + threads * kBytesPerNumaThread + pages * kBytesPerNumaPage + shared_pages * clusters / 8};
}

void check_numa(const NumaConfig& numa, const Field& root) {
  // Chapter 5: a run lasts at most `slices` time slices.
  const double longest = static_cast<double>(numa.time_slice) * numa.slices;
  if (longest > static_cast<double>(kMaxSimulatedTime))
    at(root, {"scheduler", "slices"})
        .error(fmt::format("slices x time_slice = {:g} clocks, more than the largest simulated time ({:g} "
                           "clocks); expected fewer or shorter slices",
                           longest, static_cast<double>(kMaxSimulatedTime)));
  std::int64_t processes = 0, threads = 0;
  for (std::size_t p = 0; p < numa.processes.size(); ++p) {
    const auto& process = numa.processes[p];
    processes += process.copies;
    threads += static_cast<std::int64_t>(process.threads) * process.copies;
    const auto where = [&](const char* key) {
      return at(root, {"workload", "processes", std::to_string(p), process.copies > 1 ? "copies" : key});
    };
    if (processes > kMaxProcesses)
      where("copies").error(
          fmt::format("{} processes in all (every copy of every process), more than the "
                      "limit of {}",
                      processes, kMaxProcesses));
    if (threads > kMaxThreads)
      where("threads").error(
          fmt::format("{} threads in all (every copy of every process), more than the "
                      "limit of {}",
                      threads, kMaxThreads));
  }
  // The frames dominate when pages_per_cluster is what was made too large.
  const auto memory = numa_memory(numa);
  check_memory(memory.frames + memory.other, memory.frames > memory.other
                                                 ? at(root, {"memory", "pages_per_cluster"})
                                                 : at(root, {"workload"}));
}

const OutputConfig& output_of(const Scenario& scenario) {
  return std::visit([](const auto& model) -> const OutputConfig& { return model.output; },
                    scenario.model_config);
}

// The intervals and messages estimated for the whole run and the run's estimated length, in the timeline's
// unit.
struct TraceEstimate {
  double intervals = 0, run_length = 1, messages = 0;
};

// Thesis 2.2 (Tsafrir): a thread computes, then spins or blocks at a barrier and is woken, switched in and
// runs again: about 6 state changes per barrier; a thread that shares its CPU is also preempted, waits and is
// switched in again each quantum (3 more). The run lasts about a job's dedicated time times the threads per
// CPU.
TraceEstimate smp_trace(const SmpConfig& smp) {
  double threads = smp.nosync, lanes = 0, dedicated = 0;
  for (const auto& job : smp.jobs) {
    threads += static_cast<double>(job.threads) * job.copies;
    lanes += static_cast<double>(job.threads) * job.copies;
    dedicated = std::max(dedicated, static_cast<double>(job.barriers) * job.compute_cycles);
  }
  const double run_length = std::max(1.0, dedicated * std::max(1.0, threads / std::max(1, smp.cpus)));
  double intervals = 0;
  for (const auto& job : smp.jobs)
    intervals += static_cast<double>(job.threads) * job.copies * 6 * (job.barriers + 1.0);
  intervals += lanes * 3 * run_length / std::max<Cycles>(1, smp.quantum);
  return {intervals, run_length};
}

// Brim & Miller 3.1: a process alternates computing and communicating at each read (every comm_interval
// under a read pattern), and synchronizes, blocks, is woken and switched in at each barrier; sharing a
// workstation, it is preempted, waits and is switched in each quantum. The run lasts about barriers x
// sync_interval times the processes per workstation.
TraceEstimate now_trace(const NowConfig& now) {
  double processes = 0, dedicated = 0;
  for (const auto& job : now.jobs) {
    processes += static_cast<double>(job.processes) * job.copies;
    dedicated =
        std::max(dedicated, static_cast<double>(job.barriers) * static_cast<double>(job.sync_interval));
  }
  const double run_length =
      std::max(1.0, dedicated * std::max(1.0, processes / std::max(1, now.workstations)));
  double intervals = 0;
  for (const auto& job : now.jobs) {
    const double reads = job.pattern == Pattern::None
                             ? 0
                             : static_cast<double>(job.sync_interval) / std::max<Nanos>(1, job.comm_interval);
    intervals += static_cast<double>(job.processes) * job.copies * (job.barriers + 1.0) * (6 + 4 * reads);
  }
  intervals += processes * 3 * run_length / std::max<Nanos>(1, now.scheduler_params().quantum());
  // Messages (B&M 3.1-3.2): a request and a reply per read, an arrival and a notice per barrier.
  double messages = 0;
  for (const auto& job : now.jobs) {
    const double reads = job.pattern == Pattern::None
                             ? 0
                             : static_cast<double>(job.sync_interval) / std::max<Nanos>(1, job.comm_interval);
    messages += static_cast<double>(job.processes) * job.copies * (job.barriers + 1.0) * (2 * reads + 2);
  }
  return {intervals, run_length, messages};
}

// Nobukuni 5.1: a thread's state (running, waiting) and cluster change at most at each time slice's start.
// Messages: at most a thread per cluster runs at once, each sending kNumaMessagesPerThreadClock messages per
// clock (pages, updates, synchronization). Before the platform file is loaded the clusters are unknown: the
// largest process's threads stand for them (as numa_memory does). Rough: docs/scenario-format.md "Traces".
TraceEstimate numa_trace(const NumaConfig& numa) {
  double threads = 0, clusters = numa.clusters;
  for (const auto& p : numa.processes) {
    threads += static_cast<double>(p.threads) * p.copies;
    clusters = std::max(clusters, static_cast<double>(p.threads));
  }
  const double clocks = static_cast<double>(numa.time_slice) * numa.slices;
  return {threads * (numa.slices + 2.0), std::max(1.0, clocks),
          std::min(threads, clusters) * clocks * kNumaMessagesPerThreadClock};
}

// output.trace's field (else output's, else the root's). Built by copies only: assigning a Field would assign
// its YAML node, which rebinds the node it held in the document.
Field trace_field(const Field& root) {
  const YAML::Node output = root.node()["output"];
  if (!output || !output.IsMap()) return root;
  const Field output_field = root.child(output, "output");
  const YAML::Node trace = output["trace"];
  return trace ? output_field.child(trace, "trace") : output_field;
}

void check_trace(const Scenario& scenario, const Field& root) {
  const auto& output = output_of(scenario);
  const double bytes = estimated_trace_bytes(scenario);
  const double limit = static_cast<double>(output.trace_limit_mb) * 1e6;
  if (bytes <= limit) return;
  trace_field(root).error(
      fmt::format("the trace would be about {:.0f} MB ({:.3g} intervals, {:.3g} messages), more than "
                  "output.trace_limit_mb ({} MB); expected a shorter output.trace_window, "
                  "output.trace_messages: false or a larger output.trace_limit_mb",
                  bytes / 1e6, estimated_trace_intervals(scenario), estimated_trace_messages(scenario),
                  output.trace_limit_mb));
}

}  // namespace

namespace {

TraceEstimate trace_estimate(const Scenario& scenario) {
  TraceEstimate estimate;
  if (const auto* smp = std::get_if<SmpConfig>(&scenario.model_config)) {
    estimate = smp_trace(*smp);
  } else if (const auto* numa = std::get_if<NumaConfig>(&scenario.model_config)) {
    estimate = numa_trace(*numa);
  } else {
    estimate = now_trace(std::get<NowConfig>(scenario.model_config));
  }
  if (std::holds_alternative<SmpConfig>(scenario.model_config)) estimate.messages = 0;
  // A window keeps its share of the run (at most all of it).
  if (const auto& window = output_of(scenario).trace_window) {
    const double share = static_cast<double>(window->second - window->first) / estimate.run_length;
    estimate.intervals *= std::min(1.0, share);
    estimate.messages *= std::min(1.0, share);
  }
  return estimate;
}

}  // namespace

double estimated_trace_intervals(const Scenario& scenario) {
  return trace_estimate(scenario).intervals;
}

double estimated_trace_messages(const Scenario& scenario) {
  return output_of(scenario).trace_messages ? trace_estimate(scenario).messages : 0;
}

double estimated_trace_bytes(const Scenario& scenario) {
  const auto& output = output_of(scenario);
  if (!output.traces()) return 0;
  const double per_interval =
      (output.trace_paje ? kPajeBytesPerInterval : 0) + (output.trace_chrome ? kChromeBytesPerInterval : 0);
  const double per_message =
      (output.trace_paje ? kPajeBytesPerMessage : 0) + (output.trace_chrome ? kChromeBytesPerMessage : 0);
  return estimated_trace_intervals(scenario) * per_interval +
         estimated_trace_messages(scenario) * per_message;
}

double estimated_memory_bytes(const Scenario& scenario) {
  if (const auto* smp = std::get_if<SmpConfig>(&scenario.model_config)) {
    double threads = smp->nosync;
    for (const auto& job : smp->jobs) threads += static_cast<double>(job.threads) * job.copies;
    return kBaseBytes + threads * kBytesPerSmpThread;
  }
  if (const auto* numa = std::get_if<NumaConfig>(&scenario.model_config)) {
    const auto memory = numa_memory(*numa);
    return memory.frames + memory.other;
  }
  const auto& now = std::get<NowConfig>(scenario.model_config);
  double workstations = now.workstations;
  double processes = 0, pairs = 0;
  for (const auto& job : now.jobs) {
    for (int ws : job.placement) workstations = std::max(workstations, ws + 1.0);
    processes += static_cast<double>(job.processes) * job.copies;
    // Workstations that talk (docs/models/now.md): every pair for random reads or all-to-all barriers,
    // else NEWS neighbours and the barrier root. Copies share their placement, so their pairs.
    const double p = job.processes;
    const bool all_pairs = job.pattern == Pattern::Random || job.barrier_kind == BarrierKind::AllToAll;
    pairs += all_pairs ? p * p : 6 * p;
  }
  pairs = std::min(pairs, workstations * workstations);
  // An open workload's jobs are counted when its SWF file is read (check_stream): the platform's share here.
  return kBaseBytes + workstations * kBytesPerWorkstation + processes * kBytesPerNowProcess +
         pairs * kBytesPerTalkingPair;
}

double estimated_stream_bytes(std::int64_t jobs, std::int64_t processes) {
  // A job's layout, barrier protocol and records: a few hundred bytes each, rounded up like a process.
  return static_cast<double>(processes) * kBytesPerNowProcess +
         static_cast<double>(jobs) * kBytesPerNowProcess;
}

void check_stream(std::int64_t jobs, std::int64_t processes, const Field& where) {
  if (processes > kMaxProcesses)
    where.error(
        fmt::format("the stream's {} jobs have {} processes in all, more than the limit of {}; expected "
                    "fewer jobs (workload.stream.jobs)",
                    jobs, processes, kMaxProcesses));
  check_memory(kBaseBytes + estimated_stream_bytes(jobs, processes), where);
}

double check_stream_trace(const NowConfig& now, double process_seconds, double run_seconds,
                          const Field& root) {
  const auto& output = now.output;
  if (!output.traces() || !now.stream) return 0;
  // Per process and nanosecond of its run, as now_trace counts them per phase (Brim & Miller 3.1), for the
  // class that changes state and sends most; sharing a workstation adds 3 intervals per quantum.
  double intervals_per_ns = 0, messages_per_ns = 0;
  for (const auto& c : now.stream->classes) {
    const auto& job = c.profile;
    const double sync = static_cast<double>(job.sync_interval);
    const double reads =
        job.pattern == Pattern::None ? 0 : sync / static_cast<double>(std::max<Nanos>(1, job.comm_interval));
    intervals_per_ns = std::max(intervals_per_ns, (6 + 4 * reads) / sync);
    messages_per_ns = std::max(messages_per_ns, (2 * reads + 2) / sync);
  }
  intervals_per_ns += 3.0 / static_cast<double>(std::max<Nanos>(1, now.scheduler_params().quantum()));
  const double process_ns = process_seconds * 1e9;
  double intervals = process_ns * intervals_per_ns;
  double messages = output.trace_messages ? process_ns * messages_per_ns : 0;
  if (const auto& window = output.trace_window; window && run_seconds > 0) {
    const double share =
        std::min(1.0, static_cast<double>(window->second - window->first) / (run_seconds * 1e9));
    intervals *= share;
    messages *= share;
  }
  const double per_interval =
      (output.trace_paje ? kPajeBytesPerInterval : 0) + (output.trace_chrome ? kChromeBytesPerInterval : 0);
  const double per_message =
      (output.trace_paje ? kPajeBytesPerMessage : 0) + (output.trace_chrome ? kChromeBytesPerMessage : 0);
  const double bytes = intervals * per_interval + messages * per_message;
  if (bytes > static_cast<double>(output.trace_limit_mb) * 1e6)
    trace_field(root).error(fmt::format(
        "the trace would be about {:.0f} MB ({:.3g} intervals, {:.3g} messages over the stream's jobs), more "
        "than output.trace_limit_mb ({} MB); expected a shorter output.trace_window, output.trace_messages: "
        "false, a smaller workload.stream.time_scale or a larger output.trace_limit_mb",
        bytes / 1e6, intervals, messages, output.trace_limit_mb));
  return bytes;
}

void check_simulated_time(std::int64_t now, const std::string& scenario_file, const char* unit) {
  if (now <= kMaxSimulatedTime) return;
  throw InputError(fmt::format(
      "{}: the run passed {:g} {}, the largest simulated time the model represents; expected a scenario "
      "that ends sooner (fewer barriers, shorter intervals or a lighter load)",
      scenario_file, static_cast<double>(kMaxSimulatedTime), unit));
}

void check(const Scenario& scenario, const Field& root) {
  // First: `at` rebinds the document's nodes as it goes down (assigning a Field assigns its YAML node).
  check_trace(scenario, root);
  if (const auto* smp = std::get_if<SmpConfig>(&scenario.model_config)) {
    check_smp(*smp, root);
  } else if (const auto* numa = std::get_if<NumaConfig>(&scenario.model_config)) {
    check_numa(*numa, root);  // checks the memory too, naming the key that tips it over
    return;
  } else {
    check_now(std::get<NowConfig>(scenario.model_config), root);
  }
  check_memory(estimated_memory_bytes(scenario), at(root, {"workload"}));
}

}  // namespace cosched::config::limits
