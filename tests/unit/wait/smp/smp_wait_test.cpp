// The SMP waiting algorithms beyond fixed spin, fed by hand-made observations (docs/models/smp.md, section
// 16): Kontothanassis & Wisniewski's competitive and scheduler-information barriers (appendix figures 9-13)
// and the Tsafrir thesis's chapter 10 proposals.

#include <gtest/gtest.h>

#include <random>

#include "wait/smp/competitive.hpp"
#include "wait/smp/scheduler_info.hpp"
#include "wait/smp/thesis_proposals.hpp"
#include "workload/distribution.hpp"

namespace cosched::wait {
namespace {

WaitRecord blocked_for(Cycles cycles, int thread = 0) {
  WaitRecord r;
  r.thread = thread;
  r.blocked = true;
  r.blocked_cycles = cycles;
  return r;
}

WaitRecord spun_ok(int thread = 0) {
  WaitRecord r;
  r.thread = thread;
  r.spun = r.succeeded = true;
  return r;
}

TEST(CompetitiveBarriers, FixedAlwaysSpinsTheSwitchTime) {
  CompetitiveWaiter w(Competitive::Fixed, 10, 0);
  EXPECT_EQ(w.spin_budget({}), 10);
  w.record(blocked_for(1000));
  EXPECT_EQ(w.spin_budget({}), 10) << "figure 9 never adapts";
}

TEST(CompetitiveBarriers, LastOneMovesByAdjustAgainstTwiceTheSwitchTime) {
  // switch_time 10, adjust 3: tblkd >= 20 lowers the threshold by 3, else it rises by 3 up to 10 (figure 11).
  CompetitiveWaiter w(Competitive::LastOne, 10, 3);
  EXPECT_EQ(w.spin_budget({}), 10) << "starts at switch_time";
  w.record(blocked_for(25));
  EXPECT_EQ(w.threshold(), 7);
  w.record(blocked_for(20));
  EXPECT_EQ(w.threshold(), 4) << "20 is not below 2 x 10";
  w.record(blocked_for(19));
  EXPECT_EQ(w.threshold(), 7);
  w.record(spun_ok());
  EXPECT_EQ(w.threshold(), 10) << "a successful spin has tblkd = 0";
  w.record(spun_ok());
  EXPECT_EQ(w.threshold(), 10) << "capped at switch_time";
  for (int i = 0; i < 5; ++i) w.record(blocked_for(100));
  EXPECT_EQ(w.threshold(), 0) << "floored at 0: always block";
}

TEST(CompetitiveBarriers, CoarseAdjustmentJumpsAtOnce) {
  CompetitiveWaiter w(Competitive::CoarseAdjustment, 10, 0);
  w.record(blocked_for(20));
  EXPECT_EQ(w.threshold(), 0) << "figure 12: 20 is not below 2 x 10";
  w.record(blocked_for(19));
  EXPECT_EQ(w.threshold(), 10);
}

TEST(CompetitiveBarriers, AverageThreeAveragesEachThreadsLastThreeSlots) {
  // switch_time 10, adjust 3; the three slots start at 0 (C globals) and the test is average < switch_time.
  CompetitiveWaiter w(Competitive::AverageThree, 10, 3);
  w.spin_budget({});
  w.record(blocked_for(40));  // slots {40, 0, 0}: average 13.3 >= 10
  EXPECT_EQ(w.threshold(), 7);
  w.record(spun_ok());  // {40, 0, 0}
  EXPECT_EQ(w.threshold(), 4);
  w.record(spun_ok());  // {40, 0, 0}
  EXPECT_EQ(w.threshold(), 1);
  w.record(spun_ok());  // {0, 0, 0}: the 40 is overwritten
  EXPECT_EQ(w.threshold(), 4);
  w.record(blocked_for(29, 1));  // thread 1: {29, 0, 0}, average 9.7 < 10
  EXPECT_EQ(w.threshold(), 7) << "the threshold is the job's, the history each thread's";
}

ArrivalView arrival(int threads, int arrived, int blocked, int partition) {
  ArrivalView v;
  v.job_threads = threads;
  v.arrived = arrived;
  v.blocked_peers = blocked;
  v.partition_cpus = partition;
  return v;
}

TEST(SchedulerInformation, TheThreeReadingsOfTheTest) {
  SchedulerInfo remaining(SchedulerInfoCount::Remaining);
  SchedulerInfo or_equal(SchedulerInfoCount::RemainingOrEqual);
  SchedulerInfo not_blocked(SchedulerInfoCount::NotBlocked);
  // N = 5 on P = 2. First arrival: 4 still to arrive: everyone blocks.
  EXPECT_EQ(remaining.spin_budget(arrival(5, 1, 0, 2)), 0);
  EXPECT_EQ(or_equal.spin_budget(arrival(5, 1, 0, 2)), 0);
  EXPECT_EQ(not_blocked.spin_budget(arrival(5, 1, 0, 2)), 0) << "5 not blocked > 2";
  // Third arrival, two blocked before it: 2 still to arrive.
  EXPECT_EQ(remaining.spin_budget(arrival(5, 3, 2, 2)), 0) << "section 3: spin only if 2 < 2";
  EXPECT_EQ(or_equal.spin_budget(arrival(5, 3, 2, 2)), kUnlimitedSpin) << "section 1: block only if 2 > 2";
  EXPECT_EQ(not_blocked.spin_budget(arrival(5, 3, 2, 2)), 0) << "figure 13: 5 - 2 = 3 > 2";
  // Fourth arrival, three blocked: 1 still to arrive.
  EXPECT_EQ(remaining.spin_budget(arrival(5, 4, 3, 2)), kUnlimitedSpin);
  EXPECT_EQ(not_blocked.spin_budget(arrival(5, 4, 3, 2)), kUnlimitedSpin) << "5 - 3 = 2 <= 2";
  // While spinning, the partition shrinks to 1: give up.
  EXPECT_TRUE(remaining.give_up(arrival(5, 4, 3, 1)));
  EXPECT_FALSE(remaining.give_up(arrival(5, 4, 3, 2)));
}

TEST(ThesisProposals, LoadBasedSpinsUpToFactorTimesTheCpus) {
  LoadBased w(13, 2.0);
  ArrivalView v;
  v.cpus = 4;
  v.runnable_threads = 8;
  EXPECT_EQ(w.spin_budget(v), 13) << "8 <= 2 x 4";
  v.runnable_threads = 9;
  EXPECT_EQ(w.spin_budget(v), 0);
  EXPECT_TRUE(w.give_up(v));
}

TEST(ThesisProposals, YieldOnWakeReleasesOnlyAfterWakingPeersWithNoIdleCpu) {
  YieldOnWake w(6, false);
  ArrivalView v;
  v.cpus = 4;
  v.idle_cpus = 0;
  EXPECT_FALSE(w.release_after_success(v, 0)) << "nobody was woken";
  EXPECT_TRUE(w.release_after_success(v, 2));
  v.idle_cpus = 1;
  EXPECT_FALSE(w.release_after_success(v, 2)) << "an idle CPU exists";
  YieldOnWake priority(6, true);
  v.runnable_threads = 5;
  EXPECT_TRUE(priority.release_after_success(v, 2)) << "5 runnable threads > 4 CPUs";
  v.runnable_threads = 4;
  EXPECT_FALSE(priority.release_after_success(v, 2));
}

TEST(ThesisProposals, GranularityAwareBlocksWhenTheLargestRecentGrainIsCoarse) {
  GranularityAware w(13, 50);
  ArrivalView v;
  v.thread = 0;
  v.since_last_arrival = -1;
  EXPECT_EQ(w.spin_budget(v), 13) << "no estimate yet: spin";
  v.since_last_arrival = 10;
  EXPECT_EQ(w.spin_budget(v), 13) << "grain 10 <= 50";
  v.thread = 1;
  v.since_last_arrival = 200;
  EXPECT_EQ(w.spin_budget(v), 0) << "thread 1 saw 200: the largest average is coarse";
  EXPECT_EQ(w.estimate(), 200);
  v.since_last_arrival = 10;
  v.thread = 1;
  w.spin_budget(v);
  w.spin_budget(v);
  EXPECT_EQ(w.estimate(), (200 + 10 + 10) / 3) << "the average of thread 1's last three";
}

TEST(Distribution, ThesisNotationValuesIntervalsAndWeights) {
  auto d = workload::Distribution::parse("7:5, 2-6:95");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->min(), 2);
  EXPECT_EQ(d->max(), 7);
  std::mt19937_64 engine(3);
  int sevens = 0;
  for (int i = 0; i < 20000; ++i) {
    auto v = d->draw_integer(engine);
    ASSERT_GE(v, 2);
    ASSERT_LE(v, 7);
    sevens += v == 7;
  }
  EXPECT_GT(sevens, 20000 * 0.04) << "7 with weight 5 of 100";
  EXPECT_LT(sevens, 20000 * 0.06);
  std::string why;
  EXPECT_FALSE(workload::Distribution::parse("7", &why).has_value());
  EXPECT_FALSE(workload::Distribution::parse("6-2:1", &why).has_value()) << why;
  EXPECT_FALSE(workload::Distribution::parse("2:0", &why).has_value()) << "weights must be positive";
}

}  // namespace
}  // namespace cosched::wait
