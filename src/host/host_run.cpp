#include "host/host_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "config/field.hpp"
#include "config/limits.hpp"
#include "host/busy_loop.hpp"
#include "host/futex_barrier.hpp"
#include "scenario/loader.hpp"
#include "wait/smp/smp_wait.hpp"
#include "wait/smp/smp_wait_registry.hpp"
#include "workload/compute_interval.hpp"

namespace cosched::host {
namespace {

// ---- the checks ----

// The scenario's document read again, to locate a refusal at the key it concerns; made only to refuse.
class Locator {
 public:
  Locator(const config::Scenario& scenario, const std::vector<std::string>& sets)
      : source_{scenario.file, {}, {}}, document_(config::scenario_document(scenario.file, sets, source_)) {}

  [[noreturn]] void fail(std::initializer_list<std::string> path, const std::string& expected) {
    at(path).fail(expected);
  }
  [[noreturn]] void error(std::initializer_list<std::string> path, const std::string& message) {
    at(path).error(message);
  }

 private:
  config::Field at(std::initializer_list<std::string> path) {
    return config::limits::field_at(config::Field(document_, {}, &source_), path);
  }
  config::Source source_;
  YAML::Node document_;
};

// The SMP scheduling policies and the host policy each runs under; the others, and why the host has none.
struct PolicyOnHost {
  const char* name;
  HostPolicy policy;
};
constexpr PolicyOnHost kPolicies[] = {
    {"rr", HostPolicy::RoundRobin}, {"cfs", HostPolicy::Other}, {"eevdf", HostPolicy::Other}};
constexpr const char* kPoliciesExpected = "rr (run under SCHED_RR), cfs or eevdf (run under SCHED_OTHER)";
struct PolicyRefused {
  const char* name;
  const char* reason;
};
constexpr PolicyRefused kRefusedPolicies[] = {
    {"linux24", "the host kernel is not Linux 2.4"},
    {"partitioned", "the host kernel has no Kontothanassis & Wisniewski processor partitioning"},
};

// The test hook of docs/host.md section 1: the process is taken as unprivileged whatever its rights.
bool assumed_unprivileged() {
  const char* hook = std::getenv("COSCHED_HOST_ASSUME_UNPRIVILEGED");
  return hook && std::string(hook) == "1";
}

// Whether this process may put a thread under SCHED_RR: tried on a thread of its own, which then ends.
bool may_use_sched_rr() {
  if (assumed_unprivileged()) return false;
  bool allowed = false;
  std::thread probe([&allowed] {
    sched_param param{};
    param.sched_priority = 1;
    allowed = ::pthread_setschedparam(::pthread_self(), SCHED_RR, &param) == 0;
  });
  probe.join();
  return allowed;
}

// Whether a thread of this process may take this nice value: any thread may lower its priority; a negative
// nice needs root, CAP_SYS_NICE or RLIMIT_NICE, and is tried on a thread that ends at once.
bool may_use_nice(int nice) {
  if (nice >= 0) return true;
  if (assumed_unprivileged()) return false;
  bool allowed = false;
  std::thread probe([&allowed, nice] { allowed = ::setpriority(PRIO_PROCESS, ::gettid(), nice) == 0; });
  probe.join();
  return allowed;
}

std::string nice_expected(int nice) {
  return fmt::format(
      "a nice value this process may set (it may not set {}: a negative nice needs root or "
      "CAP_SYS_NICE)",
      nice);
}

std::string cpu_list(const std::vector<int>& cpus) {
  return fmt::format("{}", fmt::join(cpus, ","));
}

}  // namespace

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0)
    throw std::system_error(errno, std::generic_category(), "sched_getaffinity");
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

