#include "calibrate/measurements.hpp"

#include <fmt/format.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <boost/context/fiber.hpp>
#include <cerrno>
#include <chrono>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace cosched::calibrate {

Plan full_plan() {
  // The slow figures' largest trials take about half a second on a 2.6 GHz server (2e6 ucontext switches of
  // ~250 ns, 2e5 kernel switches of ~3 us): long against the clock readings, short against the run's minute.
  // fcontext shares ucontext's rows, as setjmp did in the seed's table; dispatches (~10 ns) take 5 times
  // more. A wake-up on an idle CPU costs ten times a kernel switch or more (40 us in a virtual machine):
  // a tenth of its rows.
  return Plan{{200'000, 1'000'000, 2'000'000},
              {20'000, 100'000, 200'000},
              {2'000, 10'000, 20'000},
              {1'000'000, 5'000'000, 10'000'000},
              10,
              0.2};
}

Plan quick_plan() {
  return Plan{{20'000, 100'000, 200'000},
              {2'000, 10'000, 20'000},
              {200, 1'000, 2'000},
              {100'000, 500'000, 1'000'000},
              3,
              0.02};
}

namespace {

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] void fail_errno(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

}  // namespace

std::vector<int> allowed_cpu_list() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) fail_errno(errno, "sched_getaffinity");
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  if (cpus.empty()) throw std::runtime_error("sched_getaffinity: no CPU allowed");
  return cpus;
}

void pin(pthread_t thread, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (const int error = ::pthread_setaffinity_np(thread, sizeof set, &set); error != 0)
    fail_errno(error, fmt::format("pinning a thread to CPU {}", cpu));
}

namespace {

rusage usage_of_this_thread() {
  rusage usage{};
  if (::getrusage(RUSAGE_THREAD, &usage) != 0) fail_errno(errno, "getrusage");  // Linux 2.6.26+
  return usage;
}

// The calling thread's context switches so far, voluntary and involuntary.
long context_switches_of_this_thread() {
  const rusage usage = usage_of_this_thread();
  return usage.ru_nvcsw + usage.ru_nivcsw;
}

// The times the kernel took the CPU from the calling thread so far: it was preempted.
long preemptions_of_this_thread() {
  return usage_of_this_thread().ru_nivcsw;
}

// Attempts of a trial the kernel preempts (calibrate::undisturbed), within the figure's budget below.
constexpr int kAttempts = 3;

// The seed's table for a figure whose measuring thread never leaves its CPU of its own accord.
template <class Trial>
Measurement measure_undisturbed(const std::vector<std::int64_t>& sizes, int repetitions, Trial&& trial) {
  Measurement m;
  m.disturbances.emplace();
  // At most half the trials run again: a busy machine makes the run at most half as long again.
  m.disturbances->max_reruns = static_cast<std::int64_t>(sizes.size()) * repetitions / 2;
  m.rows = measure_rows(sizes, repetitions, [&](std::int64_t operations) {
    return undisturbed([&] { return trial(operations); }, preemptions_of_this_thread, kAttempts,
                       *m.disturbances);
  });
  return m;
}

// --- cpu_hz ------------------------------------------------------------------------------------------------

ClockRate clock_from_proc_cpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const double mhz = std::stod(line.substr(colon + 1));
    if (mhz > 0) return {mhz * 1e6, "/proc/cpuinfo cpu MHz (of the first CPU listed)"};
  }
  throw std::runtime_error("cannot tell the CPU's clock rate: no rdtsc and no 'cpu MHz' in /proc/cpuinfo");
}

// The time-stamp counter's ticks against steady_clock over `seconds` of busy waiting. Where the CPU has
// constant_tsc (every x86 of the last fifteen years) the TSC runs at the nominal clock rate, whatever
// frequency scaling or turbo does to the cores (docs/calibration.md).
ClockRate measure_clock(double seconds) {
#if defined(__x86_64__) || defined(__i386__)
  const std::int64_t start_ns = steady_ns();
  const std::uint64_t start_ticks = __rdtsc();
  const auto wanted_ns = static_cast<std::int64_t>(seconds * 1e9);
  std::int64_t end_ns = start_ns;
  while (end_ns - start_ns < wanted_ns) end_ns = steady_ns();
  const std::uint64_t end_ticks = __rdtsc();
  if (end_ticks > start_ticks)
    return {static_cast<double>(end_ticks - start_ticks) * 1e9 / static_cast<double>(end_ns - start_ns),
            fmt::format("rdtsc against steady_clock over {:.0f} ms", seconds * 1e3)};
#else
  (void)seconds;
#endif
  return clock_from_proc_cpuinfo();
}

// --- user-level switches -----------------------------------------------------------------------------------

// ucontext: the measuring context and a partner that increments the counter and switches back, forever.
struct UcontextPair {
  ucontext_t measuring{};
  ucontext_t partner{};
  Counter* counter = nullptr;
};
// makecontext passes only int arguments to the partner's function: it finds its pair here.
thread_local UcontextPair* g_pair = nullptr;

void ucontext_partner() {
  UcontextPair& pair = *g_pair;
  for (;;) {
    bump(*pair.counter);
    ::swapcontext(&pair.partner, &pair.measuring);
  }
}

// A trial of `switches` user-level switches: round trips, each two switches.
template <class RoundTrip>
double time_switches(std::int64_t switches, RoundTrip&& round_trip, Counter& counter) {
  return time_per_operation_ns(steady_ns, switches / 2, 2, round_trip, counter);
}

Measurement measure_ucontext(const Plan& plan, Counter& counter) {
  std::vector<char> stack(64 * 1024);
  UcontextPair pair;
  pair.counter = &counter;
  if (::getcontext(&pair.partner) != 0) fail_errno(errno, "getcontext");
  pair.partner.uc_stack.ss_sp = stack.data();
  pair.partner.uc_stack.ss_size = stack.size();
  pair.partner.uc_link = nullptr;  // the partner never returns
  ::makecontext(&pair.partner, ucontext_partner, 0);
  g_pair = &pair;
  Measurement m = measure_undisturbed(plan.user_switches, plan.repetitions, [&](std::int64_t switches) {
    return time_switches(
        switches, [&pair] { ::swapcontext(&pair.measuring, &pair.partner); }, counter);
  });
  g_pair = nullptr;
  return m;  // the partner stays suspended on its stack, which goes with it: nothing resumes it again
}

Measurement measure_fcontext(const Plan& plan, Counter& counter) {
  namespace context = boost::context;
  // Destroying a suspended fiber unwinds its stack (Boost.Context's forced_unwind through `resume`).
  context::fiber partner{[&counter](context::fiber&& measuring) {
    for (;;) {
      bump(counter);
      measuring = std::move(measuring).resume();
    }
    return std::move(measuring);
  }};
  return measure_undisturbed(plan.user_switches, plan.repetitions, [&](std::int64_t switches) {
    return time_switches(
        switches, [&partner] { partner = std::move(partner).resume(); }, counter);
  });
}

// --- a kernel switch ---------------------------------------------------------------------------------------

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "a futex word is a plain 32-bit integer");

long futex(std::atomic<std::uint32_t>& word, int operation, std::uint32_t value) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), operation, value, nullptr, nullptr, 0);
}

