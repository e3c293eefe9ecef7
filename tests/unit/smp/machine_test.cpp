// The SMP machine's rules on configurations small enough to follow cycle by cycle.
// Each expected value is worked out in the comment above it (docs/models/smp.md states the rules).

#include "smp/machine.hpp"

#include <gtest/gtest.h>

#include "sched/smp/round_robin.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::smp {
namespace {

JobInstance job(const std::string& name, int threads, int barriers, double mu, wait::Cycles spin) {
  return JobInstance{name, 0, threads, barriers, mu, 0.0, std::make_shared<wait::FixedSpin>(spin), {}};
}

Machine machine(MachineConfig config, Cycles quantum) {
  return Machine(std::move(config), std::make_unique<sched::RoundRobin>(quantum));
}

void run_to_end(Machine& m) {
  while (m.run_until(m.now() + 100000)) {
  }
}

// Thread ids: job J's threads 0 and 1, then job X's single thread 2. X is a one-thread job with one
// barrier of mu = 10: it occupies its CPU from cycle 1 to its finish at 1 + 10 + 1 = 12, releases it
// (cs_out to 13), and J's thread 1 then runs on that CPU: cs_in to 14, arrival at 14 + 2 = 16, where it
// completes J's barrier. J's thread 0 runs on the other CPU from cycle 1, arrives at 3 and spins from 3:
// with a budget of 13 its last poll is at cycle 16, the very cycle of completion.
MachineConfig tie_config(std::vector<int> order, wait::Cycles spin) {
  MachineConfig config;
  config.cpus = 2;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs = {job("J", 2, 1, 1, spin), job("X", 1, 1, 10, 0)};
  config.initial_order = std::move(order);
  return config;
}

// The first job's completion time with that wake-up cost, under round robin with a quantum of 1000.
Cycles first_completion(MachineConfig config, Cycles idle_wakeup) {
  config.idle_wakeup = idle_wakeup;
  auto m = machine(std::move(config), 1000);
  run_to_end(m);
  return *m.outcomes()[0].completion_time;
}

TEST(SmpMachineIdleWakeup, OnlyASwitchInOnAnIdleCpuPaysIt) {
  // One CPU, one job of 2 threads, 3 barriers of mu 10, always block. The CPU is idle only at the start:
  // afterwards a thread that blocks hands the CPU straight to its peer (cs_out, then cs_in). So the run
  // is exactly idle_wakeup longer, whatever else happens.
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 2;
  config.cs_out = 3;
  config.jobs = {job("J", 2, 3, 10, 0)};
  EXPECT_EQ(first_completion(config, 50) - first_completion(config, 0), 50);
}

TEST(SmpMachineIdleWakeup, AThreadWokenOnAnIdleCpuStartsThatMuchLater) {
  // Two CPUs, cs_in = cs_out = 1, W = idle_wakeup. Job J: 2 threads (0, 1), 1 barrier, mu 10, always block;
  // job X: thread 2, 1 barrier, mu 5. Start-up order 0, 2, 1: both CPUs are idle at 0 and pay W.
  // CPU 1: X runs from W + 1, arrives and finishes at W + 7, switches out to W + 8 and takes thread 1 from
  // the queue (not idle: no W): cs_in to W + 9, arrival at W + 20, which completes J's barrier.
  // CPU 0: thread 0 runs from W + 1, arrives at W + 12 and blocks: cs_out to W + 13, nothing queued, idle.
  // The completion at W + 20 wakes thread 0 on idle CPU 0: its switch in ends at W + 20 + W + 1, where it
  // passes the barrier and finishes: J completes at 2W + 21.
  MachineConfig config;
  config.cpus = 2;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs = {job("J", 2, 1, 10, 0), job("X", 1, 1, 5, 0)};
  config.initial_order = {0, 2, 1};
  EXPECT_EQ(first_completion(config, 0), 21);
  EXPECT_EQ(first_completion(config, 100), 221);
}

TEST(SmpMachineTieOrder, SameCyclePollFailsWhenTheSpinnersCpuComesFirst) {
  // Spinner on CPU 0, completer on CPU 1: the spinner's last poll at 16 is processed before the
  // completion, fails, and the thread yields; the barrier completes during its cs_out (thesis 4.3.4).
  auto m = machine(tie_config({0, 2, 1}, 13), 1000);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].total_spins, 1) << "one spin entered";
  EXPECT_EQ(m.outcomes()[0].successful_spins, 0) << "the poll at the completion cycle came first and failed";
  // Thread 0: cs_out 16..17, ready (the barrier is complete), cs_in on CPU 0 to 18, finishes at 18.
  EXPECT_EQ(m.outcomes()[0].completion_time, 18) << "the yielding thread must be dispatched again to finish";
}