HostPlan plan_host_run(const config::Scenario& scenario, const std::vector<std::string>& sets,
                       const PlatformSize& platform, int repetition) {
  const auto locator = [&] { return Locator(scenario, sets); };
  if (!std::holds_alternative<config::SmpConfig>(scenario.model_config))
    locator().fail(
        {"model"},
        "smp (cosched host runs an SMP scenario's threads on this machine; the now and numa models "
        "have no host engine)");
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);
  if (scenario.end != config::EndCondition::AllJobs)
    locator().fail({"end"}, "all-jobs (cosched host runs every job to its last barrier)");

  HostPlan plan;
  plan.seed = scenario.seed;
  plan.repetition = repetition;
  plan.nosync = smp.nosync;
  plan.nosync_nice = smp.nosync_nice;
  const auto policy = std::find_if(std::begin(kPolicies), std::end(kPolicies),
                                   [&](const PolicyOnHost& p) { return smp.scheduler.name == p.name; });
  if (policy == std::end(kPolicies)) {
    const auto refused = std::find_if(std::begin(kRefusedPolicies), std::end(kRefusedPolicies),
                                      [&](const PolicyRefused& p) { return smp.scheduler.name == p.name; });
    locator().fail({"scheduler", "policy"},
                   fmt::format("{}, since {}", kPoliciesExpected,
                               refused != std::end(kRefusedPolicies) ? refused->reason
                                                                     : "the host kernel has no such policy"));
  }
  plan.policy = policy->policy;

  std::int64_t threads = smp.nosync;
  for (std::size_t p = 0; p < smp.jobs.size(); ++p) {
    const auto& profile = smp.jobs[p];
    const std::string index = std::to_string(p);
    if (profile.loop)
      locator().fail({"workload", "jobs", index, "loop"},
                     "a job of computation intervals (cosched host runs no user-level loop)");
    if (profile.tasks)
      locator().fail({"workload", "jobs", index, "tasks"},
                     "a job of computation intervals (cosched host runs no user-level task tree)");
    // The fixed spins (fixed-spin, block, spin) and yield are what the host runs: the registry's factory and
    // entry say which algorithm is one, so that no name is compared here.
    const auto algorithm = wait::make_smp_wait(profile.wait);
    const auto* fixed = dynamic_cast<const wait::FixedSpin*>(algorithm.get());
    const bool yields = wait::smp_waits().at(profile.wait.name).yields;
    if (!fixed && !yields)
      locator().fail({"workload", "jobs", index, "wait", "algorithm"},
                     "fixed-spin, block, spin or yield (cosched host spins a fixed budget, yielding or not, "
                     "then blocks on a futex)");
    if (!may_use_nice(profile.nice))
      locator().fail({"workload", "jobs", index, "nice"}, nice_expected(profile.nice));
    const auto waiter = algorithm->make_waiter();
    for (int copy = 0; copy < profile.copies; ++copy) {
      HostJob job;
      job.name = profile.name;
      job.copy = copy;
      job.instance = plan.jobs.size();
      job.threads = profile.threads;
      job.barriers = profile.barriers;
      job.compute_cycles = profile.compute_cycles;
      job.sigma_cycles = profile.sigma.cycles;
      job.spin_cycles = waiter->spin_budget({});  // a fixed budget: the same at every barrier
      job.yield_poll_cycles = waiter->yield_every();
      job.nice = profile.nice;
      plan.jobs.push_back(std::move(job));
      threads += profile.threads;
    }
  }
  if (!may_use_nice(smp.nosync_nice))
    locator().fail({"workload", "nosync_nice"}, nice_expected(smp.nosync_nice));
  if (threads > kMaxHostThreads)
    locator().error({"workload"}, fmt::format("{} threads; expected at most {} OS threads on the host",
                                              threads, kMaxHostThreads));

  const std::vector<int> allowed = allowed_cpus();
  if (platform.cpus > static_cast<int>(allowed.size())) {
    const std::string expected = fmt::format("at most {} CPUs, the ones this process may use here ({})",
                                             allowed.size(), cpu_list(allowed));
    if (platform.from_file)
      locator().error({"platform", "file"},
                      fmt::format("its host has {} cores; expected {}", platform.cpus, expected));
    locator().fail({"platform", "cpus"}, expected);
  }
  plan.cpus.assign(allowed.begin(), allowed.begin() + platform.cpus);

  // The clock that turns cycles into host time (docs/host.md, section 3): a platform file's speed is the
  // model's own; a calibration's cpu_hz is what its cycles were measured at; else 1 cycle = 1 ns.
  if (platform.from_file) {
    plan.cycles_per_second = platform.cycles_per_second;
    plan.clock = "platform.file";
  } else if (scenario.calibration) {
    plan.cycles_per_second = scenario.calibration->cpu_hz;
    plan.clock = "calibration";
  } else {
    plan.cycles_per_second = platform.cycles_per_second;
    plan.clock = "platform.cpus";
  }

  if (plan.policy == HostPolicy::RoundRobin && !may_use_sched_rr())
    locator().fail(
        {"scheduler", "policy"},
        "cfs or eevdf (run under SCHED_OTHER): rr runs under SCHED_RR, which this process may not use "
        "(it needs root or CAP_SYS_NICE)");
  return plan;
}

