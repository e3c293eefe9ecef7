#include "config/limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string>

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

}  // namespace

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
  return kBaseBytes + workstations * kBytesPerWorkstation + processes * kBytesPerNowProcess +
         pairs * kBytesPerTalkingPair;
}

void check_simulated_time(std::int64_t now, const std::string& scenario_file, const char* unit) {
  if (now <= kMaxSimulatedTime) return;
  throw InputError(fmt::format(
      "{}: the run passed {:g} {}, the largest simulated time the model represents; expected a scenario "
      "that ends sooner (fewer barriers, shorter intervals or a lighter load)",
      scenario_file, static_cast<double>(kMaxSimulatedTime), unit));
}

void check(const Scenario& scenario, const Field& root) {
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
