// cosched's log categories, all defined here so that the tree reads in one place and every library
// (cosched_core included, which has no other SimGrid call) can log through XBT. A user turns one area on
// with SimGrid's usual option, e.g. `--log=cosched_now_wait.thresh:debug` (README, "Why did it do that?").
//
//   cosched                   root
//   ├─ cosched_now            the NOW model's engines (workstation actors)
//   │  ├─ cosched_now_node    a workstation's scheduling decisions: dispatch, preemption, quantum ends
//   │  ├─ cosched_now_wait    a process's waiting decisions: spin, window, block, wake-up
//   │  └─ cosched_now_jobs    an open workload's coordinator: submits, starts (and which waiting jobs a
//   │                         start passes: EASY's backfilling), finishes as the coordinator learns them
//   ├─ cosched_barrier        barrier protocols: arrivals, completions, notices, keep-alive rounds
//   ├─ cosched_smp            the SMP model's machine actor
//   │  ├─ cosched_smp_machine the machine's scheduling and waiting decisions
//   │  ├─ cosched_linux24     the Linux 2.4 scheduler's goodness and wakeup decisions
//   │  └─ cosched_userlevel   the user-level runtimes' answers: chunks, tasks taken, spawned, returned,
//   │                         yielded, stolen, waiting for work, done
//   └─ cosched_numa           the NUMA model: finished processes, the machine's end
//      ├─ cosched_numa_sched  slices: the priority order, each process's clusters or its wait, placements
//      └─ cosched_numa_memory page faults (disk loads, requests), loads and evictions, page transfers,
//                             refusals, update rounds, copies dropped (A11)
#include "util/log.hpp"

#include <cstdarg>
#include <cstdio>
#include <utility>

XBT_LOG_NEW_CATEGORY(cosched, "cosched: coscheduling simulator");
XBT_LOG_NEW_SUBCATEGORY(cosched_now, cosched, "The NOW model's engines");
XBT_LOG_NEW_SUBCATEGORY(cosched_now_node, cosched_now, "NOW workstation: scheduling decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_now_wait, cosched_now, "NOW process: waiting decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_now_jobs, cosched_now, "NOW open workloads: the job scheduler's decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_barrier, cosched, "Barrier protocols");
XBT_LOG_NEW_SUBCATEGORY(cosched_smp, cosched, "The SMP model's machine actor");
XBT_LOG_NEW_SUBCATEGORY(cosched_smp_machine, cosched_smp, "SMP machine: scheduling and waiting decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_linux24, cosched_smp, "Linux 2.4 scheduler: goodness and wakeup decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_userlevel, cosched_smp,
                        "SMP jobs' user-level runtimes: each answer to a thread");
XBT_LOG_NEW_SUBCATEGORY(cosched_numa, cosched, "The NUMA model: finished processes, the machine's end");
XBT_LOG_NEW_SUBCATEGORY(cosched_numa_sched, cosched_numa,
                        "NUMA machine: slices, priority order, allocations, thread placements");
XBT_LOG_NEW_SUBCATEGORY(cosched_numa_memory, cosched_numa,
                        "NUMA machine: page faults, loads, evictions, transfers, update rounds");

namespace cosched::util {
namespace {

// thread_local: each thread that drives a machine names its own callers.
thread_local std::string userlevel_subject;

}  // namespace

void set_userlevel_log_subject(std::string subject) {
  userlevel_subject = std::move(subject);
}

void log_userlevel(long long now, int thread, const char* what, ...) {
  char text[256];
  std::va_list args;
  va_start(args, what);
  std::vsnprintf(text, sizeof text, what, args);
  va_end(args);
  const std::string subject =
      userlevel_subject.empty() ? "thread " + std::to_string(thread) : userlevel_subject;
  XBT_CDEBUG(cosched_userlevel, "cycle %lld %s: %s", now, subject.c_str(), text);
}

}  // namespace cosched::util
