// The SMP machine under Linux SCHED_OTHER, on configurations small enough to follow cycle by cycle
// (Tsafrir thesis chapters 6-7). Each expected cycle is worked out in the comments.

#include <gtest/gtest.h>

#include <algorithm>

#include "sched/smp/linux24.hpp"
#include "smp/machine.hpp"
#include "smp_test_support.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::smp {
namespace {

using sched::Linux24;
using sched::Linux24Params;
using sched::WakeupScheme;

JobInstance job(const std::string& name, int threads, int barriers, double mu, wait::Cycles spin) {
  return JobInstance{name, 0, threads, barriers, mu, 0.0, std::make_shared<wait::FixedSpin>(spin), {}};
}

Machine linux_machine(MachineConfig config, Cycles quantum, WakeupScheme wakeup) {
  return Machine(std::move(config), std::make_unique<Linux24>(Linux24Params::linux22(quantum), wakeup));
}

bool has(const Machine& m, Cycles time, TraceKind kind, CpuId cpu, ThreadId thread) {
  return std::any_of(m.trace().begin(), m.trace().end(), [&](const TraceEntry& e) {
    return e.time == time && e.kind == kind && e.cpu == cpu && e.thread == thread;
  });
}

// The walk-through of thesis 7.6 (CS+ simulation, load 80) rebuilt on two CPUs with the thesis's cycle
// numbers. Thesis names: t4 on CPU 1 and t8 on CPU 22 become thread 0 on CPU 0 and thread 1 on CPU 1; u is
// the non-synchronizing thread 4. q = 1000 with the Linux-2.2 parameters (PROC_CHANGE_PENALTY 750, bonus and
// threshold 50), cs_in = cs_out = 3, mu = 1, spin CS+ = 7, smart wakeups.
// The lead-in puts the threads where the thesis has them at 858:
//   X (thread 2, one barrier, mu 848) runs on CPU 0 from cycle 3 and finishes at 3 + 848 + 1 = 852;
//   Y (thread 3, one barrier, mu 839) runs on CPU 1 and finishes at 843.
//   At 843 CPU 1 chooses t8 (first of the ready list [t8, t4, u], all 1000 but u); t8 runs from 849, arrives
//   at 851 and spins until 858. At 852 CPU 0 chooses t4, which runs from 858.
//   u is charged 990 cycles before the run: "towards the end of an epoch, the counter of most
//   non-synchronizing threads is zero or close to it" (7.5.3).
TEST(SmpLinuxWalkThrough, TheThesis76ScenarioCycleByCycle) {
  MachineConfig config;
  config.cpus = 2;
  config.cs_in = 3;
  config.cs_out = 3;
  config.quantum = 1000;
  config.nosync = 1;
  config.jobs = {job("J", 2, 2, 1, 7), job("X", 1, 1, 848, 0), job("Y", 1, 1, 839, 0)};
  config.initial_order = {2, 3, 1, 0, 4};
  auto m = linux_machine(config, 1000, WakeupScheme::Smart);
  dynamic_cast<Linux24&>(m.scheduler()).charge(4, 990);
  m.record_trace(true);
  while (m.run_until(m.now() + 100000)) {
  }
  const ThreadId t4 = 0, t8 = 1, u = 4;
  EXPECT_TRUE(has(m, 851, TraceKind::Spin, 1, t8)) << "t8 reaches b20 and spins (CS+ = 7)";
  // 858: t8 fails; schedule() decides u at once (goodness 10 is the best: t4 already runs).
  EXPECT_TRUE(has(m, 858, TraceKind::SpinFail, 1, t8)) << "858: t8 fails on b20";
  EXPECT_TRUE(has(m, 858, TraceKind::Wait4cs, 1, u))
      << "858: u is chosen for CPU 22 and waits for the switch";
  // 860: t4 is the last to reach b20.
  EXPECT_TRUE(has(m, 860, TraceKind::Complete, 0, t4)) << "860: t4 completes b20";
  // 861: t8's cs_out ends; b20 is complete, so it is runnable, but schedule() goes on with u.
  EXPECT_TRUE(has(m, 861, TraceKind::Ready, 1, t8)) << "861: t8 did not block after all";
  EXPECT_TRUE(has(m, 861, TraceKind::SwitchIn, 1, u)) << "861: u's cs_in starts";
  EXPECT_TRUE(has(m, 862, TraceKind::Spin, 0, t4)) << "862: t4 reaches b21 and spins until 869";
  EXPECT_TRUE(has(m, 864, TraceKind::Run, 1, u)) << "864: u's cs_in has expired";
  // 865: reschedule_idle(t8) (algorithm 4, line 27), one event after 864 on the same CPU. On CPU 22:
  // goodness(t8) = 991 + 750 = 1741 against goodness(u) = 9 + 750 + 50 = 809: t8 preempts u.
  EXPECT_TRUE(has(m, 865, TraceKind::RescheduleIdle, 1, t8)) << "865: reschedule_idle(t8) chooses CPU 22";
  EXPECT_TRUE(has(m, 865, TraceKind::NeedResched, 1, u)) << "865: u.need_resched is set";
  EXPECT_TRUE(has(m, 865, TraceKind::SwitchOut, 1, u)) << "865: u's cs_out starts";
  EXPECT_TRUE(has(m, 865, TraceKind::Wait4cs, 1, t8)) << "865: schedule() chooses t8";
  EXPECT_TRUE(has(m, 868, TraceKind::SwitchIn, 1, t8)) << "868: u's cs_out expired, t8's cs_in starts";
  EXPECT_TRUE(has(m, 869, TraceKind::SpinFail, 0, t4)) << "869: t4 gives up spinning on b21";
  EXPECT_TRUE(has(m, 871, TraceKind::Run, 1, t8)) << "871: t8's cs_in expired, it computes";
  EXPECT_TRUE(has(m, 873, TraceKind::Arrive, 1, t8)) << "873: t8 reaches b21, too late for t4";
  EXPECT_TRUE(has(m, 872, TraceKind::Block, 0, t4)) << "t4 blocked at the end of its cs_out (869 + 3)";
  // 873: t8 completes b21 and finishes (its last barrier); schedule() on CPU 1 chooses the woken t4
  // (989 + 50 for the same address space) over nothing else ready; t4 switches in 876-879 and finishes.
  EXPECT_TRUE(has(m, 873, TraceKind::Wait4cs, 1, t4));
  EXPECT_EQ(m.outcomes()[0].completion_time, 879) << "t4 finishes at the end of its cs_in, 873 + 3 + 3";
  EXPECT_EQ(m.outcomes()[0].total_spins, 2);
  EXPECT_EQ(m.outcomes()[0].successful_spins, 0) << "both spins failed, as in the thesis";
  EXPECT_EQ(m.outcomes()[0].last_failed_spin, 869) << "the last failed spin: t4 at 869";
}

// Thesis 6.6.1 through the whole machine. Five CPUs; job J of three threads (ids 0-2, mu 1, always block,
// two barriers), one-barrier jobs Y and Z (ids 3, 4, mu 1) and non-synchronizing threads N1 (5), N0 (6).
// Start: CPU 0 J0, CPU 1 J1, CPU 2 N1, CPU 3 Y, CPU 4 Z; ready [J2, N0].
// Cycle 5: J0 and J1 arrive and block; CPU 0 chooses J2 (same address space), CPU 1 N0; Y and Z finish and
// CPUs 3 and 4 find nothing: idle from 8. J2 runs on CPU 0 from 11 and completes b0 at 13, waking J0 and J1,
// whose previous CPUs 0 and 1 are busy.
MachineConfig lost_cpu_config() {
  MachineConfig config;
  config.cpus = 5;
  config.cs_in = 3;
  config.cs_out = 3;
  config.quantum = 100;
  config.nosync = 2;
  config.jobs = {job("J", 3, 2, 1, 0), job("Y", 1, 1, 1, 0), job("Z", 1, 1, 1, 0)};
  config.initial_order = {0, 1, 5, 3, 4, 2, 6};
  return config;
}

TEST(SmpLinuxWakeup, SillyLosesAnIdleCpuAtAWakeUp) {
  auto m = linux_machine(lost_cpu_config(), 100, WakeupScheme::Silly);
  m.record_trace(true);
  m.run_until(13);
  ASSERT_TRUE(has(m, 13, TraceKind::Complete, 0, 2)) << "J2 completes b0 at 13";
  // Both woken threads go to CPU 3, the least recently active idle CPU (idle since 8, lower id than CPU 4).
  EXPECT_EQ(m.cpu(3).phase, CpuPhase::SwitchIn);
  EXPECT_EQ(m.cpu(3).current, 0) << "CPU 3 runs schedule() and takes J0, first in the ready list";
  EXPECT_EQ(m.cpu(4).phase, CpuPhase::Idle) << "CPU 4 is lost: its need_resched was never set";
  EXPECT_EQ(m.thread_state(1), ThreadState::Ready) << "J1 waits although CPU 4 is idle";
}

TEST(SmpLinuxWakeup, SmartAndAipUseBothIdleCpus) {
  for (auto [scheme, name] : {std::pair{WakeupScheme::Smart, "smart"}, std::pair{WakeupScheme::Aip, "aip"}}) {
    auto m = linux_machine(lost_cpu_config(), 100, scheme);
    m.run_until(13);
    EXPECT_EQ(m.cpu(3).current, 0) << name << ": J0 on CPU 3";
    EXPECT_EQ(m.cpu(4).current, 1) << name << ": J1 on CPU 4";
    EXPECT_EQ(m.thread_state(1), ThreadState::Running);
  }
}

TEST(SmpLinuxStartUp, EveryCpuSchedulesAtCycleZeroInTheStartUpOrder) {
  // All counters are equal at start-up and no CPU runs anything yet: CPU i takes the i-th thread, as under
  // round robin.
  auto m = linux_machine(lost_cpu_config(), 100, WakeupScheme::Smart);
  m.run_until(0);
  EXPECT_EQ(m.cpu(0).current, 0);
  EXPECT_EQ(m.cpu(1).current, 1);
  EXPECT_EQ(m.cpu(2).current, 5);
  EXPECT_EQ(m.cpu(3).current, 3);
  EXPECT_EQ(m.cpu(4).current, 4);
}

// One CPU, two non-synchronizing threads, q = 10 (linux22: penalty 8, bonus 1), cs 1 + 1: thread 0 runs
// 1..11; at 11 its counter is 0 and thread 1 (10) wins: cs_out 11..12, cs_in 12..13, thread 1 runs 13..23. At
// 23 both counters are 0: a new epoch gives both 0 / 2 + 10 = 10, and prev (thread 1: 10 + 8 + 1 = 19) beats
// thread 0 (10 + 8, it last ran on this CPU too): thread 1 keeps the CPU without a switch and runs on to 33.
TEST(SmpLinuxEpoch, AnExhaustedPrevKeepsItsCpuAfterTheEpochWithoutASwitch) {
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 1;
  config.cs_out = 1;
  config.quantum = 10;
  config.nosync = 2;
  auto m = linux_machine(config, 10, WakeupScheme::Smart);
  m.record_trace(true);
  m.run_until(33);
  const auto& l = dynamic_cast<const Linux24&>(m.scheduler());
  EXPECT_TRUE(has(m, 11, TraceKind::SwitchOut, 0, 0)) << "thread 0 exhausted its counter at 11";
  EXPECT_TRUE(has(m, 13, TraceKind::Run, 0, 1));
  EXPECT_EQ(l.epochs(), 1) << "one epoch, at 23";
  EXPECT_FALSE(has(m, 23, TraceKind::SwitchOut, 0, 1)) << "after the epoch prev keeps its CPU";
  EXPECT_TRUE(has(m, 33, TraceKind::SwitchOut, 0, 1)) << "its new counter of 10 runs out at 33";
  EXPECT_TRUE(has(m, 33, TraceKind::Wait4cs, 0, 0)) << "thread 0 (10 + 8) wins against the exhausted prev";
}

}  // namespace
}  // namespace cosched::smp

