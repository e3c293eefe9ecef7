#include "numa/footprint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace cosched::numa {
namespace {

using namespace config::limits;

// Messages (pages, updates, synchronization) per running thread per clock: process set A
// (scenarios/nobukuni/set-a.yaml, w488) sends about 0.0145 per cluster per clock once its pages are loaded
// (370,000 per slice of 100,000 clocks on 256 clusters, slices 10-40), far fewer in its first, disk-bound
// slices; rounded up.
constexpr double kMessagesPerThreadClock = 0.02;
// What the machine must hold (docs/models/numa.md): a record per page of every space (a thread's local
// pages, a process's shared pages) and per page frame, a bit per shared page and cluster for where its
// copies are, and a thread's state. Estimated from those structures, not yet measured.
constexpr double kBytesPerPage = 32;
constexpr double kBytesPerFrame = 32;
constexpr double kBytesPerThread = 1024;

// The memory a run needs, split into its page frames and the rest (to say which key tips it over).
struct Memory {
  double frames = 0, other = 0;
};

Memory memory_of(const config::NumaConfig& numa) {
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
  return {clusters * numa.pages_per_cluster * kBytesPerFrame,
          kBaseBytes + threads * kBytesPerThread + pages * kBytesPerPage + shared_pages * clusters / 8};
}

}  // namespace

// Nobukuni 5.1: a thread's state (running, waiting) and cluster change at most at each time slice's start.
// Messages: at most a thread per cluster runs at once, each sending kMessagesPerThreadClock messages per
// clock (pages, updates, synchronization). Before the platform file is loaded the clusters are unknown: the
// largest process's threads stand for them (as memory_of does). Rough: docs/scenario-format.md "Traces".
TraceEstimate trace_estimate(const config::NumaConfig& numa) {
  double threads = 0, clusters = numa.clusters;
  for (const auto& p : numa.processes) {
    threads += static_cast<double>(p.threads) * p.copies;
    clusters = std::max(clusters, static_cast<double>(p.threads));
  }
  const double clocks = static_cast<double>(numa.time_slice) * numa.slices;
  return {threads * (numa.slices + 2.0), std::max(1.0, clocks),
          std::min(threads, clusters) * clocks * kMessagesPerThreadClock};
}

double memory_bytes(const config::NumaConfig& numa) {
  const auto memory = memory_of(numa);
  return memory.frames + memory.other;
}

void check_limits(const config::NumaConfig& numa, const config::Field& root) {
  // Chapter 5: a run lasts at most `slices` time slices.
  const double longest = static_cast<double>(numa.time_slice) * numa.slices;
  if (longest > static_cast<double>(kMaxSimulatedTime))
    field_at(root, {"scheduler", "slices"})
        .error(fmt::format("slices x time_slice = {:g} clocks, more than the largest simulated time ({:g} "
                           "clocks); expected fewer or shorter slices",
                           longest, static_cast<double>(kMaxSimulatedTime)));
  std::int64_t processes = 0, threads = 0;
  for (std::size_t p = 0; p < numa.processes.size(); ++p) {
    const auto& process = numa.processes[p];
    processes += process.copies;
    threads += static_cast<std::int64_t>(process.threads) * process.copies;
    const auto where = [&](const char* key) {
      return field_at(root,
                      {"workload", "processes", std::to_string(p), process.copies > 1 ? "copies" : key});
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
  const auto memory = memory_of(numa);
  check_memory(memory.frames + memory.other, memory.frames > memory.other
                                                 ? field_at(root, {"memory", "pages_per_cluster"})
                                                 : field_at(root, {"workload"}));
}

}  // namespace cosched::numa