namespace {

// ---- the run ----

long futex(std::atomic<std::uint32_t>& word, int operation, std::uint32_t value) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), operation, value, nullptr, nullptr, 0);
}

// Waits until `word` is no longer `value`.
void futex_wait_while(std::atomic<std::uint32_t>& word, std::uint32_t value) {
  while (word.load(std::memory_order_acquire) == value) futex(word, FUTEX_WAIT_PRIVATE, value);
}

constexpr std::uint32_t kGateClosed = 0, kGateOpen = 1, kGateAbort = 2;
// A non-synchronizing thread looks at the stop flag between runs of this many iterations (some microseconds).
constexpr std::uint64_t kNosyncIterations = 4096;
// Threads need little stack: their loops hold no arrays.
constexpr std::size_t kStackBytes = 256 * 1024;

// Shared by the run's threads.
struct RunState {
  const HostPlan* plan = nullptr;
  double iterations_per_cycle = 0;
  double polls_per_cycle = 0;
  std::atomic<std::uint32_t> ready{0};  // threads waiting at the gate
  std::atomic<std::uint32_t> gate{kGateClosed};
  std::int64_t start_ns = 0;  // CLOCK_MONOTONIC when the gate opened
  alignas(64) std::atomic<int> sync_threads_left{0};
  alignas(64) std::atomic<bool> stop{false};  // the non-synchronizing threads stop
  std::atomic<bool> failed{false};
  std::string failure;  // the first failure, written by the thread that set `failed`
};

// One job instance's barrier and bookkeeping.
struct JobState {
  explicit JobState(const HostJob& j) : job(&j), barrier(j.threads) {}
  const HostJob* job;
  FutexBarrier barrier;
};

// One thread: what it is and what it measured (written by it, read after it is joined).
struct alignas(64) ThreadState {
  RunState* run = nullptr;
  JobState* job = nullptr;  // null: a non-synchronizing thread
  int index = 0;            // within its job
  WaitCounts waits;
  std::int64_t compute_cycles = 0;  // drawn
  std::int64_t finish_ns = 0;       // after the gate: when it passed its last barrier
  std::int64_t last_failed_spin_ns = -1;
  std::int64_t cpu_ns = 0;      // its CPU time from the gate to its end
  std::int64_t dispatches = 0;  // 1 + the times the kernel switched it out (getrusage)
};

ThreadState thread_state(RunState& run, JobState* job, int index) {
  ThreadState state;
  state.run = &run;
  state.job = job;
  state.index = index;
  return state;
}

void fail(RunState& run, const std::string& why) {
  if (!run.failed.exchange(true)) run.failure = why;
}

std::int64_t context_switches() {
  rusage usage{};
  ::getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_nvcsw + usage.ru_nivcsw;
}

// Waits at the start gate; false when the run is abandoned before it starts.
bool pass_gate(RunState& run) {
  run.ready.fetch_add(1, std::memory_order_acq_rel);
  futex(run.ready, FUTEX_WAKE_PRIVATE, 1);
  futex_wait_while(run.gate, kGateClosed);
  return run.gate.load(std::memory_order_acquire) == kGateOpen;
}

void synchronizing_thread(ThreadState& me) {
  RunState& run = *me.run;
  const HostJob& job = *me.job->job;
  // The SMP model's draws: the same stream, one interval per phase (docs/models/smp.md section 6).
  auto interval = workload::ComputeInterval::for_thread(job.compute_cycles, job.sigma_cycles, run.plan->seed,
                                                        job.instance, me.index);
  // A yield loop's budget is the model's: its spin over its poll, in passes of the loop.
  const double polls_per_cycle =
      job.yield_poll_cycles > 0 ? 1.0 / static_cast<double>(job.yield_poll_cycles) : run.polls_per_cycle;
  const std::uint64_t max_polls =
      job.spin_cycles >= wait::kUnlimitedSpin ? kUnlimitedPolls
      : job.spin_cycles <= 0
          ? 0
          : std::max<std::uint64_t>(1, std::llround(static_cast<double>(job.spin_cycles) * polls_per_cycle));
  if (!pass_gate(run)) return;
  const std::int64_t cpu_start = thread_cpu_ns();
  const std::int64_t switches_start = context_switches();
  for (int b = 0; b < job.barriers; ++b) {
    const std::int64_t cycles = interval.draw();
    me.compute_cycles += cycles;
    compute_iterations(
        static_cast<std::uint64_t>(std::llround(static_cast<double>(cycles) * run.iterations_per_cycle)));
    const auto arrival = me.job->barrier.arrive();
    if (!arrival.last && me.job->barrier.wait(arrival, max_polls, job.yield_poll_cycles > 0, me.waits))
      me.last_failed_spin_ns = monotonic_ns() - run.start_ns;
  }
  me.finish_ns = monotonic_ns() - run.start_ns;
  me.cpu_ns = thread_cpu_ns() - cpu_start;
  me.dispatches = 1 + context_switches() - switches_start;
  if (run.sync_threads_left.fetch_sub(1, std::memory_order_acq_rel) == 1)
    run.stop.store(true, std::memory_order_release);
}

