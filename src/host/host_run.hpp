#pragma once
// `cosched host`: an SMP scenario's workload run for real on this machine (issue 33; docs/host.md). One OS
// thread per simulated thread, sharing the first platform.cpus CPUs this process may use, under SCHED_OTHER
// (scheduler.policy cfs or eevdf) or SCHED_RR (rr); computation intervals drawn as the SMP model draws them
// and run as calibrated busy loops; the scenario's fixed-spin barriers as a spin on a generation word, then a
// futex. The result is the SMP model's record (metrics::SmpRunRecord) with its `host` part, so that the same
// summary.json and jobs.csv compare the host with the simulation.

#include <optional>
#include <string>
#include <vector>

#include "config/scenario.hpp"
#include "metrics/run_record.hpp"

namespace cosched::host {

// The SMP platform as the model finds it: platform.cpus at 1 Gcycle/s, or a platform file's host's cores and
// speed (read on the SimGrid side, cli/host_command.cpp, which holds SimGrid).
struct PlatformSize {
  int cpus = 0;
  double cycles_per_second = 0;
  bool from_file = false;
};

enum class HostPolicy { Other, RoundRobin };

// One job instance as the host runs it.
struct HostJob {
  std::string name;
  int copy = 0;
  std::size_t instance = 0;  // its place among the instances: its threads' random streams
  int threads = 0;
  int barriers = 0;
  double compute_cycles = 0;  // mu
  double sigma_cycles = 0;
  std::int64_t spin_cycles =
      0;  // the fixed spin's budget: 0 blocks at once, wait::kUnlimitedSpin never blocks
  std::int64_t yield_poll_cycles = 0;  // the `yield` algorithm's poll: each failed poll calls sched_yield()
  int nice = 0;
};

// What a checked scenario asks of the host.
struct HostPlan {
  HostPolicy policy = HostPolicy::Other;
  std::vector<int> cpus;  // the host CPUs every thread may run on: the first platform.cpus allowed ones
  double cycles_per_second = 0;
  std::string clock;  // where cycles_per_second comes from
  std::vector<HostJob> jobs;
  int nosync = 0;
  int nosync_nice = 0;
  std::uint64_t seed = 0;
  int repetition = 1;
};

// Checks that this machine can run `scenario` and says how: throws config::InputError, one line located in
// the scenario file (found again with `sets`, the --set overrides it was loaded with), for a scenario of
// another model, end: first-finish, a policy the host kernel does not have, a waiting algorithm that is
// neither a fixed spin nor yield, a job with a user-level loop or task tree, more CPUs than this process may
// use, too many threads, or SCHED_RR or a negative nice without the permission to use it.
// COSCHED_HOST_ASSUME_UNPRIVILEGED=1 in the environment makes it take both as forbidden (a test hook: the
// tests run as root).
HostPlan plan_host_run(const config::Scenario& scenario, const std::vector<std::string>& sets,
                       const PlatformSize& platform, int repetition);

// Runs the plan: calibrates the loops, starts every thread behind a gate, releases them together and waits
// for the synchronizing jobs to pass their last barrier. The record has no `resolved` and no wall_seconds
// (the caller's). Throws std::runtime_error when the host refuses a thread (exit 1: not the scenario's
// fault).
metrics::SmpRunRecord run_on_host(const config::Scenario& scenario, const HostPlan& plan);

// The CPUs this process may use (sched_getaffinity), ascending.
std::vector<int> allowed_cpus();

// The most threads a host run starts (synchronizing and non-synchronizing).
inline constexpr int kMaxHostThreads = 4096;

}  // namespace cosched::host
