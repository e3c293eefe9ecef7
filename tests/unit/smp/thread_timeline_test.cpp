// The SMP machine's state timelines (output.timeline, docs/models/smp.md "State timelines"): hand-derived
// runs cycle by cycle, and the invariants every timeline keeps on whole scenarios.

#include <gtest/gtest.h>

#include <map>

#include "sched/smp/linux24.hpp"
#include "sched/smp/round_robin.hpp"
#include "smp/machine.hpp"
#include "smp_test_support.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::smp {
namespace {

using metrics::TimelineInterval;
using S = TimelineState;

TimelineInterval on(Cycles start, Cycles end, S state, CpuId cpu) {
  return TimelineInterval{start, end, static_cast<int>(state), cpu};
}
TimelineInterval off(Cycles start, Cycles end, S state) {
  return TimelineInterval{start, end, static_cast<int>(state), -1};
}

void run_to_end(Machine& m) {
  while (m.run_until(m.now() + 100000)) {
  }
}

JobInstance job(const std::string& name, int threads, int barriers, double mu, wait::Cycles spin) {
  return JobInstance{name, 0, threads, barriers, mu, 0.0, std::make_shared<wait::FixedSpin>(spin), {}};
}

// One CPU, round robin, q = 100, cs_in 2, cs_out 3; one job of two threads, two barriers, mu = 10 (sigma 0):
// a phase is 10 cycles of computation and one of arrival; spin budget 5.
//   0: thread 0 switches in (to 2), computes 2..13, arrives at 13 and spins 13..18: its spin fails, it
//      switches out 18..21 and blocks at 21. Thread 1 switches in 21..23, computes, arrives at 34 as the
//      last and completes barrier 0: thread 0 is ready from 34. Thread 1 goes on computing, arrives at
//      barrier 1 at 45, spins 45..50, switches out 50..53 and blocks. Thread 0 switches in 53..55, arrives
//      at 66 as the last (barrier 1, its last: thread 1, woken, has finished too), finishes and switches out
//      66..69. Thread 1 switches in 69..71 and finishes at 71: the job's completion, where both lanes end.
TEST(SmpTimeline, OneCpuTwoThreadsRoundRobinCycleByCycle) {
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 2;
  config.cs_out = 3;
  config.quantum = 100;
  config.jobs = {job("J", 2, 2, 10, 5)};
  Machine m(std::move(config), std::make_unique<sched::RoundRobin>(100));
  m.record_timeline();
  run_to_end(m);
  ASSERT_EQ(m.outcomes()[0].completion_time, 71);
  const auto lanes = m.timeline();
  ASSERT_EQ(lanes.size(), 2u);
  EXPECT_EQ(lanes[0].job, "J");
  EXPECT_EQ(lanes[0].rank, 0);
  EXPECT_EQ(lanes[1].rank, 1);
  EXPECT_EQ(lanes[0].intervals, (std::vector<TimelineInterval>{
                                    on(0, 2, S::Switching, 0),
                                    on(2, 13, S::Computing, 0),
                                    on(13, 18, S::Spinning, 0),
                                    on(18, 21, S::Switching, 0),
                                    off(21, 34, S::Blocked),
                                    off(34, 53, S::Ready),
                                    on(53, 55, S::Switching, 0),
                                    on(55, 66, S::Computing, 0),
                                    on(66, 69, S::Switching, 0),
                                    off(69, 71, S::Finished),
                                }));
  EXPECT_EQ(lanes[1].intervals, (std::vector<TimelineInterval>{
                                    off(0, 21, S::Ready),
                                    on(21, 23, S::Switching, 0),
                                    on(23, 45, S::Computing, 0),
                                    on(45, 50, S::Spinning, 0),
                                    on(50, 53, S::Switching, 0),
                                    off(53, 66, S::Blocked),
                                    off(66, 69, S::Ready),
                                    on(69, 71, S::Switching, 0),
                                }));
  EXPECT_EQ(m.outcomes()[0].spin_cycles, 10) << "two spins of 5 cycles, as the spinning intervals";
}

TEST(SmpTimeline, NothingIsRecordedUnlessAsked) {
  MachineConfig config;
  config.cpus = 1;
  config.cs_in = 2;
  config.cs_out = 3;
  config.jobs = {job("J", 2, 2, 10, 5)};
  Machine m(std::move(config), std::make_unique<sched::RoundRobin>(100));
  run_to_end(m);
  EXPECT_TRUE(m.timeline().empty());
}

// The walk-through of thesis 7.6 (tests/unit/smp/machine_linux24_test.cpp derives every cycle): the lanes of
// J's threads t4 (thread 0) and t8 (thread 1) with the wait4cs state of 7.2.
//   t8: ready until CPU 1 chooses it at 843 when Y finishes; wait4cs during Y's cs_out 843..846, cs_in
//       846..849, computes 849..851, spins 851..858, cs_out 858..861, ready (b20 completed during its cs_out)
//       861..865, chosen by schedule() after reschedule_idle at 865: wait4cs during u's cs_out 865..868,
//       cs_in 868..871, computes 871..873, completes b21 and finishes: cs_out 873..876, finished to 879.
//   t4: ready until CPU 0 chooses it at 852 when X finishes; wait4cs 852..855, cs_in 855..858, computes
//       858..862 (it completes b20 at 860 and goes on), spins 862..869, cs_out 869..872, blocked 872..873,
//       woken at 873 and chosen by CPU 1 at once: wait4cs 873..876, cs_in 876..879, where it finishes.
TEST(SmpTimeline, TheThesis76WalkThroughWithWait4cs) {
  MachineConfig config;
  config.cpus = 2;
  config.cs_in = 3;
  config.cs_out = 3;
  config.quantum = 1000;
  config.nosync = 1;
  config.jobs = {job("J", 2, 2, 1, 7), job("X", 1, 1, 848, 0), job("Y", 1, 1, 839, 0)};
  config.initial_order = {2, 3, 1, 0, 4};
  Machine m(std::move(config), std::make_unique<sched::Linux24>(sched::Linux24Params::linux22(1000),
                                                                sched::WakeupScheme::Smart));
  dynamic_cast<sched::Linux24&>(m.scheduler()).charge(4, 990);
  m.record_timeline();
  run_to_end(m);
  ASSERT_EQ(m.outcomes()[0].completion_time, 879);
  const auto lanes = m.timeline();
  ASSERT_EQ(lanes.size(), 4u) << "J's two threads, X's and Y's; the non-synchronizing thread has no lane";
  EXPECT_EQ(lanes[1].intervals, (std::vector<TimelineInterval>{
                                    off(0, 843, S::Ready),
                                    on(843, 846, S::Wait4cs, 1),
                                    on(846, 849, S::Switching, 1),
                                    on(849, 851, S::Computing, 1),
                                    on(851, 858, S::Spinning, 1),
                                    on(858, 861, S::Switching, 1),
                                    off(861, 865, S::Ready),
                                    on(865, 868, S::Wait4cs, 1),
                                    on(868, 871, S::Switching, 1),
                                    on(871, 873, S::Computing, 1),
                                    on(873, 876, S::Switching, 1),
                                    off(876, 879, S::Finished),
                                }));
  EXPECT_EQ(lanes[0].intervals, (std::vector<TimelineInterval>{
                                    off(0, 852, S::Ready),
                                    on(852, 855, S::Wait4cs, 0),
                                    on(855, 858, S::Switching, 0),
                                    on(858, 862, S::Computing, 0),
                                    on(862, 869, S::Spinning, 0),
                                    on(869, 872, S::Switching, 0),
                                    off(872, 873, S::Blocked),
                                    on(873, 876, S::Wait4cs, 1),
                                    on(876, 879, S::Switching, 1),
                                }));
  // X runs on CPU 0 from the start: cs_in 0..3, computes 3..852 (848 + the arrival) and finishes there.
  EXPECT_EQ(lanes[2].intervals,
            (std::vector<TimelineInterval>{on(0, 3, S::Switching, 0), on(3, 852, S::Computing, 0)}));
}

// Every lane covers [0, its job's completion) without gap or overlap, has no interval of zero length and no
// two adjacent intervals alike; a place exactly while on (or chosen for) a CPU; the spinning intervals of a
// job sum to its spin_cycles; with sigma 0 each thread computes barriers x (mu + 1) cycles in all.
void check_invariants(const Machine& m, const std::string& what) {
  const auto lanes = m.timeline();
  std::size_t lane = 0;
  for (std::size_t j = 0; j < m.config().jobs.size(); ++j) {
    const auto& job = m.config().jobs[j];
    const auto& outcome = m.outcomes()[j];
    const Cycles end = outcome.completion_time.value_or(m.now());
    Cycles spinning = 0;
    for (int t = 0; t < job.threads; ++t, ++lane) {
      ASSERT_LT(lane, lanes.size()) << what;
      const auto& intervals = lanes[lane].intervals;
      ASSERT_FALSE(intervals.empty()) << what;
      EXPECT_EQ(lanes[lane].job, job.name);
      EXPECT_EQ(lanes[lane].rank, t);
      EXPECT_EQ(intervals.front().start, 0) << what << ": job " << j << " thread " << t;
      EXPECT_EQ(intervals.back().end, end) << what << ": job " << j << " thread " << t;
      Cycles computing = 0;
      for (std::size_t i = 0; i < intervals.size(); ++i) {
        const auto& in = intervals[i];
        EXPECT_LT(in.start, in.end) << what << ": zero or negative length";
        if (i > 0) {
          EXPECT_EQ(in.start, intervals[i - 1].end) << what << ": gap or overlap";
          EXPECT_FALSE(in.state == intervals[i - 1].state && in.place == intervals[i - 1].place)
              << what << ": adjacent intervals alike";
        }
        const auto state = static_cast<S>(in.state);
        const bool placed =
            state == S::Computing || state == S::Spinning || state == S::Switching || state == S::Wait4cs;
        EXPECT_EQ(in.place >= 0, placed) << what << ": place of state " << in.state;
        EXPECT_LT(in.place, m.config().cpus);
        if (state == S::Spinning) spinning += in.end - in.start;
        if (state == S::Computing) computing += in.end - in.start;
      }
      if (job.compute_sigma == 0 && outcome.completion_time) {
        EXPECT_EQ(computing, job.barriers * (std::llround(job.compute_mean) + 1))
            << what << ": job " << j << " thread " << t;
      }
    }
    EXPECT_EQ(spinning, outcome.spin_cycles) << what << ": job " << j;
  }
  EXPECT_EQ(lane, lanes.size()) << what;
}

Machine load(const std::string& scenario, const std::vector<std::string>& overrides) {
  auto loaded = config::load_scenario(testing::scenario_path(scenario), overrides);
  return build_machine(loaded, std::get<config::SmpConfig>(loaded.model_config).cpus);
}

void run_recorded(Machine& m) {
  m.record_timeline();
  while (m.run_until(m.now() + 1'000'000)) {
  }
}

struct Case {
  const char* name;
  const char* scenario;
  std::vector<std::string> overrides;
};

class SmpTimelineInvariants : public ::testing::TestWithParam<Case> {};

TEST_P(SmpTimelineInvariants, HoldOnAWholeRun) {
  const auto& c = GetParam();
  auto m = load(c.scenario, c.overrides);
  run_recorded(m);
  std::string what = c.scenario;
  for (const auto& o : c.overrides) what += " " + o;
  check_invariants(m, what);
  EXPECT_GT(m.outcomes()[0].total_spins, 0) << what << ": the case should exercise spinning";
}

// quickstart has sigma 0 (no `sigma` key), as has the job that replaces ch7's; the others draw.
const Case kCases[] = {
    {"RoundRobin", "scenarios/quickstart.yaml", {"workload.jobs.0.barriers=200"}},
    {"RoundRobinFirstFinish",
     "scenarios/quickstart.yaml",
     {"workload.jobs.0.barriers=200", "end=first-finish"}},
    {"RoundRobinCopies", "scenarios/tsafrir/ch4-homogeneous.yaml", {"workload.jobs.0.barriers=30"}},
    {"LinuxSmart", "scenarios/tsafrir/ch7-linux-nonsync.yaml", {"workload.jobs.0.barriers=300"}},
    {"LinuxSillySigma0",
     "scenarios/tsafrir/ch7-linux-nonsync.yaml",
     {"scheduler.wakeup=silly",
      "workload.jobs.0={name: J, threads: 11, barriers: 300, compute: 1%, wait: {algorithm: fixed-spin, "
      "spin: CS}}"}},
    {"LinuxAipYieldOnWake",
     "scenarios/tsafrir/ch7-linux-nonsync.yaml",
     {"workload.jobs.0.barriers=300", "scheduler.wakeup=aip",
      "workload.jobs.0.wait={algorithm: yield-on-wake, spin: CS}"}},
    {"Partitioned", "scenarios/kontothanassis/synthetic-partitioned.yaml", {"workload.jobs.0.barriers=200"}},
    {"PartitionedCompetitive",
     "scenarios/kontothanassis/synthetic-partitioned.yaml",
     {"workload.jobs.0.barriers=200", "workload.jobs.0.wait={algorithm: competitive-fixed}"}},
};

INSTANTIATE_TEST_SUITE_P(Scenarios, SmpTimelineInvariants, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cosched::smp