void nosync_thread(ThreadState& me) {
  RunState& run = *me.run;
  if (!pass_gate(run)) return;
  while (!run.stop.load(std::memory_order_acquire)) compute_iterations(kNosyncIterations);
}

void* thread_main(void* argument) {
  auto& me = *static_cast<ThreadState*>(argument);
  const int nice = me.job ? me.job->job->nice : me.run->plan->nosync_nice;
  if (nice != 0 && ::setpriority(PRIO_PROCESS, ::gettid(), nice) != 0)
    fail(*me.run, fmt::format("setpriority({}): {}", nice, std::strerror(errno)));
  try {
    if (me.job) {
      synchronizing_thread(me);
    } else {
      nosync_thread(me);
    }
  } catch (const std::exception& e) {
    // A system call the run cannot do without failed (a futex or a clock): its peers would wait for it at
    // their barrier forever, so the process ends here, leaving no result file (the staging directory is
    // hidden and holds none before the run ends).
    std::fprintf(stderr, "cosched: internal error: cosched host: %s\n", e.what());
    std::_Exit(1);
  }
  return nullptr;
}

// Reads a number from a /proc or /sys file; nothing when it is absent or unreadable (debugfs needs root
// and a mount).
std::optional<std::int64_t> read_number(const char* path) {
  std::ifstream in(path);
  std::int64_t value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

struct KernelName {
  std::string release, node;
  std::string scheduler;  // what SCHED_OTHER is: EEVDF from Linux 6.6, CFS before
};

KernelName kernel_name() {
  utsname name{};
  ::uname(&name);
  KernelName out{name.release, name.nodename, "CFS"};
  int major = 0, minor = 0;
  if (std::sscanf(name.release, "%d.%d", &major, &minor) == 2 && (major > 6 || (major == 6 && minor >= 6)))
    out.scheduler = "EEVDF";
  return out;
}

}  // namespace

