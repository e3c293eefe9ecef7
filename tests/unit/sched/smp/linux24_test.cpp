// Linux 2.4 SCHED_OTHER decisions on hand-built states (Tsafrir thesis chapter 6): goodness (algorithm 1),
// epochs and prev winning ties (algorithm 4), reschedule_idle (algorithm 2), and the wakeup schemes of
// 6.6.1.2 (silly, aip, smart / algorithm 5). Each expected value is worked out in the comment above it.

#include "sched/smp/linux24.hpp"

#include <gtest/gtest.h>

namespace cosched::sched {
namespace {

// The machine as the policy sees it, built by hand.
class FakeHost final : public SmpHost {
 public:
  FakeHost(int cpus, std::vector<int> spaces)
      : cpus_(static_cast<std::size_t>(cpus)), spaces_(std::move(spaces)) {}
  int cpu_count() const override { return static_cast<int>(cpus_.size()); }
  const CpuView& cpu(CpuId cpu) const override { return cpus_[cpu]; }
  int thread_count() const override { return static_cast<int>(spaces_.size()); }
  int address_space(ThreadId thread) const override { return spaces_[thread]; }
  void settle_running() override { ++settles; }
  Cycles now() const override { return 0; }
  void slices_changed() override { ++slice_changes; }
  void run(CpuId cpu, ThreadId thread) {
    cpus_[cpu].phase = CpuPhase::Running;
    cpus_[cpu].current = thread;
  }
  void idle(CpuId cpu, Cycles since) {
    cpus_[cpu] = CpuView{};
    cpus_[cpu].idle_since = since;
  }
  void flag(CpuId cpu) { cpus_[cpu].need_resched = true; }
  int settles = 0;
  int slice_changes = 0;

