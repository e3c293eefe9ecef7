// One fair run queue against closed forms and hand-derived timelines (docs/models/linux-fair.md, issue 33
// section 1). Times are nanoseconds; HZ is 1000 (a 1 ms tick) unless a test says otherwise, one CPU (scaling
// factor 1), so the tunables are the kernel's normalized values: CFS latency 6 ms, minimum granularity
// 0.75 ms, wakeup granularity 1 ms; EEVDF base slice 0.75 ms.

#include "sched/fair/run_queue.hpp"

#include <gtest/gtest.h>

#include <array>
#include <utility>
#include <vector>

#include "sched/fair/fair_test_support.hpp"

namespace cosched::sched::fair {
namespace {

using testing::Cpu;
using testing::kMs;
using testing::kUs;
using testing::task;
using testing::version_settings;
using Picks = std::vector<std::pair<Time, int>>;

class EveryVersion : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryVersion, NNiceZeroTasksShareOneCpuEquallyWithinATenthOfAPercent) {
  for (int n : {2, 3, 5}) {
    Cpu cpu(version_settings(GetParam()));
    std::vector<Entity> tasks(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      tasks[static_cast<std::size_t>(i)].id = i;
      cpu.start(tasks[static_cast<std::size_t>(i)]);
    }
    const Time run = 10'000 * kMs;
    cpu.run_until(run);
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(static_cast<double>(cpu.cpu_time[i]) / run, 1.0 / n, 0.001) << n << " tasks, task " << i;
  }
}

TEST_P(EveryVersion, NiceZeroAgainstNiceFiveDivideTheCpu1024To335) {
  Cpu cpu(version_settings(GetParam()));
  Entity a = task(0);
  Entity b = task(1);
  cpu.start(a, 0);
  cpu.start(b, 5);
  cpu.run_until(20'000 * kMs);
  const double ratio = static_cast<double>(cpu.cpu_time[0]) / static_cast<double>(cpu.cpu_time[1]);
  EXPECT_NEAR(ratio / (1024.0 / 335.0), 1.0, 0.001) << "CPU time ratio " << ratio;
}

INSTANTIATE_TEST_SUITE_P(Versions, EveryVersion, ::testing::Values("6.1", "6.6", "6.12", "6.15", "6.18"),
                         [](const auto& info) {
                           std::string name = std::string("v") + info.param;
                           for (char& c : name)
                             if (c == '.') c = '_';
                           return name;
                         });

TEST(FairSettings, TheTunablesScaleWithOnePlusLog2OfTheCpusUpToEight) {
  const auto& v66 = *kernel_version("6.6");
  EXPECT_EQ(Settings::of(v66, 1).base_slice, 750 * kUs);
  EXPECT_EQ(Settings::of(v66, 2).base_slice, 1500 * kUs);
  EXPECT_EQ(Settings::of(v66, 4).base_slice, 2250 * kUs);
  EXPECT_EQ(Settings::of(v66, 8).base_slice, 3000 * kUs);
  EXPECT_EQ(Settings::of(v66, 64).base_slice, 3000 * kUs) << "min(ncpus, 8)";
  EXPECT_EQ(Settings::of(v66, 64, TunableScaling::None).base_slice, 750 * kUs);
  EXPECT_EQ(Settings::of(v66, 64, TunableScaling::Linear).base_slice, 6000 * kUs);
  const auto cfs = Settings::of(*kernel_version("6.1"), 4);
  EXPECT_EQ(cfs.latency, 18 * kMs);
  EXPECT_EQ(cfs.min_granularity, 2250 * kUs);
  EXPECT_EQ(cfs.wakeup_granularity, 3 * kMs);
  EXPECT_EQ(cfs.nr_latency(), 8u);
  EXPECT_EQ(Settings::of(v66, 1, TunableScaling::Log, 250).tick, 4 * kMs);
}

TEST(Eevdf, ALoneTasksRequestIsTheBaseSliceTimesTheFactor) {
  Cpu cpu(version_settings("6.6", 4));  // factor 3: 2.25 ms
  Entity a = task(0);
  cpu.start(a);
  cpu.run_until(50 * kMs);
  EXPECT_EQ(a.slice, 2250 * kUs);
  // 6.6.9 gives a new task a full request (2.25 ms): renewed at the 3 ms tick, then every third tick (2.25 ms
  // rounds up to 3 ticks), last at 48 ms, to 48 + 2.25 ms.
  EXPECT_EQ(a.vruntime, 50 * kMs);
  EXPECT_EQ(a.deadline, 50250 * kUs);
}

TEST(Eevdf, UnderHrtickTwoTasksAlternateEveryScaledBaseSliceExactly) {
  // 4 CPUs: factor 3, 2.25 ms requests. The high-resolution timer ends a slice when its real time since the pick
  // has run (hrtick_start_fair), before the next tick. 6.6.9 starts both with a full request: every run is
  // exactly 2.25 ms. 6.12 starts them with half a request (1.125 ms), which the 2 ms tick finds reached before
  // the timer (armed for the whole slice) fires; from then on every run is 2.25 ms.
  const std::pair<const char*, Picks> cases[] = {
      {"6.6",
       {{0, 0}, {2250 * kUs, 1}, {4500 * kUs, 0}, {6750 * kUs, 1}, {9000 * kUs, 0}, {11250 * kUs, 1},
        {13500 * kUs, 0}, {15750 * kUs, 1}, {18000 * kUs, 0}}},
      {"6.12",
       {{0, 0}, {2000 * kUs, 1}, {4000 * kUs, 0}, {6250 * kUs, 1}, {8500 * kUs, 0}, {10750 * kUs, 1},
        {13000 * kUs, 0}, {15250 * kUs, 1}, {17500 * kUs, 0}, {19750 * kUs, 1}}},
  };
  for (const auto& [version, expected] : cases) {
    auto s = version_settings(version, 4);
    s.features[static_cast<std::size_t>(Feature::Hrtick)] = true;
    Cpu cpu(s);
    Entity a = task(0);
    Entity b = task(1);
    cpu.start(a);
    cpu.start(b);
    cpu.run_until(20 * kMs);
    EXPECT_EQ(cpu.picks, expected) << version;
  }
}

TEST(Eevdf, TwoTasksAlternateAtTheTicksThatFindTheirDeadlinesReached) {
  // 6.6, HZ 1000. A and B start at V = 0 with deadlines 0.75 ms (6.6.9 gives a new task a full request). A
  // runs first (queued first); its deadline is reached at 0.75 ms but checked at the 1 ms tick, where A's
  // vruntime is 1 ms: its new deadline is 1.75 ms and B, eligible (V = 0.5 ms), runs. And so on, every tick.
  Cpu cpu(version_settings("6.6"));
  Entity a = task(0);
  Entity b = task(1);
  cpu.start(a);
  cpu.start(b);
  EXPECT_EQ(a.deadline, 750 * kUs);
  cpu.run_until(4 * kMs + 1);
  EXPECT_EQ(cpu.picks, (Picks{{0, 0}, {1 * kMs, 1}, {2 * kMs, 0}, {3 * kMs, 1}, {4 * kMs, 0}}));
  EXPECT_EQ(a.deadline, 2 * kMs + 750 * kUs);
}

TEST(Eevdf, AWakeUpWithZeroLagWaitsForItsTurnByDeadline) {
  // 6.6, HZ 1000. At 2.5 ms A runs (vruntime 1.5 ms, deadline 1.75 ms), B waits (1 ms, 1.75 ms): V = 1.25 ms.
  // C wakes with zero lag: vruntime V = 1.25 ms, deadline 2 ms. A is no longer eligible (1.5 > V = 1.25) but
  // B has the earliest eligible deadline: no preemption. At the 3 ms tick A's request ends: B (1.75 ms) runs,
  // then C (the only eligible one at 4 ms, V = 1.75 ms), then A (V = 2.08 ms; A and B tie at 2.75 ms and A
  // was queued first).
  Cpu cpu(version_settings("6.6"));
  Entity a = task(0);
  Entity b = task(1);
  Entity c = task(2);
  cpu.start(a);
  cpu.start(b);
  cpu.run_until(2500 * kUs);
  EXPECT_FALSE(cpu.wake(c));
  EXPECT_EQ(c.vruntime, 1250 * kUs);
  EXPECT_EQ(c.deadline, 2000 * kUs);
  cpu.run_until(5 * kMs + 1);
  EXPECT_EQ(cpu.picks, (Picks{{0, 0}, {1 * kMs, 1}, {2 * kMs, 0}, {3 * kMs, 1}, {4 * kMs, 2}, {5 * kMs, 0}}));
}

TEST(Eevdf, APositiveLagIsKeptAcrossTheWakeUpScaledByTheLoad) {
  // place_entity: vruntime = V - lag x (W + w) / W. At 2.25 ms A runs (1.25 ms), B waits (1 ms): V = 1.125
  // ms, W = 2048. C comes back with lag 0.5 ms: 0.5 x 3072 / 2048 = 0.75 ms, so vruntime 0.375 ms, and after
  // it is queued V = (1.25 + 1 + 0.375) / 3 = 0.875 ms: its lag against the new V is again 0.5 ms. Its
  // deadline 1.125 ms is the earliest eligible one: it preempts A.
  Cpu cpu(version_settings("6.6"));
  Entity a = task(0);
  Entity b = task(1);
  Entity c = task(2);
  cpu.start(a);
  cpu.start(b);
  cpu.run_until(2250 * kUs);
  c.vlag = 500 * kUs;
  EXPECT_TRUE(cpu.wake(c));
  EXPECT_EQ(c.vruntime, 375 * kUs);
  EXPECT_EQ(c.deadline, 1125 * kUs);
  EXPECT_EQ(cpu.rq.avg_vruntime() - c.vruntime, 500 * kUs);
}

TEST(Eevdf, ASleepersLagIsClampedAsEntityLagClampsIt) {
  // update_entity_lag: the lag is clamped to calc_delta_fair(max(2 x slice, TICK_NSEC)): with HZ 250 and a
  // 0.75 ms slice, 4 ms.
  Cpu cpu(version_settings("6.6", 1, 250));
  Entity a = task(0);
  Entity b = task(1);
  Entity c = task(2);
  cpu.start(a);
  cpu.start(b);
  cpu.start(c);
  ASSERT_EQ(cpu.rq.pick(0)->id, 0);
  b.vruntime = 30 * kMs;  // far ahead: V = 10 ms, its lag -20 ms
  c.vruntime = 0;
  cpu.rq.dequeue(b, Dequeue::Sleep, 0);
  EXPECT_EQ(b.vlag, -4 * kMs);
  c.vruntime = -30 * kMs;  // far behind the remaining V
  cpu.rq.dequeue(c, Dequeue::Sleep, 0);
  EXPECT_EQ(c.vlag, 4 * kMs);
  // B wakes beside A alone: V = A's 0, lag -4 ms scaled by (1024 + 1024) / 1024.
  cpu.rq.enqueue(b, Enqueue::Wakeup, 0);
  EXPECT_EQ(b.vruntime, 8 * kMs);
  // With a nice-5 task the clamp is in its virtual time: 4 ms x 1024 / 335.
  Entity d = task(3);
  cpu.start(d, 5);
  d.vruntime = 100 * kMs;
  cpu.rq.dequeue(d, Dequeue::Sleep, 0);
  EXPECT_EQ(d.vlag, -calc_delta_fair(4 * kMs, nice_weight(5)));
}

TEST(Eevdf, DelayDequeueForgetsTheNegativeLagThatSixSixKeeps) {
  // A and B as in TwoTasksAlternate...; at 2.5 ms A (1.5 ms) blocks while V = 1.25 ms: it is not eligible.
  // 6.6 takes it off the queue with lag -0.25 ms; at 6 ms it wakes beside B alone (V = B's 4.5 ms) at
  // 4.5 + 0.5 = 5 ms and, not eligible, waits. 6.12 keeps it queued (DELAY_DEQUEUE); at B's 4 ms tick the
  // pick finds A eligible (V = 2 ms) with the earliest deadline, so A leaves the queue there with lag +0.5
  // ms, which DELAY_ZERO drops. At 6 ms it wakes at V = 4.5 ms with B's deadline (5.25 ms): the tie goes to
  // the wakee, which preempts.
  for (const char* version : {"6.6", "6.12"}) {
    SCOPED_TRACE(version);
    Cpu cpu(version_settings(version));
    Entity a = task(0);
    Entity b = task(1);
    cpu.start(a);
    cpu.start(b);
    cpu.run_until(2500 * kUs);
    ASSERT_EQ(cpu.rq.curr(), &a);
    cpu.block_running();
    const bool delayed = a.delayed;
    cpu.run_until(6 * kMs);
    EXPECT_EQ(b.vruntime, 4500 * kUs);
    const bool preempted = cpu.wake(a);
    if (std::string_view(version) == "6.6") {
      EXPECT_FALSE(delayed);
      EXPECT_EQ(a.vruntime, 5 * kMs);
      EXPECT_FALSE(preempted);
    } else {
      EXPECT_TRUE(delayed);
      EXPECT_EQ(a.vlag, 0);
      EXPECT_EQ(a.vruntime, 4500 * kUs);
      EXPECT_TRUE(preempted);
    }
  }
}

TEST(Cfs, TwoTasksAlternateEverySliceAndAWakingSleeperIsPlacedHalfALatencyBehind) {
  // 6.1, HZ 1000. START_DEBIT: A starts one vslice after min_vruntime 0 (alone: 6 ms less rounding,
  // 5,999,998 ns), B half of it (two tasks: 2,999,998 ns), so B runs first. The ideal slice of two is
  // 2,999,998 ns: the 3 ms tick finds it exceeded. They alternate every 3 ms. At 10 ms A runs (vruntime
  // 9,999,998), B waits (8,999,998 = min_vruntime). C wakes from a long sleep (vruntime 0): placed at
  // max(0, min_vruntime - latency / 2) = 5,999,998, 4 ms behind A, past the 1 ms wakeup granularity: it
  // preempts. Three share 6 ms: C runs to the 12 ms tick, is still leftmost, and runs to 14 ms.
  Cpu cpu(version_settings("6.1"));
  Entity a = task(0);
  Entity b = task(1);
  Entity c = task(2);
  cpu.start(a);
  cpu.start(b);
  EXPECT_EQ(a.vruntime, 5'999'998);
  EXPECT_EQ(b.vruntime, 2'999'998);
  cpu.run_until(10 * kMs);
  EXPECT_EQ(cpu.rq.min_vruntime(), 8'999'998);
  EXPECT_TRUE(cpu.wake(c));
  EXPECT_EQ(c.vruntime, 5'999'998);
  cpu.run_until(15 * kMs);
  EXPECT_EQ(cpu.picks,
            (Picks{{0, 1}, {3 * kMs, 0}, {6 * kMs, 1}, {9 * kMs, 0}, {10 * kMs, 2}, {14 * kMs, 1}}));
}

TEST(Cfs, ASleeperNeverGainsByBeingPlacedAndGentleSleepersHalveTheCredit) {
  for (const bool gentle : {true, false}) {
    auto s = version_settings("6.1");
    s.features[static_cast<std::size_t>(Feature::GentleFairSleepers)] = gentle;
    Cpu cpu(s);
    Entity a = task(0);
    Entity b = task(1);
    Entity c = task(2);
    cpu.start(a);
    cpu.start(b);
    cpu.run_until(100 * kMs);
    const Time min_v = cpu.rq.min_vruntime();
    cpu.wake(c);  // vruntime 0: a long sleep
    EXPECT_EQ(c.vruntime, min_v - (gentle ? 3 : 6) * kMs);
    Entity d = task(3);
    d.vruntime = min_v + kMs;  // a short sleep: it keeps its own, larger vruntime
    cpu.wake(d);
    EXPECT_EQ(d.vruntime, min_v + kMs);
  }
}

TEST(Cfs, AWakeUpWithinTheGranularityDoesNotPreempt) {
  Cpu cpu(version_settings("6.1"));
  Entity a = task(0);
  Entity b = task(1);
  cpu.start(a);
  cpu.run_until(20 * kMs);
  // B's vruntime 0.5 ms behind A's: inside the 1 ms wakeup granularity.
  b.vruntime = a.vruntime - 500 * kUs;
  EXPECT_FALSE(cpu.wake(b));
  EXPECT_EQ(cpu.rq.wakeup_preempt_entity(a, b), 0);
}

TEST(Yield, CfsSkipsTheYielderAndEevdfPushesItsDeadline) {
  {
    Cpu cpu(version_settings("6.1"));
    Entity a = task(0);
    Entity b = task(1);
    cpu.start(a);
    cpu.start(b);
    a.vruntime = b.vruntime;  // A is queued first, so picked first
    Entity* first = cpu.rq.pick(0);
    ASSERT_EQ(first, &a);
    cpu.rq.yield(100 * kUs);
    EXPECT_TRUE(cpu.rq.need_resched());
    cpu.rq.put_prev(100 * kUs);
    EXPECT_EQ(cpu.rq.pick(100 * kUs), &b) << "the skip buddy is passed over: B is 0.1 ms behind, within the "
                                             "wakeup granularity";
    // Yielding again with B 2 ms ahead: passing A over would be too unfair (wakeup_preempt_entity is 1).
    cpu.rq.update(2100 * kUs);
    cpu.rq.put_prev(2100 * kUs);
    ASSERT_EQ(cpu.rq.pick(2100 * kUs), &a);
    cpu.rq.yield(2100 * kUs);
    cpu.rq.put_prev(2100 * kUs);
    EXPECT_EQ(cpu.rq.pick(2100 * kUs), &a);
  }
  {
    Cpu cpu(version_settings("6.6"));
    Entity a = task(0);
    Entity b = task(1);
    cpu.start(a);
    cpu.start(b);
    Entity* first = cpu.rq.pick(0);
    const Time deadline = first->deadline;
    cpu.rq.yield(100 * kUs);
    EXPECT_EQ(first->deadline, deadline + 750 * kUs);
    cpu.rq.put_prev(100 * kUs);
    EXPECT_NE(cpu.rq.pick(100 * kUs), first);
  }
  {
    // 6.18: an eligible yielder forfeits the rest of its request: its vruntime jumps to its deadline.
    Cpu cpu(version_settings("6.18"));
    Entity a = task(0);
    Entity b = task(1);
    cpu.start(a);
    cpu.start(b);
    ASSERT_EQ(cpu.rq.pick(0), &a);
    const Time deadline = a.deadline;
    cpu.rq.yield(0);  // at V: eligible
    EXPECT_EQ(a.vruntime, deadline);
    EXPECT_EQ(a.deadline, deadline + 700 * kUs);
    // A's vruntime now leads V: it is no longer eligible, and yielding again changes nothing.
    cpu.rq.update(100 * kUs);
    ASSERT_FALSE(cpu.rq.eligible(a));
    const Time v = a.vruntime;
    cpu.rq.yield(100 * kUs);
    EXPECT_EQ(a.vruntime, v);
  }
}

TEST(Eevdf, SinceSixSeventeenNoRunToParityStillProtectsTheUnscaledBaseSlice) {
  // 6.18 on 4 CPUs: 2.1 ms requests, new tasks' first ones 1.05 ms. Under RUN_TO_PARITY the running task is
  // protected until its deadline: A runs to the 2 ms tick. Without it, set_protect_slice protects only the
  // unscaled 0.7 ms, and update_curr reschedules at the first tick past it: B runs from 1 ms.
  for (const bool parity : {true, false}) {
    auto s = version_settings("6.18", 4);
    s.features[static_cast<std::size_t>(Feature::RunToParity)] = parity;
    Cpu cpu(s);
    Entity a = task(0);
    Entity b = task(1);
    cpu.start(a);
    cpu.start(b);
    cpu.run_until(2 * kMs + 1);
    ASSERT_GE(cpu.picks.size(), 2u);
    EXPECT_EQ(cpu.picks[1], (std::pair<Time, int>{parity ? 2 * kMs : 1 * kMs, 1})) << parity;
  }
}

}  // namespace
}  // namespace cosched::sched::fair