// Two threads hand a turn to each other through a futex: the one that gives the turn wakes the other and
// sleeps until the turn comes back. On one CPU each hand-over is one kernel context switch (counted by the
// kernel too: Calibration::kernel_switches_per_handover); with the partner on another CPU, each hand-over
// wakes a thread whose CPU is idle (its own partner sleeps).
class HandOver {
 public:
  HandOver(int partner_cpu, Counter& counter) : counter_(counter) {
    partner_ = std::thread([this] { partner_loop(); });
    try {
      pin(partner_.native_handle(), partner_cpu);
    } catch (...) {
      stop();
      throw;
    }
  }
  ~HandOver() { stop(); }
  HandOver(const HandOver&) = delete;
  HandOver& operator=(const HandOver&) = delete;

  // A round trip: the turn to the partner and back, two switches. The partner's increment precedes its
  // switch back, as the method wants; the turn's release and acquire order both threads' increments.
  void round_trip() {
    turn_.store(kPartner, std::memory_order_release);
    futex(turn_, FUTEX_WAKE_PRIVATE, 1);
    while (turn_.load(std::memory_order_acquire) == kPartner) futex(turn_, FUTEX_WAIT_PRIVATE, kPartner);
  }

  // The partner's context switches so far; only once stopped.
  long partner_switches() const { return partner_switches_; }

  void stop() {
    if (!partner_.joinable()) return;
    stopping_.store(true, std::memory_order_relaxed);
    turn_.store(kPartner, std::memory_order_release);
    futex(turn_, FUTEX_WAKE_PRIVATE, 1);
    partner_.join();
  }

 private:
  static constexpr std::uint32_t kMeasuring = 0, kPartner = 1;

  void partner_loop() {
    const long before = context_switches_of_this_thread();
    for (;;) {
      while (turn_.load(std::memory_order_acquire) == kMeasuring)
        futex(turn_, FUTEX_WAIT_PRIVATE, kMeasuring);
      if (stopping_.load(std::memory_order_relaxed)) break;
      bump(counter_);
      turn_.store(kMeasuring, std::memory_order_release);
      futex(turn_, FUTEX_WAKE_PRIVATE, 1);
    }
    partner_switches_ = context_switches_of_this_thread() - before;
  }

  Counter& counter_;
  std::atomic<std::uint32_t> turn_{kMeasuring};
  std::atomic<bool> stopping_{false};
  long partner_switches_ = 0;
  std::thread partner_;
};

