// Linux's fair scheduler as an SMP policy (docs/models/linux-fair.md section 8): a run queue per CPU, fork
// placement, the wake-up CPU choice, load balancing.

#include "sched/smp/fair.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "smp_test_support.hpp"

namespace cosched::sched {
namespace {

constexpr Cycles kUs = 1'000;
constexpr Cycles kMs = 1'000'000;

class FakeHost final : public SmpHost {
 public:
  explicit FakeHost(int cpus, int threads) : views_(static_cast<std::size_t>(cpus)), threads_(threads) {}
  int cpu_count() const override { return static_cast<int>(views_.size()); }
  const CpuView& cpu(CpuId cpu) const override { return views_[static_cast<std::size_t>(cpu)]; }
  int thread_count() const override { return threads_; }
  int address_space(ThreadId) const override { return 0; }
  int nice(ThreadId thread) const override {
    return static_cast<std::size_t>(thread) < nices_.size() ? nices_[static_cast<std::size_t>(thread)] : 0;
  }
  void settle_running() override {}
  void slices_changed() override { ++slices_changed_; }
  Cycles now() const override { return now_; }
  void resched_cpu(CpuId cpu) override { resched_.push_back(cpu); }

  Cycles now_ = 0;
  std::vector<int> nices_;
  int slices_changed_ = 0;
  std::vector<CpuId> resched_;

 private:
  std::vector<CpuView> views_;
  int threads_;
};

fair::Settings settings(int cpus, const char* version = "6.12") {
  return fair::Settings::of(*fair::kernel_version(version), cpus, fair::TunableScaling::Log, 1000);
}

struct Machine {
  Machine(int cpus, int threads) : host(cpus, threads), policy(settings(cpus), cpus, 500 * kUs) {
    policy.attach(host);
    for (ThreadId t = 0; t < threads; ++t) policy.enqueue(t, ReadyReason::Start);
  }
  FakeHost host;
  SmpFair policy;
};

TEST(SmpFair, NewThreadsGoToTheLeastLoadedCpu) {
  Machine m(2, 5);
  EXPECT_EQ(m.policy.cpu_of(0), 0);
  EXPECT_EQ(m.policy.cpu_of(1), 1);
  EXPECT_EQ(m.policy.cpu_of(2), 0);
  EXPECT_EQ(m.policy.cpu_of(3), 1);
  EXPECT_EQ(m.policy.cpu_of(4), 0);
  EXPECT_EQ(m.policy.ready_count(), 5u);
  EXPECT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  EXPECT_EQ(m.policy.pick_next(1, std::nullopt), 1);
  EXPECT_EQ(m.policy.ready_count(), 3u);
}

TEST(SmpFair, AWokenThreadGoesToItsPreviousCpuIfIdleElseTheFirstIdleOneElseItsPrevious) {
  Machine m(3, 3);
  for (CpuId c = 0; c < 3; ++c) ASSERT_EQ(m.policy.pick_next(c, std::nullopt), c);
  // Thread 1 blocks: CPU 1 goes idle. It wakes back on CPU 1, idle, which must reschedule.
  m.host.now_ = 1 * kMs;
  EXPECT_EQ(m.policy.pick_next(1, std::nullopt), std::nullopt);
  m.policy.enqueue(1, ReadyReason::Woken);
  EXPECT_EQ(m.policy.wake({1}, 0), std::vector<CpuId>{1});
  EXPECT_EQ(m.policy.cpu_of(1), 1);
  ASSERT_EQ(m.policy.pick_next(1, std::nullopt), 1);
  // Thread 0 blocks, then thread 2 blocks; thread 0 wakes: CPU 0 is idle (its previous). Thread 2 wakes while
  // CPU 2 is idle too: its previous.
  m.host.now_ = 2 * kMs;
  EXPECT_EQ(m.policy.pick_next(0, std::nullopt), std::nullopt);
  EXPECT_EQ(m.policy.pick_next(2, std::nullopt), std::nullopt);
  EXPECT_EQ(m.policy.wake({0}, 1), std::vector<CpuId>{0});
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  // Now CPU 2 idle only. Thread 1 (on CPU 1) blocks and wakes while CPU 1 is idle: CPU 1. Make CPU 1 busy
  // by waking 2 there first: 2's previous CPU 2 is idle, so it goes there.
  EXPECT_EQ(m.policy.wake({2}, 0), std::vector<CpuId>{2});
  EXPECT_EQ(m.policy.cpu_of(2), 2);
}

TEST(SmpFair, AWakeUpWithNoIdleCpuStaysOnItsPreviousCpuAndPreemptsOnlyIfItWinsThePick) {
  Machine m(2, 4);
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  ASSERT_EQ(m.policy.pick_next(1, std::nullopt), 1);
  // Thread 0 blocks at 0.1 ms; CPU 0 picks thread 2.
  m.host.now_ = 100 * kUs;
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 2);
  // It wakes at 0.2 ms: no CPU is idle, so CPU 0, whose running thread 2 (just picked, its first request
  // protected) keeps the CPU.
  m.host.now_ = 200 * kUs;
  m.policy.enqueue(0, ReadyReason::Woken);
  EXPECT_TRUE(m.policy.wake({0}, 1).empty());
  EXPECT_EQ(m.policy.cpu_of(0), 0);
  EXPECT_GE(m.host.slices_changed_, 1) << "CPU 0's queue grew: its running thread's slice may end sooner";
}

TEST(SmpFair, ACpuGoingIdlePullsAThreadThatIsNotCacheHot) {
  Machine m(2, 4);  // threads 0, 2 on CPU 0; 1, 3 on CPU 1
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  ASSERT_EQ(m.policy.pick_next(1, std::nullopt), 1);
  // Thread 3 never ran: not cache hot. When thread 0 blocks and thread 2 has run and blocked too, CPU 0 is
  // empty: it pulls thread 3 from CPU 1 (two runnable there).
  m.host.now_ = 1 * kMs;
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 2);
  m.host.now_ = 2 * kMs;
  EXPECT_EQ(m.policy.pick_next(0, std::nullopt), 3);
  EXPECT_EQ(m.policy.cpu_of(3), 0);
  EXPECT_EQ(m.policy.migrations(), 1);
}

