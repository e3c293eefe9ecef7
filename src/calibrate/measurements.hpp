#pragma once
// What `cosched calibrate` measures on the machine it runs on (issue 23, section 1; docs/calibration.md):
// user-level context switches (ucontext's swapcontext, the seed's; Boost.Context's fcontext), a kernel
// context switch (two threads handing over through a futex on one CPU), the same hand-over between two CPUs
// (a wake-up on an idle CPU), the dispatch of one chunk from a shared atomic counter (alone, and with
// another CPU taking chunks too), and the CPU's clock rate. Each figure is timed by the seed's method
// (calibrate/method.hpp).

#include <pthread.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/method.hpp"

namespace cosched::calibrate {

// Row sizes (operations per trial) and repetitions of one calibration.
struct Plan {
  std::vector<std::int64_t> user_switches;    // ucontext and fcontext, side by side as in the seed's table
  std::vector<std::int64_t> kernel_switches;  // hand-overs between the two threads
  std::vector<std::int64_t> idle_wakeups;     // hand-overs between two CPUs
  std::vector<std::int64_t> dispatches;       // uncontended and contended, side by side
  int repetitions = 0;                        // at least 2
  double clock_seconds = 0;                   // how long the clock rate is timed
};

// The CPUs this process may run on (its affinity), ascending; throws std::system_error.
std::vector<int> allowed_cpu_list();
// Pins `thread` to `cpu`; throws std::system_error.
void pin(pthread_t thread, int cpu);

// The full run, under a minute on a 2.6 GHz server (docs/calibration.md gives the sizes' reasons).
Plan full_plan();
// --quick: a tenth of the rows and 3 repetitions, about a second; for tests, not for figures.
Plan quick_plan();

// One figure: its table, or why it was not measured.
struct Measurement {
  std::vector<Row> rows;
  std::string unmeasured;  // the reason it was not measured; empty when it was
  // Trials preempted by the kernel and run again (calibrate::undisturbed); not for the kernel switch,
  // whose measuring thread leaves its CPU at every hand-over (see kernel_switches_per_handover instead).
  std::optional<Disturbances> disturbances;

  bool measured() const { return unmeasured.empty(); }
  // The figure itself (calibrate::headline); needs measured().
  Stats figure() const { return headline(rows); }
};

struct ClockRate {
  double hz = 0;
  std::string source;  // how it was found, for the YAML
};

struct Calibration {
  bool quick = false;
  int repetitions = 0;
  ClockRate clock;
  int allowed_cpus = 0;     // CPUs this process may run on (sched_getaffinity)
  int cpu = -1;             // the CPU of the measuring thread and of both threads of the kernel switch
  int contending_cpu = -1;  // the CPU of the thread contending for the counter; -1 when there is none
  // Context switches the kernel counted (getrusage: voluntary and involuntary, both threads) per hand-over
  // of the kernel measurement: 1 when each hand-over is exactly one switch, more when other threads cut in.
  double kernel_switches_per_handover = 0;
  Measurement ucontext, fcontext, kernel;
  // The kernel hand-over with the partner on contending_cpu: each wakes a thread on an idle CPU. Unmeasured
  // when only one CPU is allowed.
  Measurement idle_wakeup;
  Measurement dispatch_uncontended, dispatch_contended;
};

// Measures everything on this machine, in a thread of its own pinned to the first CPU this process may
// use (the caller's affinity is left as it was). `progress` is told what is being measured, before each
// figure. Throws std::runtime_error (std::system_error) when the host refuses a step (a stack, a pinning).
Calibration calibrate(const Plan& plan, const std::function<void(const std::string&)>& progress = {});

}  // namespace cosched::calibrate