namespace cosched::smp {
namespace {

// Same scenario and seed give identical results, for every policy and waiting algorithm added by issue 9.
TEST(SmpDeterminism, LinuxAndPartitionedRunsRepeatExactly) {
  const std::vector<std::vector<std::string>> variants = {
      {"workload.nosync=40", "workload.jobs.0.barriers=300", "scheduler.wakeup=silly"},
      {"workload.nosync=40", "workload.jobs.0.barriers=300", "scheduler.wakeup=aip",
       "scheduler.aip_search=all"},
      {"workload.nosync=40", "workload.jobs.0.barriers=300", "workload.jobs.0.wait={algorithm: load-based}"},
      {"workload.nosync=40", "workload.jobs.0.barriers=300",
       "workload.jobs.0.wait={algorithm: yield-on-wake, condition: runnable-exceeds-cpus}"},
      {"workload.nosync=0", "workload.jobs.0.barriers=300",
       "scheduler={policy: partitioned, quantum: 100, cs_in: 3, "
       "cs_out: 3, period: 500, partition: \"7:5,2-6:95\"}",
       "workload.jobs.0.wait={algorithm: scheduler-info}"},
  };
  for (const auto& overrides : variants) {
    auto a = testing::run_scenario("scenarios/tsafrir/ch7-linux-nonsync.yaml", overrides);
    auto b = testing::run_scenario("scenarios/tsafrir/ch7-linux-nonsync.yaml", overrides);
    EXPECT_EQ(a->now(), b->now()) << overrides.back();
    EXPECT_EQ(a->events(), b->events()) << overrides.back();
    EXPECT_EQ(a->outcomes()[0].successful_spins, b->outcomes()[0].successful_spins) << overrides.back();
    EXPECT_EQ(a->outcomes()[0].barriers_completed, 300) << overrides.back();
  }
}

}  // namespace
}  // namespace cosched::smp
