// The Solaris TS rules (docs/models/now-schedulers.md) on a few processes, with the default dispatch
// table: level 29 has a 120 ms quantum, expires to 19 (160 ms) and returns from sleep to 52 (40 ms);
// levels 0-58 have maxwait 0 and level 29 is raised to lwait 52.

#include "sched/now/time_sharing.hpp"

#include <gtest/gtest.h>

namespace cosched::sched {
namespace {

constexpr SimTime kMs = 1'000'000;
constexpr SimTime kSecond = 1000 * kMs;

TEST(TimeSharing, DispatchesTheHighestLevelFirst) {
  TimeSharing ts;
  for (ProcessId p : {0, 1, 2}) ts.admit(p, p, 1, 0);
  EXPECT_EQ(ts.level(0), 29) << "a new process starts at the initial level";
  ASSERT_EQ(ts.pick_next(0), 0) << "all at 29: the first admitted first";
  ts.leave_cpu(0, LeaveReason::QuantumExpired, 120 * kMs, 120 * kMs);
  ASSERT_EQ(ts.pick_next(120 * kMs), 1) << "level 29 before process 0, now at 19";
  ts.leave_cpu(1, LeaveReason::Blocked, 125 * kMs, 5 * kMs);
  ts.wake(1, 130 * kMs);
  EXPECT_EQ(ts.pick_next(130 * kMs), 1) << "woken to 52, above process 2 at 29";
  EXPECT_EQ(ts.pick_next(130 * kMs), 2) << "then level 29";
  EXPECT_EQ(ts.pick_next(130 * kMs), 0) << "then level 19";
  EXPECT_FALSE(ts.pick_next(130 * kMs).has_value()) << "nothing left";
}

TEST(TimeSharing, IsFifoWithinALevel) {
  TimeSharing ts;
  for (ProcessId p : {0, 1, 2}) ts.admit(p, p, 1, 0);
  for (ProcessId p : {0, 1, 2}) EXPECT_EQ(ts.pick_next(0), p) << "admission order";
  // Expiries in the order 1, 0, 2 queue them at level 19 in that order.
  for (ProcessId p : {1, 0, 2}) ts.leave_cpu(p, LeaveReason::QuantumExpired, 120 * kMs, 120 * kMs);
  for (ProcessId p : {1, 0, 2}) EXPECT_EQ(ts.pick_next(120 * kMs), p) << "order of arrival at level 19";
}

TEST(TimeSharing, QuantumExpiryFollowsTqexpAndTakesTheNewLevelsQuantum) {
  TimeSharing ts;
  ts.admit(0, 0, 1, 0);
  SimTime now = 0;
  struct Step {
    int level;
    SimTime quantum;
  };
  // 29 (120 ms) -> 19 (160 ms) -> 9 (200 ms) -> 0 (200 ms) -> 0: tqexp of level 0 is 0.
  for (auto [level, quantum] :
       {Step{29, 120 * kMs}, Step{19, 160 * kMs}, Step{9, 200 * kMs}, Step{0, 200 * kMs}}) {
    ASSERT_EQ(ts.pick_next(now), 0);
    EXPECT_EQ(ts.level(0), level) << "level before expiry";
    EXPECT_EQ(ts.time_slice(0, now), quantum) << "quantum of level " << level;
    now += quantum;
    ts.leave_cpu(0, LeaveReason::QuantumExpired, now, quantum);
  }
  EXPECT_EQ(ts.level(0), 0) << "level 0 expires to itself";
}

TEST(TimeSharing, APreemptedProcessGoesBackToTheFrontWithTheRestOfItsQuantum) {
  TimeSharing ts;
  for (ProcessId p : {0, 1, 2}) ts.admit(p, p, 1, 0);
  ASSERT_EQ(ts.pick_next(0), 0);
  ts.leave_cpu(0, LeaveReason::Blocked, 1 * kMs, 1 * kMs);
  ASSERT_EQ(ts.pick_next(1 * kMs), 1) << "process 1 runs, process 2 waits at 29";
  ts.wake(0, 31 * kMs);
  EXPECT_TRUE(ts.should_preempt(1, 31 * kMs, 30 * kMs)) << "process 0 woke to 52, above 29";
  ts.leave_cpu(1, LeaveReason::Preempted, 31 * kMs, 30 * kMs);
  ASSERT_EQ(ts.pick_next(31 * kMs), 0) << "the woken process takes the CPU";
  ts.leave_cpu(0, LeaveReason::Blocked, 32 * kMs, 1 * kMs);
  ASSERT_EQ(ts.pick_next(32 * kMs), 1) << "the preempted process is ahead of process 2, queued before it";
  EXPECT_EQ(ts.level(1), 29) << "preemption keeps the level";
  EXPECT_EQ(ts.time_slice(1, 32 * kMs), 90 * kMs) << "120 ms less the 30 ms it ran";
}

TEST(TimeSharing, WakingBoostsToSlpretWithAFreshQuantumAtTheBackOfTheQueue) {
  TimeSharing ts;  // SleepReturn::Always
  for (ProcessId p : {0, 1}) ts.admit(p, p, 1, 0);
  ASSERT_EQ(ts.pick_next(0), 0);
  ts.leave_cpu(0, LeaveReason::Blocked, 5 * kMs, 5 * kMs);
  EXPECT_EQ(ts.level(0), 29) << "blocking alone does not change the level";
  ASSERT_EQ(ts.pick_next(5 * kMs), 1);
  ts.leave_cpu(1, LeaveReason::Blocked, 10 * kMs, 5 * kMs);
  ts.wake(0, 20 * kMs);
  ts.wake(1, 21 * kMs);
  EXPECT_EQ(ts.level(0), 52) << "slpret of level 29";
  EXPECT_EQ(ts.pick_next(21 * kMs), 0) << "woken first, queued first at 52";
  EXPECT_EQ(ts.time_slice(0, 21 * kMs), 40 * kMs) << "the full quantum of level 52, not the 115 ms left";
  EXPECT_EQ(ts.pick_next(21 * kMs), 1) << "woken second, behind it";
}

TEST(TimeSharing, MaxwaitModeDoesNotBoostAWakeupBeforeAnUpdate) {
  TimeSharing ts(29, SleepReturn::Maxwait);
  ts.admit(0, 0, 1, 0);
  ASSERT_EQ(ts.pick_next(0), 0);
  ts.leave_cpu(0, LeaveReason::Blocked, 5 * kMs, 5 * kMs);
  ts.wake(0, 50 * kMs);
  EXPECT_EQ(ts.level(0), 29) << "no once-per-second update yet: waiting counter 0 is not above maxwait 0";
  ASSERT_EQ(ts.pick_next(50 * kMs), 0);
  EXPECT_EQ(ts.time_slice(0, 50 * kMs), 115 * kMs)
      << "ts_wakeup without a boost keeps the rest of the quantum";
}

TEST(TimeSharing, MaxwaitModeBoostsAProcessThatRanThroughAnUpdateWhenItSleeps) {
  TimeSharing ts(29, SleepReturn::Maxwait);
  ts.admit(0, 0, 1, 900 * kMs);
  ASSERT_EQ(ts.pick_next(900 * kMs), 0);
  ts.tick(1 * kSecond);
  EXPECT_EQ(ts.waiting_seconds(0), 1) << "the update counts the running process too";
  EXPECT_EQ(ts.level(0), 29) << "but does not move it while it runs";
  ts.leave_cpu(0, LeaveReason::Blocked, 1 * kSecond + 10 * kMs, 110 * kMs);
  EXPECT_EQ(ts.level(0), 52) << "ts_sleep: counter 1 > maxwait 0, so slpret of 29";
  EXPECT_EQ(ts.waiting_seconds(0), 0) << "the boost resets the counter";
  ts.wake(0, 1 * kSecond + 50 * kMs);
  EXPECT_EQ(ts.level(0), 52) << "counter 0 at wakeup: no second boost";
  ASSERT_EQ(ts.pick_next(1 * kSecond + 50 * kMs), 0);
  EXPECT_EQ(ts.time_slice(0, 1 * kSecond + 50 * kMs), 40 * kMs) << "the boost gave the quantum of level 52";
}

TEST(TimeSharing, MaxwaitModeRaisesABlockedProcessAtTheUpdate) {
  TimeSharing ts(29, SleepReturn::Maxwait);
  ts.admit(0, 0, 1, 0);
  ASSERT_EQ(ts.pick_next(0), 0);
  ts.leave_cpu(0, LeaveReason::Blocked, 5 * kMs, 5 * kMs);
  ts.tick(1 * kSecond);
  EXPECT_EQ(ts.level(0), 52) << "asleep through an update: raised to lwait of 29";
  ts.wake(0, 1 * kSecond + 50 * kMs);
  EXPECT_EQ(ts.level(0), 52) << "counter reset by the raise: no second boost on wakeup";
  ASSERT_EQ(ts.pick_next(1 * kSecond + 50 * kMs), 0);
  EXPECT_EQ(ts.time_slice(0, 1 * kSecond + 50 * kMs), 115 * kMs)
      << "a sleeping thread's time left is not reset by the raise";
}

TEST(TimeSharing, TheUpdateRaisesStarvedReadyProcessesToLwait) {
  TimeSharing ts;
  for (ProcessId p : {0, 1, 2}) ts.admit(p, p, 1, 900 * kMs);
  ASSERT_EQ(ts.pick_next(900 * kMs), 0);
  EXPECT_EQ(ts.next_tick(), 1 * kSecond) << "the first update at 1 s";
  ts.tick(1 * kSecond);
  EXPECT_EQ(ts.next_tick(), 2 * kSecond) << "then every second";
  EXPECT_EQ(ts.level(1), 52) << "ready through the update: lwait of 29";
  EXPECT_EQ(ts.waiting_seconds(1), 0) << "the raise resets the counter";
  EXPECT_EQ(ts.level(0), 29) << "the running process is not raised";
  EXPECT_TRUE(ts.should_preempt(0, 1 * kSecond, 100 * kMs)) << "the raised processes outrank the running one";
  ts.leave_cpu(0, LeaveReason::Preempted, 1 * kSecond, 100 * kMs);
  EXPECT_EQ(ts.pick_next(1 * kSecond), 1) << "raised in queue order: 1 before 2";
  EXPECT_EQ(ts.time_slice(1, 1 * kSecond), 40 * kMs) << "a fresh quantum of level 52";
  EXPECT_EQ(ts.pick_next(1 * kSecond), 2) << "then 2";
  EXPECT_EQ(ts.pick_next(1 * kSecond), 0) << "then the preempted process at 29";
  ts.tick(2500 * kMs);
  EXPECT_EQ(ts.next_tick(), 3 * kSecond) << "a late update still schedules the next on a whole second";
}

TEST(TimeSharing, AWokenProcessAboveTheRunningOnePreemptsIt) {
  TimeSharing ts;
  for (ProcessId p : {0, 1}) ts.admit(p, p, 1, 0);
  ASSERT_EQ(ts.pick_next(0), 0);
  EXPECT_FALSE(ts.should_preempt(0, 1 * kMs, 1 * kMs))
      << "process 1 is ready at the same level: no preemption";
  ts.leave_cpu(0, LeaveReason::Blocked, 5 * kMs, 5 * kMs);
  ASSERT_EQ(ts.pick_next(5 * kMs), 1);
  ts.wake(0, 20 * kMs);
  EXPECT_TRUE(ts.should_preempt(1, 20 * kMs, 15 * kMs)) << "woken to 52 while 1 runs at 29";
}

TEST(TimeSharing, RefusesAnInitialLevelOutsideTheTable) {
  try {
    TimeSharing ts(60);
    FAIL() << "level 60 accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "scheduler.initial_level: expected a TS level in 0..59, got 60")
        << "the message names the setting";
  }
}

}  // namespace
}  // namespace cosched::sched
