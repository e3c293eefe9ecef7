// Linux's fair schedulers as a workstation's local scheduler (docs/models/linux-fair.md section 6): what the
// node is told, in the LocalScheduler contract (sched/now/local_scheduler.hpp).

#include "sched/now/fair.hpp"

#include <gtest/gtest.h>

namespace cosched::sched {
namespace {

constexpr SimTime kUs = 1'000;
constexpr SimTime kMs = 1'000'000;

fair::Settings settings(const char* version, int hz = 1000) {
  return fair::Settings::of(*fair::kernel_version(version), 1, fair::TunableScaling::Log, hz);
}

TEST(FairLocalScheduler, ALoneProcessRunsUntilAnEventAndNoTickIsAsked) {
  FairScheduler s(settings("6.12"));
  s.admit(0, 0, {100}, 0);
  ASSERT_EQ(s.pick_next(0), 0);
  EXPECT_FALSE(s.next_tick()) << "alone, its requests renew without rescheduling";
  EXPECT_GT(s.time_slice(0, 0), 1000 * kMs);
  EXPECT_FALSE(s.has_ready());
}

TEST(FairLocalScheduler, TheSlicesEndAtTicksAsQuantumExpiries) {
  // 6.6, HZ 1000: two processes alternate at every tick (run_queue_test's TwoTasksAlternate...). The node ends
  // the quantum where time_slice says, a tick; no tick of the scheduler's own is asked for.
  FairScheduler s(settings("6.6"));
  EXPECT_FALSE(s.ticks());
  EXPECT_TRUE(s.slices_move());
  s.admit(0, 0, {100}, 0);
  s.admit(1, 1, {100}, 0);
  ASSERT_EQ(s.pick_next(0), 0);
  EXPECT_EQ(s.time_slice(0, 0), 1 * kMs);
  EXPECT_FALSE(s.should_preempt(0, 500 * kUs, 500 * kUs));
  s.leave_cpu(0, LeaveReason::QuantumExpired, 1 * kMs, 1 * kMs);
  EXPECT_EQ(s.pick_next(1 * kMs), 1);
}

TEST(FairLocalScheduler, AWakeUpThatDoesNotPreemptBringsTheSlicesEndSooner) {
  // 6.6, HZ 1000: process 1 blocks at 2 ms with zero lag (both vruntimes 1 ms); process 0, alone, runs
  // until an event. Process 1 wakes at 2.5 ms at V = 1.5 ms: process 0 is eligible and its request, picked
  // at 2 ms, protected (RUN_TO_PARITY): no preemption. But now the tick that finds that request done (its
  // deadline 1.75 ms is reached at 2.75 ms: the 3 ms tick) ends its slice.
  FairScheduler s(settings("6.6"));
  s.admit(0, 0, {100}, 0);
  s.admit(1, 1, {100}, 0);
  ASSERT_EQ(s.pick_next(0), 0);
  s.leave_cpu(0, LeaveReason::QuantumExpired, 1 * kMs, 1 * kMs);
  ASSERT_EQ(s.pick_next(1 * kMs), 1);
  s.leave_cpu(1, LeaveReason::Blocked, 2 * kMs, 1 * kMs);
  ASSERT_EQ(s.pick_next(2 * kMs), 0);
  EXPECT_GT(s.time_slice(0, 2 * kMs), 1000 * kMs);
  s.wake(1, 2500 * kUs);
  EXPECT_FALSE(s.should_preempt(0, 2500 * kUs, 500 * kUs));
  EXPECT_EQ(s.time_slice(0, 2500 * kUs), 500 * kUs);
}

TEST(FairLocalScheduler, AWakeUpThatWinsThePickPreempts) {
  // CFS 6.1: a process that slept long is placed half a latency (3 ms) behind min_vruntime: 3 ms behind the
  // running one, past the 1 ms wakeup granularity.
  FairScheduler s(settings("6.1"));
  s.admit(0, 0, {100}, 0);
  s.admit(1, 1, {100}, 0);
  ASSERT_EQ(s.pick_next(0), 1);  // START_DEBIT: the second starts earlier (run_queue_test)
  s.leave_cpu(1, LeaveReason::Blocked, 100 * kUs, 100 * kUs);
  ASSERT_EQ(s.pick_next(100 * kUs), 0);
  s.tick(50 * kMs);  // nothing else runnable: no decision, the time is accounted
  EXPECT_FALSE(s.should_preempt(0, 50 * kMs, 50 * kMs));
  s.wake(1, 50 * kMs);
  EXPECT_TRUE(s.should_preempt(0, 50 * kMs, 50 * kMs));
  EXPECT_EQ(s.preempt_reason(), LeaveReason::Preempted);
  EXPECT_TRUE(s.has_ready());
  s.leave_cpu(0, LeaveReason::Preempted, 50 * kMs, 50 * kMs);
  EXPECT_EQ(s.pick_next(50 * kMs), 1);
}

TEST(FairLocalScheduler, UnderHrtickAWakeUpFindingTheSliceOverReschedulesAtOnce) {
  // EEVDF 6.12 with HRTICK: process 0 runs alone far past its request; process 1 wakes with a later deadline
  // and does not win the pick, but the running process's slice is over: hrtick_update reschedules at once.
  auto s = settings("6.12");
  s.features[static_cast<std::size_t>(fair::Feature::Hrtick)] = true;
  FairScheduler f(s);
  f.admit(0, 0, {100}, 0);
  f.admit(1, 1, {100}, 0);
  ASSERT_EQ(f.pick_next(0), 0);
  f.tick(1 * kMs);
  f.leave_cpu(0, LeaveReason::QuantumExpired, 1 * kMs, 1 * kMs);
  ASSERT_EQ(f.pick_next(1 * kMs), 1);
  f.leave_cpu(1, LeaveReason::Blocked, 1100 * kUs, 100 * kUs);
  ASSERT_EQ(f.pick_next(1100 * kUs), 0);
  f.wake(1, 20 * kMs);
  EXPECT_TRUE(f.should_preempt(0, 20 * kMs, 0));
  EXPECT_EQ(f.preempt_reason(), LeaveReason::QuantumExpired);
  EXPECT_FALSE(f.next_tick()) << "decided: no tick is asked for";
}

TEST(FairLocalScheduler, NiceWeightsTheProcesses) {
  FairScheduler s(settings("6.12"));
  s.admit(0, 0, {100, 0}, 0);
  s.admit(1, 1, {100, 5}, 0);
  EXPECT_EQ(s.entity(0).load.weight, 1024u);
  EXPECT_EQ(s.entity(1).load.weight, 335u);
}

TEST(FairLocalScheduler, ADelayedSleeperIsNotReadyAndIsWokenInPlace) {
  // 6.12: a process that blocks while not eligible stays queued (DELAY_DEQUEUE) but is not ready.
  FairScheduler s(settings("6.12"));
  s.admit(0, 0, {100}, 0);
  s.admit(1, 1, {100}, 0);
  ASSERT_EQ(s.pick_next(0), 0);
  s.tick(1 * kMs);
  s.leave_cpu(0, LeaveReason::QuantumExpired, 1 * kMs, 1 * kMs);
  ASSERT_EQ(s.pick_next(1 * kMs), 1);
  s.tick(2 * kMs);
  s.leave_cpu(1, LeaveReason::QuantumExpired, 2 * kMs, 1 * kMs);
  ASSERT_EQ(s.pick_next(2 * kMs), 0);
  s.leave_cpu(0, LeaveReason::Blocked, 2500 * kUs, 500 * kUs);  // vruntime 1.5 ms > V = 1.25 ms
  EXPECT_TRUE(s.entity(0).delayed);
  EXPECT_TRUE(s.has_ready()) << "process 1 is";
  ASSERT_EQ(s.pick_next(2500 * kUs), 1);
  EXPECT_FALSE(s.has_ready()) << "the delayed sleeper is not ready";
  s.wake(0, 2600 * kUs);
  EXPECT_FALSE(s.entity(0).delayed);
  EXPECT_TRUE(s.has_ready());
}

}  // namespace
}  // namespace cosched::sched
