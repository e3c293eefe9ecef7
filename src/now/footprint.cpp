#include "now/footprint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace cosched::now {
namespace {

using namespace config::limits;
using config::Nanos;
using config::Pattern;

// Bytes per process, workstation and pair of talking workstations, measured on this code base (peak RSS
// growth of runs with 10^2..10^3 workstations), rounded up.
constexpr double kBytesPerProcess = 4096;
constexpr double kBytesPerWorkstation = 64 * 1024;
constexpr double kBytesPerTalkingPair = 64;

// Brim & Miller 3.1: a process alternates computing and communicating at each read (every comm_interval
// under a read pattern), and synchronizes, blocks, is woken and switched in at each barrier: 6 + 4 per read
// state changes per synchronization interval. Messages (3.1-3.2): a request and a reply per read, an arrival
// and a notice per barrier.
struct PerInterval {
  double intervals, messages;
};

PerInterval per_sync_interval(const config::NowJobProfile& job) {
  const double reads = job.pattern == Pattern::None
                           ? 0
                           : static_cast<double>(job.sync_interval) / std::max<Nanos>(1, job.comm_interval);
  return {6 + 4 * reads, 2 * reads + 2};
}

// Sharing a workstation, a process is preempted, waits and is switched in each quantum: 3 intervals.
double quantum_ns(const config::NowConfig& now) {
  return static_cast<double>(std::max<Nanos>(1, now.scheduler_params().quantum()));
}

}  // namespace

// The run lasts about barriers x sync_interval times the processes per workstation.
TraceEstimate trace_estimate(const config::NowConfig& now) {
  double processes = 0, dedicated = 0;
  for (const auto& job : now.jobs) {
    processes += static_cast<double>(job.processes) * job.copies;
    dedicated =
        std::max(dedicated, static_cast<double>(job.barriers) * static_cast<double>(job.sync_interval));
  }
  const double run_length =
      std::max(1.0, dedicated * std::max(1.0, processes / std::max(1, now.workstations)));
  TraceEstimate estimate{0, run_length, 0};
  for (const auto& job : now.jobs) {
    const auto per = per_sync_interval(job);
    const double syncs = static_cast<double>(job.processes) * job.copies * (job.barriers + 1.0);
    estimate.intervals += syncs * per.intervals;
    estimate.messages += syncs * per.messages;
  }
  estimate.intervals += processes * 3 * run_length / quantum_ns(now);
  return estimate;
}

double memory_bytes(const config::NowConfig& now) {
  double workstations = now.workstations;
  double processes = 0, pairs = 0;
  for (const auto& job : now.jobs) {
    for (int ws : job.placement) workstations = std::max(workstations, ws + 1.0);
    processes += static_cast<double>(job.processes) * job.copies;
    // Workstations that talk (docs/models/now.md): every pair for random reads or all-to-all barriers,
    // else NEWS neighbours and the barrier root. Copies share their placement, so their pairs.
    const double p = job.processes;
    const bool all_pairs =
        job.pattern == Pattern::Random || job.barrier_kind == config::BarrierKind::AllToAll;
    pairs += all_pairs ? p * p : 6 * p;
  }
  pairs = std::min(pairs, workstations * workstations);
  // An open workload's jobs are counted when its SWF file is read (check_stream): the platform's share here.
  return kBaseBytes + workstations * kBytesPerWorkstation + processes * kBytesPerProcess +
         pairs * kBytesPerTalkingPair;
}

void check_limits(const config::NowConfig& now, const config::Field& root) {
  std::int64_t processes = 0;
  for (std::size_t j = 0; j < now.jobs.size(); ++j) {
    const auto& job = now.jobs[j];
    const auto job_field = [&](const char* key) {
      return field_at(root, {"workload", "jobs", std::to_string(j), key});
    };
    // Brim & Miller 3.1: a process synchronizes every sync_interval; the job takes at least barriers x
    // sync_interval (on average) even alone on its workstations.
    const double dedicated = static_cast<double>(job.barriers) * static_cast<double>(job.sync_interval);
    if (dedicated > static_cast<double>(kMaxSimulatedTime))
      job_field("barriers")
          .error(fmt::format("barriers x sync_interval = {:g} s on dedicated workstations, more than the "
                             "largest simulated time ({:g} s); expected fewer barriers or a shorter "
                             "sync_interval",
                             dedicated * 1e-9, static_cast<double>(kMaxSimulatedTime) * 1e-9));
    processes += static_cast<std::int64_t>(job.processes) * job.copies;
    if (processes > kMaxProcesses)
      job_field(job.copies > 1 ? "copies" : "processes")
          .error(fmt::format("{} processes in all (every copy of every job), more than the limit of {}",
                             processes, kMaxProcesses));
  }
  check_memory(memory_bytes(now), field_at(root, {"workload"}));
}

double stream_bytes(std::int64_t jobs, std::int64_t processes) {
  // A job's layout, barrier protocol and records: a few hundred bytes each, rounded up like a process.
  return static_cast<double>(processes) * kBytesPerProcess + static_cast<double>(jobs) * kBytesPerProcess;
}

void check_stream(std::int64_t jobs, std::int64_t processes, const config::Field& where) {
  if (processes > kMaxProcesses)
    where.error(
        fmt::format("the stream's {} jobs have {} processes in all, more than the limit of {}; expected "
                    "fewer jobs (workload.stream.jobs)",
                    jobs, processes, kMaxProcesses));
  check_memory(kBaseBytes + stream_bytes(jobs, processes), where);
}

double check_stream_trace(const config::NowConfig& now, double process_seconds, double run_seconds,
                          const config::Field& root) {
  const auto& output = now.output;
  if (!output.traces() || !now.stream) return 0;
  // Per process and nanosecond of its run, as trace_estimate counts them per synchronization interval, for
  // the class that changes state and sends most.
  double intervals_per_ns = 0, messages_per_ns = 0;
  for (const auto& c : now.stream->classes) {
    const auto per = per_sync_interval(c.profile);
    const double sync = static_cast<double>(c.profile.sync_interval);
    intervals_per_ns = std::max(intervals_per_ns, per.intervals / sync);
    messages_per_ns = std::max(messages_per_ns, per.messages / sync);
  }
  intervals_per_ns += 3.0 / quantum_ns(now);
  const double process_ns = process_seconds * 1e9;
  const auto estimate =
      traced(output, {process_ns * intervals_per_ns, run_seconds * 1e9, process_ns * messages_per_ns});
  return check_trace(output, estimate, root, " over the stream's jobs",
                     ", a smaller workload.stream.time_scale");
}

}  // namespace cosched::now
