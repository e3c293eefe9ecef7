// cosched's log categories, all defined here so that the tree reads in one place and every library
// (cosched_core included, which has no other SimGrid call) can log through XBT. A user turns one area on
// with SimGrid's usual option, e.g. `--log=cosched_now_wait.thresh:debug` (README, "Why did it do that?").
//
//   cosched                   root
//   ├─ cosched_now            the NOW model's engines (workstation actors)
//   │  ├─ cosched_now_node    a workstation's scheduling decisions: dispatch, preemption, quantum ends
//   │  └─ cosched_now_wait    a process's waiting decisions: spin, window, block, wake-up
//   ├─ cosched_barrier        barrier protocols: arrivals, completions, notices, keep-alive rounds
//   ├─ cosched_smp            the SMP model's machine actor
//   │  ├─ cosched_smp_machine the machine's scheduling and waiting decisions
//   │  └─ cosched_linux24     the Linux 2.4 scheduler's goodness and wakeup decisions
//   └─ cosched_numa           the NUMA model: slices, placements, finished processes
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(cosched, "cosched: coscheduling simulator");
XBT_LOG_NEW_SUBCATEGORY(cosched_now, cosched, "The NOW model's engines");
XBT_LOG_NEW_SUBCATEGORY(cosched_now_node, cosched_now, "NOW workstation: scheduling decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_now_wait, cosched_now, "NOW process: waiting decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_barrier, cosched, "Barrier protocols");
XBT_LOG_NEW_SUBCATEGORY(cosched_smp, cosched, "The SMP model's machine actor");
XBT_LOG_NEW_SUBCATEGORY(cosched_smp_machine, cosched_smp, "SMP machine: scheduling and waiting decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_linux24, cosched_smp, "Linux 2.4 scheduler: goodness and wakeup decisions");
XBT_LOG_NEW_SUBCATEGORY(cosched_numa, cosched, "The NUMA model: slices, placements, finished processes");