TEST(SmpMachineTieOrder, SameCyclePollSucceedsWhenTheSpinnersCpuComesAfter) {
  // Spinner on CPU 1, completer on CPU 0: the poll at 16 is processed after the completion and succeeds.
  auto m = machine(tie_config({2, 0, 1}, 13), 1000);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].total_spins, 1) << "one spin entered";
  EXPECT_EQ(m.outcomes()[0].successful_spins, 1) << "the poll at the completion cycle came after it";
  EXPECT_EQ(m.outcomes()[0].completion_time, 16) << "both threads pass the barrier at cycle 16";
}

TEST(SmpMachineTieOrder, SpinOneCycleShorterFailsWhateverTheCpuOrder) {
  // Budget 12: the last poll is at cycle 15, before the completion at 16.
  auto m = machine(tie_config({2, 0, 1}, 12), 1000);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].successful_spins, 0) << "last poll at 15 precedes the completion at 16";
}

TEST(SmpMachineTieOrder, FirstFinishEndsTheRunAtTheFirstFinishingThread) {
  auto config = tie_config({0, 2, 1}, 13);
  config.end_at_first_finish = true;
  auto m = machine(config, 1000);
  run_to_end(m);
  EXPECT_TRUE(m.done());
  EXPECT_EQ(m.now(), 12) << "X's thread finishes first, at 1 + 10 + 1";
  EXPECT_FALSE(m.outcomes()[0].completion_time.has_value()) << "J has not finished";
}

TEST(SmpMachineRoundRobin, QuantumExpiryAppendsToTheTailThenDispatchesTheHead) {
  // Two CPUs, three non-synchronizing threads, q = 10, cs 1 + 1. Both quanta end at 11; at 12 CPU 0
  // appends thread 0 behind thread 2 and takes 2, then CPU 1 appends 1 and takes 0.
  MachineConfig config;
  config.cpus = 2;
  config.cs_in = 1;
  config.cs_out = 1;
  config.nosync = 3;
  auto m = machine(config, 10);
  m.run_until(11);
  EXPECT_EQ(m.thread_cpu(0), 0) << "thread 0 runs on CPU 0 in the first quantum";
  EXPECT_EQ(m.thread_cpu(1), 1) << "thread 1 runs on CPU 1 in the first quantum";
  EXPECT_EQ(m.thread_state(2), ThreadState::Ready);
  m.run_until(12);
  EXPECT_EQ(m.thread_cpu(2), 0) << "CPU 0 dispatches the head, thread 2";
  EXPECT_EQ(m.thread_cpu(0), 1) << "CPU 1 dispatches thread 0, appended by CPU 0 just before";
  EXPECT_EQ(m.thread_state(1), ThreadState::Ready) << "thread 1 waits at the tail";
}