// Hand-overs with the partner pinned to `partner_cpu`: the measuring thread's own CPU times a kernel switch;
// another CPU, the wake-up of a thread on an idle CPU (docs/calibration.md, section 2). When asked, the
// context switches the kernel counted per hand-over.
Measurement measure_handovers(const std::vector<std::int64_t>& rows, int repetitions, int partner_cpu,
                              Counter& counter, double* switches_per_handover = nullptr) {
  HandOver hand_over(partner_cpu, counter);
  std::int64_t handovers = 0;
  const long before = context_switches_of_this_thread();
  Measurement m;
  m.rows = measure_rows(rows, repetitions, [&](std::int64_t switches) {
    handovers += switches / 2 * 2;
    return time_switches(
        switches, [&hand_over] { hand_over.round_trip(); }, counter);
  });
  const long measuring_switches = context_switches_of_this_thread() - before;
  hand_over.stop();
  if (switches_per_handover)
    *switches_per_handover = static_cast<double>(measuring_switches + hand_over.partner_switches()) /
                             static_cast<double>(handovers);
  return m;
}

// --- dispatch of a chunk -----------------------------------------------------------------------------------

// The shared counter of a dynamic loop, on a cache line of its own: taking a chunk is one fetch_add,
// sequentially consistent as libgomp's dynamic schedule takes its next chunk (__sync_fetch_and_add in
// libgomp/iter.c, gomp_iter_dynamic_next).
struct alignas(64) ChunkCounter {
  std::atomic<std::int64_t> next{0};
};

Measurement measure_dispatch(const Plan& plan, ChunkCounter& chunks, Counter& counter) {
  return measure_undisturbed(plan.dispatches, plan.repetitions, [&](std::int64_t dispatches) {
    return time_per_operation_ns(
        steady_ns, dispatches, 1, [&chunks] { chunks.next.fetch_add(1); }, counter);
  });
}

// The same, while a thread on `other_cpu` takes chunks from the same counter as fast as it can.
Measurement measure_contended_dispatch(const Plan& plan, int other_cpu, Counter& counter) {
  ChunkCounter chunks;
  std::atomic<bool> started{false}, stopping{false};
  std::thread contender([&] {
    started.store(true, std::memory_order_release);
    while (!stopping.load(std::memory_order_relaxed)) chunks.next.fetch_add(1);
  });
  Measurement m;
  try {
    pin(contender.native_handle(), other_cpu);
    while (!started.load(std::memory_order_acquire)) std::this_thread::yield();
    m = measure_dispatch(plan, chunks, counter);
  } catch (...) {
    stopping.store(true, std::memory_order_relaxed);
    contender.join();
    throw;
  }
  stopping.store(true, std::memory_order_relaxed);
  contender.join();
  return m;
}

}  // namespace

Calibration calibrate(const Plan& plan, const std::function<void(const std::string&)>& progress) {
  if (plan.repetitions < 2) throw std::invalid_argument("calibrate: expected at least 2 repetitions");
  const auto tell = [&progress](const std::string& what) {
    if (progress) progress(what);
  };
  Calibration c;
  c.repetitions = plan.repetitions;
  const std::vector<int> cpus = allowed_cpu_list();
  c.allowed_cpus = static_cast<int>(cpus.size());
  c.cpu = cpus[0];
  c.contending_cpu = cpus.size() > 1 ? cpus[1] : -1;

  // Everything runs in one thread pinned to c.cpu: no migration between a trial's clock readings, and the
  // caller's own affinity stays as it was.
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      pin(::pthread_self(), c.cpu);
      Counter counter = 0;
      tell("the clock rate");
      c.clock = measure_clock(plan.clock_seconds);
      tell("ucontext switches");
      c.ucontext = measure_ucontext(plan, counter);
      tell("fcontext switches");
      c.fcontext = measure_fcontext(plan, counter);
      tell(fmt::format("kernel switches on CPU {}", c.cpu));
      c.kernel = measure_handovers(plan.kernel_switches, plan.repetitions, c.cpu, counter,
                                   &c.kernel_switches_per_handover);
      if (c.contending_cpu < 0) {
        c.idle_wakeup.unmeasured = fmt::format(
            "only CPU {} is allowed to this process, so no thread can be woken on another", c.cpu);
      } else {
        tell(fmt::format("wake-ups on an idle CPU, CPU {} to CPU {}", c.cpu, c.contending_cpu));
        c.idle_wakeup = measure_handovers(plan.idle_wakeups, plan.repetitions, c.contending_cpu, counter);
      }
      tell("uncontended dispatches");
      ChunkCounter alone;
      c.dispatch_uncontended = measure_dispatch(plan, alone, counter);
      if (c.contending_cpu < 0) {
        c.dispatch_contended.unmeasured = fmt::format(
            "only CPU {} is allowed to this process, so no other CPU can contend for the counter", c.cpu);
      } else {
        tell(fmt::format("contended dispatches, CPU {} contending", c.contending_cpu));
        c.dispatch_contended = measure_contended_dispatch(plan, c.contending_cpu, counter);
      }
    } catch (...) {
      failure = std::current_exception();
    }
  });
  worker.join();
  if (failure) std::rethrow_exception(failure);
  return c;
}

}  // namespace cosched::calibrate
