// Partitioned allocation (Kontothanassis & Wisniewski section 4) and the scheduler-information barrier on the
// SMP machine, followed cycle by cycle.

#include "sched/smp/partitioned.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "smp/machine.hpp"
#include "wait/smp/scheduler_info.hpp"

namespace cosched::smp {
namespace {

std::vector<Cycles> completions(const Machine& m) {
  std::vector<Cycles> out;
  for (const auto& e : m.trace())
    if (e.kind == TraceKind::Complete) out.push_back(e.time);
  return out;
}

// N = 4 threads on a partition fixed at P = 2 (distribution "2:1"), mu = 100, cs_in = cs_out = 5 (c = 10), a
// quantum and a period longer than the run. The first N - P = 2 arrivals block, the last P - 1 spins:
//   CPUs 0, 1 run threads 0, 1 from 5; both arrive at 106 with 3 and 2 still to arrive (not < 2): block.
//   Threads 2, 3 switch in 111..116 and arrive at 217: thread 2 spins (1 < 2), thread 3 completes b1 at 217;
//   thread 2, on CPU 0 before the completer's CPU 1, succeeds at 218.
//   Threads 3 and 2 arrive at 318 and 319 and block; threads 0, 1 switch in at 323 and 324 and arrive at 429
//   (spins) and 430 (completes b2). Threads 1 and 0 go on, arrive together at 531 and block; 3 and 2 switch
//   in 536..541, thread 2 completes b3 at 642.
// Each phase costs two rounds of work (2 x 101) plus one context switch c = 10 = ceil((N - P) / P) x c, plus
// at most one cycle of overhead.
TEST(SmpPartition, SchedulerInfoPaysCeilNMinusPOverPContextSwitchesPerBarrier) {
  MachineConfig config;
  config.cpus = 2;
  config.cs_in = 5;
  config.cs_out = 5;
  config.quantum = 1'000'000;
  config.jobs = {JobInstance{"S",
                             0,
                             4,
                             3,
                             100,
                             0.0,
                             std::make_shared<wait::SchedulerInfo>(wait::SchedulerInfoCount::Remaining),
                             {}}};
  auto partition = workload::Distribution::parse("2:1");
  Machine m(config, std::make_unique<sched::Partitioned>(1'000'000, 1'000'000'000, *partition, 2, 1, 1));
  m.record_trace(true);
  while (m.run_until(m.now() + 100000)) {
  }
  EXPECT_EQ(completions(m), (std::vector<Cycles>{217, 430, 642}));
  EXPECT_EQ(m.outcomes()[0].blocks, 6) << "two blocks per barrier";
  EXPECT_EQ(m.outcomes()[0].successful_spins, 3) << "one successful spin per barrier";
}

// The work delay of the same run on its partition (K&W's barrier overhead per phase, docs/models/smp.md
// section 18): each of the 3 phases runs the 4 threads in ceil(4 / 2) = 2 rounds of mu = 100. With a
// partition of 4 (N <= P) a phase is one round: 3 x 100.
TEST(SmpPartition, PartitionWorkIsCeilNOverPRoundsOfMuPerPhase) {
  for (const auto& [cpus, sizes, work] :
       {std::tuple{2, "2:1", 600.0}, std::tuple{4, "4:1", 300.0}, std::tuple{3, "3:1", 600.0}}) {
    MachineConfig config;
    config.cpus = cpus;
    config.cs_in = 5;
    config.cs_out = 5;
    config.quantum = 1'000'000;
    config.jobs = {JobInstance{"S",
                               0,
                               4,
                               3,
                               100,
                               0.0,
                               std::make_shared<wait::SchedulerInfo>(wait::SchedulerInfoCount::Remaining),
                               {}}};
    Machine m(config, std::make_unique<sched::Partitioned>(
                          1'000'000, 1'000'000'000, *workload::Distribution::parse(sizes), cpus, 1, 1));
    while (m.run_until(m.now() + 100000)) {
    }
    EXPECT_EQ(m.outcomes()[0].barriers_completed, 3);
    EXPECT_DOUBLE_EQ(m.outcomes()[0].partition_work, work) << "partition " << sizes;
  }
}

// Partitions "1:1,3:1" on 3 CPUs redrawn every 50 cycles: a CPU outside the job's current partition never
// runs its threads, and when the partition shrinks the threads of the vacated CPUs go back to the queue.
TEST(SmpPartition, ThreadsRunOnlyInsideTheCurrentPartition) {
  MachineConfig config;
  config.cpus = 3;
  config.cs_in = 1;
  config.cs_out = 1;
  config.quantum = 1000;
  config.jobs = {JobInstance{"S", 0, 3, 40, 20, 0.0, std::make_shared<wait::FixedSpin>(5), {}}};
  auto partition = workload::Distribution::parse("1:1,3:1");
  auto scheduler = std::make_unique<sched::Partitioned>(1000, 50, *partition, 3, 1, 7);
  auto* policy = scheduler.get();
  Machine m(config, std::move(scheduler));
  int checked = 0;
  int shrinks = 0;
  int last = policy->partition(0);
  for (Cycles t = 0; !m.done() && t < 1'000'000; ++t) {
    m.run_until(t);
    const int size = policy->partition(0);
    if (size < last) ++shrinks;
    last = size;
    for (CpuId c = size; c < 3; ++c) {
      // Outside the partition a CPU may only be leaving (switching out) or idle.
      EXPECT_TRUE(m.cpu(c).phase == CpuPhase::Idle || m.cpu(c).phase == CpuPhase::SwitchOut ||
                  m.cpu(c).need_resched)
          << "CPU " << c << " outside a partition of " << size << " at " << m.now();
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(shrinks, 0) << "the partition shrank at least once";
  EXPECT_EQ(m.outcomes()[0].barriers_completed, 40);
}

}  // namespace
}  // namespace cosched::smp