TEST(SmpMachineBarrier, BlockedThreadsReturnInTheOrderTheyBlocked) {
  // One CPU, cs 1 + 1, a job of 3 threads that always block, mu 1, 2 barriers.
  // Barrier 1: T0 arrives at 3 and blocks (cs_out to 4), T1 runs 5..7 and blocks (to 8), T2 runs from 9,
  // completes it at 11 (T0, T1 to the tail in that order), arrives at 13 and blocks (to 14).
  // Barrier 2: T0 runs from 15, arrives at 17, blocks (to 18); T1 runs from 19 and completes it at 21,
  // finishing; T2 and T0 (blocked in that order) must be dispatched to finish: T2 at 23, T0 at 25.
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs = {job("J", 3, 2, 1, 0)};
  auto m = machine(config, 1000);
  m.run_until(14);
  EXPECT_EQ(m.thread_cpu(0), 0) << "T0 heads the queue after barrier 1 and is dispatched at 14";
  EXPECT_EQ(m.thread_state(1), ThreadState::Ready) << "T1 follows T0";
  EXPECT_EQ(m.thread_state(2), ThreadState::Blocked) << "T2 blocked at barrier 2";
  m.run_until(23);
  EXPECT_EQ(m.thread_state(2), ThreadState::Running) << "T2 blocked first at barrier 2, so it runs first";
  EXPECT_EQ(m.thread_state(0), ThreadState::Ready);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].completion_time, 25) << "T0 finishes last, after its cs_in";
  EXPECT_EQ(m.outcomes()[0].total_spins, 0) << "always-block enters no spin";
}

TEST(SmpMachineSpin, PreemptedSpinnerKeepsItsBudgetAndSucceedsOnResume) {
  // One CPU, q = 10, cs 1 + 1, a job of 2 threads, mu 1, one barrier, spin budget 100.
  // T0 runs 1..11: arrives at 3, spins until the preemption at 11. T1 runs 13..15 and completes the
  // barrier at 15. T0 is dispatched again (cs_in 16..17); its first poll at 18 succeeds (thesis 5.3.2.1).
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs = {job("J", 2, 1, 1, 100)};
  auto m = machine(config, 10);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].successful_spins, 1) << "the resumed spin succeeds";
  EXPECT_EQ(m.outcomes()[0].total_spins, 1);
  EXPECT_EQ(m.outcomes()[0].completion_time, 18) << "first poll one cycle after the cs_in";
}

TEST(SmpMachineSpin, ExhaustedSpinBlocksAndCountsAsUnsuccessful) {
  // Same, budget 5: T0 polls 4..8, yields at 8 (cs_out to 9) and blocks. T1 runs 10..12 and completes the
  // barrier at 12; T0 is dispatched (cs_in 13..14) and finishes at 14.
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs = {job("J", 2, 1, 1, 5)};
  auto m = machine(config, 10);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].successful_spins, 0);
  EXPECT_EQ(m.outcomes()[0].total_spins, 1);
  EXPECT_EQ(m.outcomes()[0].completion_time, 14);
}

TEST(SmpMachineSpin, AlwaysSpinNeverFailsUnderRoundRobin) {
  MachineConfig config;
  config.cpus = 4;
  config.cs_in = 3;
  config.cs_out = 3;
  config.nosync = 7;
  config.jobs = {job("J", 6, 30, 5, wait::kUnlimitedSpin)};
  auto m = machine(config, 100);
  run_to_end(m);
  EXPECT_GT(m.outcomes()[0].total_spins, 0);
  EXPECT_EQ(m.outcomes()[0].successful_spins, m.outcomes()[0].total_spins)
      << "an unlimited spin always succeeds";
}

TEST(SmpMachineDeterminism, SameSeedSameRunOtherSeedOtherRun) {
  auto config = [](std::uint64_t seed) {
    MachineConfig c;
    c.cpus = 8;
    c.cs_in = 3;
    c.cs_out = 3;
    c.shuffle = true;
    c.seed = seed;
    c.jobs = {JobInstance{"J", 0, 5, 40, 10, 1.5, std::make_shared<wait::FixedSpin>(6), {}},
              JobInstance{"J", 1, 5, 40, 10, 1.5, std::make_shared<wait::FixedSpin>(6), {}}};
    c.nosync = 4;
    return c;
  };
  auto a = machine(config(7), 100), b = machine(config(7), 100), c = machine(config(8), 100);
  run_to_end(a);
  run_to_end(b);
  run_to_end(c);
  EXPECT_EQ(a.now(), b.now());
  EXPECT_EQ(a.events(), b.events());
  EXPECT_EQ(a.outcomes()[1].successful_spins, b.outcomes()[1].successful_spins);
  EXPECT_NE(a.now(), c.now()) << "another seed shuffles and draws differently";
}

}  // namespace
}  // namespace cosched::smp
