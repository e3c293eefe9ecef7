// The SMP machine running a job's user-level runtime (docs/models/smp.md, "User-level scheduling"): a loop
// job on dedicated CPUs ends when the hand-derived schedule says, and a fake runtime walks the machine
// through the contract's WaitForWork and work_available() (userlevel/job_runtime.hpp). Each expected cycle is
// worked out in the comment above it.

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sched/smp/round_robin.hpp"
#include "smp/machine.hpp"
#include "userlevel/job_runtime.hpp"
#include "wait/smp/smp_wait.hpp"
#include "workload/userlevel_kinds.hpp"

namespace cosched::smp {
namespace {

constexpr Cycles kLongQuantum = 1'000'000'000'000;  // no preemption within these runs

JobInstance loop_job(int threads, config::SmpLoop loop, wait::Cycles spin) {
  JobInstance job{"L", 0, threads, 1, 0.0, 0.0, std::make_shared<wait::FixedSpin>(spin), {}};
  job.make_runtime = [loop, threads] { return userlevel::make_loop_runtime(loop, threads, 1); };
  return job;
}

config::SmpLoop seed_loop(const std::string& schedule) {
  // The seed's example: 1000 iterations, chunk 2, iteration 1 10 s (1e10 cycles at 1 GHz), the others 1000.
  config::SmpLoop loop;
  loop.iterations = 1000;
  loop.cost = workload::Distribution::constant(1000);
  loop.exceptions = {{1, 1e10}};
  loop.schedule = workload::loop_schedule_named(schedule).value();
  loop.chunk = 2;
  loop.dispatch = 50;
  return loop;
}

Machine dedicated(std::vector<JobInstance> jobs, int cpus, Cycles quantum = kLongQuantum) {
  MachineConfig config;
  config.cpus = cpus;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs = std::move(jobs);
  return Machine(std::move(config), std::make_unique<sched::RoundRobin>(quantum));
}

void run_to_end(Machine& m) {
  while (m.run_until(m.now() + 1'000'000'000'000)) {
  }
}

TEST(SmpLoopMachine, SeedExampleStaticOnDedicatedCpus) {
  // Both threads run from cycle 1 (cs_in 1). Thread 0's static chunks hold the slow iteration: 10 000 499 000
  // cycles of work, Done at 10 000 499 001, the arrival's cycle to 10 000 499 002, where it completes the
  // barrier; thread 1, spinning since 500 002 on CPU 1 (after the completer's), succeeds in that same cycle.
  auto m = dedicated({loop_job(2, seed_loop("static"), 1'000'000'000'000)}, 2);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].completion_time, 10'000'499'002);
  EXPECT_EQ(m.outcomes()[0].successful_spins, 1);
  EXPECT_EQ(m.runtime(0)->stats(0).iterations, 500);
}

TEST(SmpLoopMachine, SeedExampleDynamicWinsOnDedicatedCpus) {
  // Thread 0 takes [0,2) at cycle 1: 50 + 1000 + 1e10 cycles, Done at 10 000 001 051, arrival at ...052.
  // Thread 1 runs the other 499 chunks (2050 cycles each) and spins from 1 022 952.
  auto m = dedicated({loop_job(2, seed_loop("dynamic"), 1'000'000'000'000)}, 2);
  run_to_end(m);
  EXPECT_EQ(m.outcomes()[0].completion_time, 10'000'001'052);
  EXPECT_EQ(m.runtime(0)->stats(1).chunks, 499);
  EXPECT_EQ(m.runtime(0)->stats(1).dispatch_cycles, 499 * 50);
}

TEST(SmpLoopMachine, EqualIterationsDynamicLosesByItsDispatchCosts) {
  // 1000 iterations of 1000 cycles. Static: each thread's 500 000 cycles from cycle 1, Done at 500 001, both
  // arrive at 500 002; thread 0 (CPU 0) first, spinning; thread 1 completes the barrier, and thread 0's poll
  // sees it at the next cycle (its CPU comes before the completer's): 500 003. Dynamic chunk 1, dispatch 50:
  // 500 chunks of 1050 each, every time 25 000 cycles later: 525 003.
  auto equal = [](const std::string& schedule) {
    config::SmpLoop loop;
    loop.iterations = 1000;
    loop.cost = workload::Distribution::constant(1000);
    loop.schedule = workload::loop_schedule_named(schedule).value();
    loop.chunk = schedule == "static" ? 0 : 1;
    loop.dispatch = 50;
    return loop;
  };
  auto s = dedicated({loop_job(2, equal("static"), 1'000'000)}, 2);
  run_to_end(s);
  auto d = dedicated({loop_job(2, equal("dynamic"), 1'000'000)}, 2);
  run_to_end(d);
  EXPECT_EQ(s.outcomes()[0].completion_time, 500'003);
  EXPECT_EQ(d.outcomes()[0].completion_time, 525'003);
}

// A runtime scripted by hand: thread 0 works 100 cycles, then 50, and makes work appear when it asks the
// second time; thread 1 is told to wait until then, then works 30 cycles. Every call is logged.
class ScriptedRuntime final : public userlevel::JobRuntime {
 public:
  userlevel::Next next(int thread, int phase, userlevel::Cycles now) override {
    calls.emplace_back(thread, phase, now);
    using Kind = userlevel::Next::Kind;
    if (thread == 0) {
      ++asked0_;
      if (asked0_ == 1) return {Kind::Work, 100};
      if (asked0_ == 2) {
        available_ = true;
        return {Kind::Work, 50};
      }
      return {Kind::Done, 0};
    }
    ++asked1_;
    if (!available_ && asked1_ == 1) return {Kind::WaitForWork, 0};
    if (available_) {
      available_ = false;
      return {Kind::Work, 30};
    }
    return {Kind::Done, 0};
  }
  bool work_available() const override { return available_; }
  const userlevel::ThreadStats& stats(int) const override { return stats_; }

  std::vector<std::tuple<int, int, userlevel::Cycles>> calls;

 private:
  int asked0_ = 0, asked1_ = 0;
  bool available_ = false;
  userlevel::ThreadStats stats_;
};

TEST(SmpLoopMachine, WorkAvailableReasksThePollingThreadOnItsCpu) {
  // Cycle 1: thread 0 asks (100 cycles), thread 1 asks and polls. Cycle 101: thread 0 asks again (50 more)
  // and work appears: thread 1, polling on CPU 1, is asked at once (30 cycles). 131: thread 1 is done,
  // arrives at 132 and spins; 151: thread 0 is done, arrives at 152 and completes the barrier; thread 1's
  // poll on CPU 1 comes after the completer's CPU and succeeds at 152.
  ScriptedRuntime* script = nullptr;
  JobInstance job{"F", 0, 2, 1, 0.0, 0.0, std::make_shared<wait::FixedSpin>(1000), {}};
  job.make_runtime = [&script] {
    auto runtime = std::make_unique<ScriptedRuntime>();
    script = runtime.get();
    return runtime;
  };
  auto m = dedicated({job}, 2);
  m.record_trace(true);
  m.record_timeline();
  run_to_end(m);
  using Call = std::tuple<int, int, userlevel::Cycles>;
  EXPECT_EQ(script->calls,
            (std::vector<Call>{{0, 0, 1}, {1, 0, 1}, {0, 0, 101}, {1, 0, 101}, {1, 0, 131}, {0, 0, 151}}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 152);
  EXPECT_EQ(m.outcomes()[0].total_spins, 1) << "polling for work is not a barrier spin";
  auto noted = [&m](TraceKind kind, Cycles time, ThreadId thread) {
    for (const auto& e : m.trace())
      if (e.kind == kind && e.time == time && e.thread == thread) return true;
    return false;
  };
  EXPECT_TRUE(noted(TraceKind::Poll, 1, 1));
  EXPECT_TRUE(noted(TraceKind::Work, 101, 1));
  // Thread 1's timeline: switching 0-1, polling on CPU 1 from 1 to 101, computing 101-132, spinning to 152.
  const auto lanes = m.timeline();
  ASSERT_EQ(lanes.size(), 2u);
  const auto polling = static_cast<int>(TimelineState::Polling);
  EXPECT_EQ(ThreadTimeline::state_names(true).at(polling), "polling");
  EXPECT_NE(std::find(lanes[1].intervals.begin(), lanes[1].intervals.end(),
                      metrics::TimelineInterval{1, 101, polling, 1}),
            lanes[1].intervals.end())
      << "thread 1 polls on CPU 1 from cycle 1 to 101";
  EXPECT_EQ(ThreadTimeline::state_names().size(), 7u)
      << "runs without a runtime name the thesis's states only";
}

// Thread 0 is told to wait; thread 1 works 10 cycles and, asking again, is done and makes work appear while
// thread 0 is off its CPU; thread 0 then works 5 cycles.
class OffCpuRuntime final : public userlevel::JobRuntime {
 public:
  userlevel::Next next(int thread, int phase, userlevel::Cycles now) override {
    calls.emplace_back(thread, phase, now);
    using Kind = userlevel::Next::Kind;
    if (thread == 1) {
      if (++asked1_ == 1) return {Kind::Work, 10};
      available_ = true;
      return {Kind::Done, 0};
    }
    if (!available_ && !given0_) return {Kind::WaitForWork, 0};
    if (available_) {
      available_ = false;
      given0_ = true;
      return {Kind::Work, 5};
    }
    return {Kind::Done, 0};
  }
  bool work_available() const override { return available_; }
  const userlevel::ThreadStats& stats(int) const override { return stats_; }

  std::vector<std::tuple<int, int, userlevel::Cycles>> calls;

 private:
  int asked1_ = 0;
  bool given0_ = false, available_ = false;
  userlevel::ThreadStats stats_;
};

TEST(SmpLoopMachine, APollingThreadAsksAgainWhenSwitchedIn) {
  // One CPU, quantum 100, spin 0 (arrivals block). Thread 0 runs from 1 and polls until its quantum ends at
  // 101; cs_out to 102, thread 1 switched in, runs from 103 (10 cycles); at 113 it is done (work appears, no
  // polling thread is on a CPU), arrives at 114 and blocks: cs_out to 115, thread 0 switched in, runs from
  // 116 and asks again: 5 cycles; at 121 it is done, arrives at 122 and completes the barrier, finishing;
  // cs_out to 123, thread 1 (woken) switched in, finishes at 124.
  OffCpuRuntime* script = nullptr;
  JobInstance job{"F", 0, 2, 1, 0.0, 0.0, std::make_shared<wait::FixedSpin>(0), {}};
  job.make_runtime = [&script] {
    auto runtime = std::make_unique<OffCpuRuntime>();
    script = runtime.get();
    return runtime;
  };
  auto m = dedicated({job}, 1, 100);
  run_to_end(m);
  using Call = std::tuple<int, int, userlevel::Cycles>;
  EXPECT_EQ(script->calls,
            (std::vector<Call>{{0, 0, 1}, {1, 0, 103}, {1, 0, 113}, {0, 0, 116}, {0, 0, 121}}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 124);
}

}  // namespace
}  // namespace cosched::smp