 private:
  std::vector<CpuView> cpus_;
  std::vector<int> spaces_;
};

// q = 100 with the Linux-2.2 parameters of thesis 6.6.2: PROC_CHANGE_PENALTY 75, SAME_ADDRESS_SPACE_BONUS 5,
// PREEMPTION_THRESHOLD 5.
Linux24 make_linux(FakeHost& host, WakeupScheme wakeup = WakeupScheme::Smart,
                   AipSearch aip = AipSearch::IdleOnly) {
  Linux24 l(Linux24Params::linux22(100), wakeup, aip);
  l.attach(host);
  return l;
}

// Puts `thread` on `cpu` through schedule(), so that its processor becomes `cpu` (algorithm 4, line 24).
void place(Linux24& l, FakeHost& host, ThreadId thread, CpuId cpu) {
  l.enqueue(thread, ReadyReason::Start);
  // Only `thread` is ready for this call: others are enqueued by the tests afterwards.
  ASSERT_EQ(l.pick_next(cpu, std::nullopt), thread);
  host.run(cpu, thread);
}

TEST(Linux24Params, Linux22AndLinux24RelativeToTheQuantum) {
  auto p22 = Linux24Params::linux22(100);
  EXPECT_EQ(p22.proc_change_penalty, 75) << "15 of 20 ticks";
  EXPECT_EQ(p22.same_address_space_bonus, 5) << "1 of 20 ticks";
  EXPECT_EQ(p22.preemption_threshold, 5) << "1 of 20 ticks";
  auto p24 = Linux24Params::linux24(100);
  EXPECT_EQ(p24.proc_change_penalty, 300) << "15 of 5 ticks";
  EXPECT_EQ(p24.same_address_space_bonus, 20);
  EXPECT_EQ(p24.preemption_threshold, 20);
}

TEST(Linux24Goodness, CounterPlusPenaltyOnItsOwnCpuPlusBonusForTheSameAddressSpace) {
  // Threads 0 and 1 share address space 7; thread 2 is alone.
  FakeHost host(2, {7, 7, 2});
  auto l = make_linux(host);
  EXPECT_EQ(l.goodness(0, 0), 100)
      << "full counter, never ran, CPU 0 idle (the idle task has no address space)";
  place(l, host, 1, 0);  // thread 1 runs on CPU 0 now
  EXPECT_EQ(l.goodness(0, 0), 105) << "100 + SAME_ADDRESS_SPACE_BONUS: CPU 0 runs thread 1, same mm";
  EXPECT_EQ(l.goodness(2, 0), 100) << "another address space: no bonus";
  EXPECT_EQ(l.goodness(1, 0), 180) << "its own CPU and its own mm: 100 + 75 + 5";
  l.charge(1, 30);
  EXPECT_EQ(l.goodness(1, 0), 150) << "the counter is charged per cycle of user time";
  l.charge(1, 500);
  EXPECT_EQ(l.counter(1), 0) << "the counter stops at 0";
  EXPECT_EQ(l.goodness(1, 0), 0) << "an exhausted counter gives 0 whatever the bonuses";
}

TEST(Linux24Schedule, PrevWinsTiesAndAStrictlyBetterReadyThreadReplacesIt) {
  FakeHost host(1, {0, 0, 0});
  auto l = make_linux(host);
  place(l, host, 0, 0);
  l.charge(0, 50);  // prev: 50 + 75 + 5 = 130
  l.enqueue(1, ReadyReason::Start);
  l.charge(1, 25);  // 75 + 0 (never ran on CPU 0) + 5 = 80
  EXPECT_EQ(l.pick_next(0, 0), 0) << "prev 130 beats 80: it keeps the CPU";
  l.enqueue(2, ReadyReason::Start);
  l.charge(2, 0);
  // Thread 2: 100 + 5 = 105 < 130.
  EXPECT_EQ(l.pick_next(0, 0), 0);
  l.charge(0, 25);  // prev: 25 + 80 = 105, tied with thread 2
  EXPECT_EQ(l.pick_next(0, 0), 0) << "a tie goes to prev (algorithm 4, lines 5-9)";
  l.charge(0, 1);  // prev 104 < 105
  EXPECT_EQ(l.pick_next(0, 0), 2) << "a strictly better ready thread wins";
  EXPECT_EQ(l.processor(2), 0) << "the chosen thread's processor is this CPU (line 24)";
  EXPECT_EQ(l.ready().size(), 1u) << "the chosen thread leaves the ready list; thread 1 stays";
}

TEST(Linux24Schedule, EqualReadyThreadsGoInTheOrderTheyBecameReady) {
  FakeHost host(1, {0, 1, 2});
  auto l = make_linux(host);
  l.enqueue(2, ReadyReason::Start);
  l.enqueue(0, ReadyReason::Start);
  l.enqueue(1, ReadyReason::Woken);
  EXPECT_EQ(l.pick_next(0, std::nullopt), 2) << "all 100: the first in the list";
  EXPECT_EQ(l.pick_next(0, std::nullopt), 0);
  EXPECT_EQ(l.pick_next(0, std::nullopt), 1);
  EXPECT_FALSE(l.pick_next(0, std::nullopt).has_value()) << "nothing ready, no prev: the CPU idles";
}

TEST(Linux24Epoch, WhenTheBestGoodnessIsZeroEveryTaskGetsHalfItsCounterPlusTheQuantum) {
  // Thread 0 runs on CPU 0 and exhausts its counter; thread 1 is ready with 0; thread 2 is blocked (never
  // enqueued) with 41 left; thread 3 runs on CPU 1 with 60 left.
  FakeHost host(2, {0, 1, 2, 3});
  auto l = make_linux(host);
  place(l, host, 0, 0);
  place(l, host, 3, 1);
  l.charge(0, 100);
  l.enqueue(1, ReadyReason::Start);
  l.charge(1, 100);
  l.charge(2, 59);
  l.charge(3, 40);
  // The best on CPU 0 is 0: prev and thread 1 are exhausted. New epoch, then prev 100 + 75 + 5 = 180 wins.
  EXPECT_EQ(l.pick_next(0, 0), 0);
  EXPECT_EQ(l.epochs(), 1);
  EXPECT_EQ(l.counter(0), 100) << "0 / 2 + 100";
  EXPECT_EQ(l.counter(1), 100);
  EXPECT_EQ(l.counter(2), 120) << "a blocked task is refreshed too: 41 / 2 (integer) + 100";
  EXPECT_EQ(l.counter(3), 130) << "a running task too: 60 / 2 + 100";
  EXPECT_EQ(host.settles, 1) << "running tasks are charged up to now before the epoch";
  EXPECT_EQ(host.slice_changes, 1) << "the machine is told that running slices changed";
}

TEST(Linux24RescheduleIdle, PreviousCpuWhenIdleElseTheLeastRecentlyActiveIdleCpu) {
  FakeHost host(4, {0, 1, 2, 3});
  auto l = make_linux(host);
  place(l, host, 0, 2);  // thread 0's processor is CPU 2
  host.idle(2, 50);
  host.idle(0, 40);
  host.idle(1, 10);
  host.run(3, 3);
  l.enqueue(0, ReadyReason::Woken);
  EXPECT_EQ(l.reschedule_idle(0, 3), 2) << "its previous CPU is idle (algorithm 2, lines 4-5)";
  host.run(2, 2);
  EXPECT_EQ(l.reschedule_idle(0, 3), 1) << "else the idle CPU idle the longest: CPU 1 since cycle 10";
}

TEST(Linux24RescheduleIdle, PreemptsTheCpuWithTheLargestGoodnessDifferenceAboveTheThreshold) {
  // No idle CPU. CPU 0 runs thread 1 (counter 100, own CPU: 180), CPU 1 runs thread 2 with counter 10 on its
  // own CPU: 10 + 75 + 5 = 90. Woken thread 0 (100, never ran) scores 100 on either CPU.
  FakeHost host(2, {0, 1, 2});
  auto l = make_linux(host);
  place(l, host, 1, 0);
  place(l, host, 2, 1);
  l.charge(2, 90);
  l.enqueue(0, ReadyReason::Woken);
  EXPECT_EQ(l.reschedule_idle(0, 0), 1)
      << "100 - 90 = 10 > PREEMPTION_THRESHOLD 5 on CPU 1; 100 - 180 on CPU 0";
  l.charge(0, 5);  // 95 - 90 = 5: not above the threshold
  EXPECT_FALSE(l.reschedule_idle(0, 0).has_value()) << "the difference must exceed the threshold strictly";
}

// Thesis 6.6.1: four tasks t0..t3 wake on 8 CPUs; t_i.processor = c_i, c0..c3 busy, c4..c7 idle, c7 the least
// recently active. Threads 0-3 are the waking tasks, 4-7 run on c0..c3.
struct LostCpuState {
  FakeHost host{8, {0, 0, 0, 0, 1, 2, 3, 4}};
};

std::vector<CpuId> wake_lost_cpu_scenario(WakeupScheme scheme) {
  LostCpuState s;
  auto l = make_linux(s.host, scheme);
  for (int i = 0; i < 4; ++i) place(l, s.host, i, i);  // t_i ran on c_i
  for (int i = 0; i < 4; ++i) s.host.run(i, 4 + i);    // now c_i runs another task with a full counter
  for (int i = 0; i < 4; ++i) l.charge(4 + i, 0);
  s.host.idle(4, 30);
  s.host.idle(5, 20);
  s.host.idle(6, 10);
  s.host.idle(7, 5);
  for (int i = 0; i < 4; ++i) l.enqueue(i, ReadyReason::Woken);
  return l.wake({0, 1, 2, 3}, 0);
}

TEST(Linux24Wakeup, SillyMapsEveryWakingTaskToTheSameIdleCpuAndLosesThreeCpus) {
  // Each t_i: c_i busy; the least recently active idle CPU is c7, which stays idle during the whole loop.
  EXPECT_EQ(wake_lost_cpu_scenario(WakeupScheme::Silly), (std::vector<CpuId>{7, 7, 7, 7}))
      << "only c7's need_resched is set: c4, c5 and c6 are lost";
}

TEST(Linux24Wakeup, AipAndSmartGiveEachWakingTaskItsOwnIdleCpu) {
  // AIP skips idle CPUs whose need_resched is set: c7, then c6 (idle since 10), c5, c4.
  EXPECT_EQ(wake_lost_cpu_scenario(WakeupScheme::Aip), (std::vector<CpuId>{7, 6, 5, 4}));
  // SMART: no previous CPU is idle; the idle CPUs in order of their idleness.
  EXPECT_EQ(wake_lost_cpu_scenario(WakeupScheme::Smart), (std::vector<CpuId>{7, 6, 5, 4}));
}

// Two CPUs, no idle one. CPU 0 runs thread 2 with counter 10 (90 with its bonuses), CPU 1 runs thread 3 with
// counter 5 (85). Waking threads 0 and 1 (100 each, never ran, another address space) may preempt either:
// differences 10 on CPU 0 and 15 on CPU 1, both above PREEMPTION_THRESHOLD 5.
std::vector<CpuId> wake_two_preemptions(WakeupScheme scheme, AipSearch aip) {
  FakeHost host(2, {0, 0, 2, 3});
  auto l = make_linux(host, scheme, aip);
  place(l, host, 2, 0);
  place(l, host, 3, 1);
  l.charge(2, 90);  // goodness(2, 0) = 10 + 75 + 5 = 90
  l.charge(3, 95);  // goodness(3, 1) = 5 + 75 + 5 = 85
  l.enqueue(0, ReadyReason::Woken);
  l.enqueue(1, ReadyReason::Woken);
  return l.wake({0, 1}, 0);
}

TEST(Linux24Wakeup, LiteralAipStillLetsTwoTasksPreemptTheSameBusyCpu) {
  // Literal AIP: only the idle search skips flagged CPUs; both tasks pick CPU 1 (difference 15).
  EXPECT_EQ(wake_two_preemptions(WakeupScheme::Aip, AipSearch::IdleOnly), (std::vector<CpuId>{1, 1}));
  // The other reading skips the flagged CPU 1 in the preemption search too: the second task gets CPU 0.
  EXPECT_EQ(wake_two_preemptions(WakeupScheme::Aip, AipSearch::IdleAndPreemption),
            (std::vector<CpuId>{1, 0}));
  EXPECT_EQ(wake_two_preemptions(WakeupScheme::Silly, AipSearch::IdleOnly), (std::vector<CpuId>{1, 1}));
}

TEST(Linux24Wakeup, SmartAssignsBusyCpusByDecreasingGoodnessDifference) {
  // TRI = {(10, t0, c0), (15, t0, c1), (10, t1, c0), (15, t1, c1)}: (15, t0, c1) first (ties by wake order),
  // then t1 takes c0 with 10.
  EXPECT_EQ(wake_two_preemptions(WakeupScheme::Smart, AipSearch::IdleOnly), (std::vector<CpuId>{1, 0}));
}

TEST(Linux24Wakeup, CpusAlreadyFlaggedAreNotReassignedBySmart) {
  LostCpuState s;
  auto l = make_linux(s.host, WakeupScheme::Smart);
  for (int i = 0; i < 4; ++i) place(l, s.host, i, i);
  for (int i = 0; i < 4; ++i) s.host.run(i, 4 + i);
  s.host.idle(4, 30);
  s.host.idle(5, 20);
  s.host.idle(6, 10);
  s.host.idle(7, 5);
  s.host.flag(7);  // c7 will reschedule anyway
  for (int i = 0; i < 2; ++i) l.enqueue(i, ReadyReason::Woken);
  EXPECT_EQ(l.wake({0, 1}, 0), (std::vector<CpuId>{6, 5}));
}

}  // namespace
}  // namespace cosched::sched