TEST(SmpFair, ACacheHotThreadIsNotPulledWhenACpuGoesIdle) {
  Machine m(2, 3);  // threads 0, 2 on CPU 0; 1 on CPU 1
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  ASSERT_EQ(m.policy.pick_next(1, std::nullopt), 1);
  // Thread 0 is preempted at 1 ms (it ran until now: hot) and thread 2 runs on CPU 0.
  m.host.now_ = 1 * kMs;
  ASSERT_EQ(m.policy.pick_next(0, 0), 2);
  // Thread 1 blocks 0.2 ms later: thread 0 ran 0.2 ms ago, under the 0.5 ms migration cost.
  m.host.now_ = 1200 * kUs;
  EXPECT_EQ(m.policy.pick_next(1, std::nullopt), std::nullopt);
  EXPECT_EQ(m.policy.cpu_of(0), 0);
  // The periodic balance of idle CPU 1 (every 2 ms on 2 CPUs, the domain's weight in ms) finds it still hot at
  // 2 ms? No: 1 ms since it ran; cold by then, and pulled; CPU 1, idle, must reschedule.
  ASSERT_EQ(m.policy.next_change(), 2 * kMs);
  m.host.now_ = 2 * kMs;
  m.policy.change(2 * kMs);
  EXPECT_EQ(m.policy.cpu_of(0), 1);
  EXPECT_EQ(m.host.resched_, std::vector<CpuId>{1});
}