metrics::SmpRunRecord run_on_host(const config::Scenario& scenario, const HostPlan& plan) {
  // The loops are calibrated on this thread, on the CPUs the run will use.
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : plan.cpus) CPU_SET(cpu, &cpus);
  cpu_set_t previous;
  ::sched_getaffinity(0, sizeof previous, &previous);
  ::sched_setaffinity(0, sizeof cpus, &cpus);
  const LoopCosts costs = calibrate_loops();
  ::sched_setaffinity(0, sizeof previous, &previous);

  RunState run;
  run.plan = &plan;
  const double ns_per_cycle = 1e9 / plan.cycles_per_second;
  run.iterations_per_cycle = ns_per_cycle / costs.ns_per_compute_iteration;
  run.polls_per_cycle = ns_per_cycle / costs.ns_per_poll;

  std::vector<std::unique_ptr<JobState>> jobs;
  std::vector<ThreadState> threads;
  for (const auto& job : plan.jobs) {
    jobs.push_back(std::make_unique<JobState>(job));
    for (int t = 0; t < job.threads; ++t) threads.push_back(thread_state(run, jobs.back().get(), t));
  }
  run.sync_threads_left = static_cast<int>(threads.size());
  for (int n = 0; n < plan.nosync; ++n) threads.push_back(thread_state(run, nullptr, n));
  // A run without synchronizing threads has nothing to wait for: its non-synchronizing threads stop at once.
  if (run.sync_threads_left == 0) run.stop = true;

  // Every thread may run on every CPU of the plan: the kernel places them, as the model's scheduler does.
  pthread_attr_t attributes;
  ::pthread_attr_init(&attributes);
  ::pthread_attr_setstacksize(&attributes, kStackBytes);
  ::pthread_attr_setaffinity_np(&attributes, sizeof cpus, &cpus);
  if (plan.policy == HostPolicy::RoundRobin) {
    sched_param param{};
    param.sched_priority = 1;
    ::pthread_attr_setinheritsched(&attributes, PTHREAD_EXPLICIT_SCHED);
    ::pthread_attr_setschedpolicy(&attributes, SCHED_RR);
    ::pthread_attr_setschedparam(&attributes, &param);
  }
  std::vector<pthread_t> handles;
  handles.reserve(threads.size());
  for (auto& thread : threads) {
    pthread_t handle;
    if (const int error = ::pthread_create(&handle, &attributes, thread_main, &thread); error != 0) {
      fail(run, fmt::format("pthread_create for thread {} of {}: {}", handles.size() + 1, threads.size(),
                            std::strerror(error)));
      break;
    }
    handles.push_back(handle);
  }
  ::pthread_attr_destroy(&attributes);

  // Every thread started waits at the gate; then all are released by one FUTEX_WAKE, or sent home.
  for (auto ready = run.ready.load(); ready < handles.size(); ready = run.ready.load())
    futex(run.ready, FUTEX_WAIT_PRIVATE, ready);
  const bool start = !run.failed.load();
  run.start_ns = monotonic_ns();
  run.gate.store(start ? kGateOpen : kGateAbort, std::memory_order_release);
  futex(run.gate, FUTEX_WAKE_PRIVATE, INT_MAX);
  for (pthread_t handle : handles) ::pthread_join(handle, nullptr);
  if (run.failed) throw std::runtime_error("cosched host: " + run.failure);

  const KernelName kernel = kernel_name();
  metrics::SmpRunRecord out;
  out.scenario = scenario.name;
  out.model = scenario.model;
  out.seed = scenario.seed;
  const auto to_cycles = [&plan](std::int64_t ns) {
    return std::llround(static_cast<double>(ns) * plan.cycles_per_second / 1e9);
  };
  metrics::SmpHostRecord host;
  host.kernel = kernel.release;
  host.repetition = plan.repetition;
  host.policy = plan.policy == HostPolicy::RoundRobin ? "SCHED_RR" : "SCHED_OTHER";
  host.kernel_scheduler = plan.policy == HostPolicy::RoundRobin ? "RT" : kernel.scheduler;
  host.cpus = plan.cpus;
  host.clock = plan.clock;
  if (plan.policy == HostPolicy::RoundRobin) {
    if (auto ms = read_number("/proc/sys/kernel/sched_rr_timeslice_ms"))
      host.rr_timeslice_ms = static_cast<int>(*ms);
    host.rt_runtime_us = read_number("/proc/sys/kernel/sched_rt_runtime_us");
  } else {
    host.base_slice_ns = read_number("/sys/kernel/debug/sched/base_slice_ns");
  }
  host.ns_per_compute_iteration = costs.ns_per_compute_iteration;
  host.ns_per_poll = costs.ns_per_poll;
  host.threads = static_cast<int>(threads.size());

  std::size_t next = 0;
  std::int64_t makespan_ns = 0;
  for (const auto& job : jobs) {
    metrics::SmpJobRecord record;
    record.name = job->job->name;
    record.copy = job->job->copy;
    std::int64_t finish_ns = 0, failed_ns = -1, cpu_ns = 0;
    std::uint64_t polls = 0;
    for (int t = 0; t < job->job->threads; ++t, ++next) {
      const auto& thread = threads[next];
      finish_ns = std::max(finish_ns, thread.finish_ns);
      failed_ns = std::max(failed_ns, thread.last_failed_spin_ns);
      record.spins += {thread.waits.successful_spins, thread.waits.spins};
      record.blocks += thread.waits.blocks;
      record.context_switches += thread.dispatches;
      polls += thread.waits.polls;
      cpu_ns += thread.cpu_ns;
      host.compute_cycles += thread.compute_cycles;
    }
    record.completion_time = to_cycles(finish_ns);
    record.barriers_completed = static_cast<int>(job->barrier.completed());
    if (failed_ns >= 0) record.transition_point = to_cycles(failed_ns);
    // The polls' CPU time at the calibrated cost of one poll, in cycles.
    record.spin_cycles =
        std::llround(static_cast<double>(polls) * costs.ns_per_poll * plan.cycles_per_second / 1e9);
    host.thread_cpu_cycles += to_cycles(cpu_ns);
    makespan_ns = std::max(makespan_ns, finish_ns);
    out.jobs.push_back(std::move(record));
  }
  out.makespan = to_cycles(makespan_ns);
  host.makespan_seconds = static_cast<double>(makespan_ns) / 1e9;
  out.platform = {kernel.node, static_cast<int>(plan.cpus.size()), plan.cycles_per_second, 0};
  out.host = std::move(host);
  return out;
}

}  // namespace cosched::host
