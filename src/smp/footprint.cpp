#include "smp/footprint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace cosched::smp {
namespace {

using namespace config::limits;

// Bytes per thread, measured on this code base (peak RSS growth of runs with 10^4..10^5 threads), rounded up.
constexpr double kBytesPerThread = 4096;

}  // namespace

// Thesis 2.2 (Tsafrir): a thread computes, then spins or blocks at a barrier and is woken, switched in and
// runs again: about 6 state changes per barrier; a thread that shares its CPU is also preempted, waits and is
// switched in again each quantum (3 more). The run lasts about a job's dedicated time times the threads per
// CPU.
TraceEstimate trace_estimate(const config::SmpConfig& smp) {
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
  intervals += lanes * 3 * run_length / std::max<config::Cycles>(1, smp.quantum);
  return {intervals, run_length, 0};
}

double memory_bytes(const config::SmpConfig& smp) {
  double threads = smp.nosync;
  for (const auto& job : smp.jobs) threads += static_cast<double>(job.threads) * job.copies;
  return kBaseBytes + threads * kBytesPerThread;
}

void check_limits(const config::SmpConfig& smp, const config::Field& root) {
  std::int64_t threads = smp.nosync;
  for (std::size_t j = 0; j < smp.jobs.size(); ++j) {
    const auto& job = smp.jobs[j];
    const auto job_field = [&](const char* key) {
      return field_at(root, {"workload", "jobs", std::to_string(j), key});
    };
    // Thesis 2.2: a thread computes about `compute` cycles between barriers; alone on a processor its job
    // takes at least barriers x compute cycles.
    const double dedicated = static_cast<double>(job.barriers) * job.compute_cycles;
    if (dedicated > static_cast<double>(kMaxSimulatedTime))
      job_field("barriers")
          .error(fmt::format("barriers x compute = {:g} cycles on a dedicated processor, more than the "
                             "largest simulated time ({:g} cycles); expected fewer barriers or a shorter "
                             "compute interval",
                             dedicated, static_cast<double>(kMaxSimulatedTime)));
    threads += static_cast<std::int64_t>(job.threads) * job.copies;
    if (threads > kMaxThreads)
      job_field(job.copies > 1 ? "copies" : "threads")
          .error(fmt::format("{} threads in all (nosync and every copy of every job), more than the limit "
                             "of {}",
                             threads, kMaxThreads));
  }
  check_memory(memory_bytes(smp), field_at(root, {"workload"}));
}

}  // namespace cosched::smp