TEST(SmpFair, PeriodicBalanceLeavesOneThreadOfDifferenceAlone) {
  Machine m(2, 3);  // threads 0, 2 on CPU 0; 1 on CPU 1: two against one
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  ASSERT_EQ(m.policy.pick_next(1, std::nullopt), 1);
  m.host.now_ = 2 * kMs;
  m.policy.change(2 * kMs);
  EXPECT_EQ(m.policy.migrations(), 0);
  EXPECT_EQ(m.policy.cpu_of(2), 0);
  // Busy CPUs balance 16 times less often: 2 ms x 16 less a jiffy (1 ms at HZ 1000).
  EXPECT_EQ(m.policy.next_change(), 2 * kMs + 31 * kMs);
}

TEST(SmpFair, TheSliceEndsAtTheTickThatFindsTheRequestDone) {
  // 6.12 on 2 CPUs: 1.5 ms requests, a new thread's first one 0.75 ms; HZ 1000.
  Machine m(2, 4);
  ASSERT_EQ(m.policy.pick_next(0, std::nullopt), 0);
  EXPECT_EQ(m.policy.time_slice(0), 1 * kMs);
  // Alone on its CPU a thread runs until an event.
  Machine alone(2, 2);
  ASSERT_EQ(alone.policy.pick_next(0, std::nullopt), 0);
  EXPECT_GT(alone.policy.time_slice(0), 1000 * kMs);
}

TEST(SmpFair, WithSkewTickEachCpuTicksAtItsOwnOffset) {
  // HZ 1000 on 2 CPUs: skew_tick puts CPU 1's ticks 0.25 ms (TICK_NSEC / 2 / 2) after CPU 0's. A new thread's
  // first request (0.75 ms) ends at the first tick after it: 1 ms on CPU 0, 1.25 ms on CPU 1.
  FakeHost host(2, 4);
  SmpFair policy(settings(2), 2, 500 * kUs, true);
  policy.attach(host);
  for (ThreadId t = 0; t < 4; ++t) policy.enqueue(t, ReadyReason::Start);
  ASSERT_EQ(policy.pick_next(0, std::nullopt), 0);
  ASSERT_EQ(policy.pick_next(1, std::nullopt), 1);
  EXPECT_EQ(policy.time_slice(0), 1 * kMs);
  EXPECT_EQ(policy.time_slice(1), 1250 * kUs);
}

TEST(SmpFair, NiceWeighsAThreadAsTheKernelsTable) {
  // Nice 0 against nice 5 on one CPU: 1024 against 335 (sched_prio_to_weight), within 1% over 2 s.
  FakeHost host(1, 2);
  host.nices_ = {0, 5};
  SmpFair policy(settings(1), 1, 500 * kUs);
  policy.attach(host);
  policy.enqueue(0, ReadyReason::Start);
  policy.enqueue(1, ReadyReason::Start);
  std::optional<ThreadId> current = policy.pick_next(0, std::nullopt);
  Cycles ran[2] = {0, 0};
  while (host.now_ < 2000 * kMs) {
    ASSERT_TRUE(current);
    const Cycles slice = policy.time_slice(*current);
    host.now_ += slice;
    ran[*current] += slice;
    current = policy.pick_next(0, current);
  }
  const double expected = 1024.0 / 335.0;
  EXPECT_NEAR(static_cast<double>(ran[0]) / static_cast<double>(ran[1]), expected, 0.01 * expected);
}

TEST(SmpFair, AJobsNiceAndTheBusyThreadsNiceReachThePolicy) {
  // The scenario's workload.jobs[i].nice and workload.nosync_nice, through the machine: the job at nice -5
  // against 3 busy threads at nice 5 on 2 CPUs completes far sooner than with everyone at nice 0.
  const auto run = [](std::vector<std::string> sets) {
    sets.insert(sets.end(), {"workload.jobs.0.barriers=50", "workload.jobs.0.wait={algorithm: block}"});
    return *testing::run_scenario("scenarios/linux/smp-2cpu.yaml", sets)->outcomes().at(0).completion_time;
  };
  const Cycles even = run({});
  const Cycles favoured = run({"workload.jobs.0.nice=-5", "workload.nosync_nice=5"});
  EXPECT_LT(static_cast<double>(favoured), 0.6 * static_cast<double>(even));
}

}  // namespace
}  // namespace cosched::sched
