// The parallel-loop runtime (docs/models/smp.md, "Parallel loops"): OpenMP 5.2's schedules (11.5.3) on cases
// small enough to assign by hand, and the seed's example driven on dedicated CPUs (each thread asks again the
// moment its work ends; equal times in thread order, as the machine's CPU order). No machine here: the
// machine-level tests are in smp_loop_machine_test.cpp.

#include "userlevel/loop_runtime.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "workload/userlevel_kinds.hpp"

namespace cosched::userlevel {
namespace {

config::SmpLoop loop(std::int64_t iterations, double cost, const std::string& schedule, std::int64_t chunk,
                     Cycles dispatch) {
  config::SmpLoop l;
  l.iterations = iterations;
  l.cost = workload::Distribution::constant(cost);
  l.schedule = workload::loop_schedule_named(schedule).value();  // a test names a schedule in its table
  l.chunk = chunk;
  l.dispatch = dispatch;
  return l;
}

struct Driven {
  std::vector<Cycles> done_at;  // per thread: when next() said Done
};

// Runs phase `phase` on dedicated CPUs from time `start`: every thread asks at `start`, then again when its
// work ends; asks at equal times go in thread order.
Driven drive(JobRuntime& runtime, int threads, int phase = 0, Cycles start = 0) {
  Driven out;
  out.done_at.assign(threads, -1);
  std::multimap<std::pair<Cycles, int>, int> asks;  // (time, thread)
  for (int t = 0; t < threads; ++t) asks.emplace(std::make_pair(start, t), t);
  while (!asks.empty()) {
    auto [key, thread] = *asks.begin();
    asks.erase(asks.begin());
    const Next next = runtime.next(thread, phase, key.first);
    if (next.kind == Next::Kind::Done) {
      out.done_at[thread] = key.first;
      continue;
    }
    EXPECT_EQ(next.kind, Next::Kind::Work) << "a loop never answers WaitForWork";
    EXPECT_GT(next.cycles, 0);
    asks.emplace(std::make_pair(key.first + next.cycles, thread), thread);
  }
  return out;
}

TEST(LoopSchedule, StaticWithChunkIsRoundRobinInThreadOrder) {
  // 10 iterations, chunks of 3, 2 threads: [0,3) [3,6) [6,9) [9,10), the last shorter (11.5.3).
  EXPECT_EQ(static_chunk(10, 3, 2, 0, 0).begin, 0);
  EXPECT_EQ(static_chunk(10, 3, 2, 0, 0).end, 3);
  EXPECT_EQ(static_chunk(10, 3, 2, 1, 0).begin, 3);
  EXPECT_EQ(static_chunk(10, 3, 2, 0, 1).begin, 6);
  EXPECT_EQ(static_chunk(10, 3, 2, 0, 1).end, 9);
  EXPECT_EQ(static_chunk(10, 3, 2, 1, 1).begin, 9);
  EXPECT_EQ(static_chunk(10, 3, 2, 1, 1).end, 10) << "the chunk of the last iteration has fewer";
  EXPECT_EQ(static_chunk(10, 3, 2, 0, 2).end, static_chunk(10, 3, 2, 0, 2).begin) << "none left";
}

TEST(LoopSchedule, StaticWithoutChunkGivesOneContiguousBlockPerThreadTheFirstOnesLarger) {
  // 10 iterations on 3 threads: 10 = 3 x 3 + 1, thread 0 gets the extra one: [0,4) [4,7) [7,10).
  EXPECT_EQ(static_chunk(10, 0, 3, 0, 0).begin, 0);
  EXPECT_EQ(static_chunk(10, 0, 3, 0, 0).end, 4);
  EXPECT_EQ(static_chunk(10, 0, 3, 1, 0).begin, 4);
  EXPECT_EQ(static_chunk(10, 0, 3, 1, 0).end, 7);
  EXPECT_EQ(static_chunk(10, 0, 3, 2, 0).begin, 7);
  EXPECT_EQ(static_chunk(10, 0, 3, 2, 0).end, 10);
  EXPECT_EQ(static_chunk(10, 0, 3, 0, 1).end, static_chunk(10, 0, 3, 0, 1).begin) << "one block only";
}

std::vector<std::int64_t> shared_sizes(bool guided, std::int64_t iterations, std::int64_t chunk,
                                       int threads) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t next = 0;;) {
    const Chunk c = shared_chunk(guided, iterations, chunk, threads, next);
    if (c.end == c.begin) return sizes;
    EXPECT_EQ(c.begin, next);
    sizes.push_back(c.end - c.begin);
    next = c.end;
  }
}

TEST(LoopSchedule, DynamicChunksAreChunkSizeDefaultOneTheLastShorter) {
  EXPECT_EQ(shared_sizes(false, 5, 0, 2), (std::vector<std::int64_t>{1, 1, 1, 1, 1}));
  EXPECT_EQ(shared_sizes(false, 10, 4, 2), (std::vector<std::int64_t>{4, 4, 2}));
}

TEST(LoopSchedule, GuidedChunksAreCeilOfRemainingOverThreadsAtLeastChunk) {
  // 100 iterations, 4 threads: ceil(100/4) = 25, ceil(75/4) = 19, ceil(56/4) = 14, ceil(42/4) = 11,
  // ceil(31/4) = 8, ceil(23/4) = 6, ceil(17/4) = 5, ceil(12/4) = 3, ceil(9/4) = 3, ceil(6/4) = 2, then 1s.
  EXPECT_EQ(shared_sizes(true, 100, 0, 4),
            (std::vector<std::int64_t>{25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1}));
  // With chunk 5: at least 5 once ceil(left/4) falls below it, except the last (2 left).
  EXPECT_EQ(shared_sizes(true, 100, 5, 4), (std::vector<std::int64_t>{25, 19, 14, 11, 8, 6, 5, 5, 5, 2}));
}

// The seed's example: 1000 iterations, schedule(static, 2), 2 threads, iteration 1 sleeps 10 s. At 1 GHz the
// slow iteration is 1e10 cycles; the others cost 1000.
config::SmpLoop seed_example(const std::string& schedule, Cycles dispatch) {
  auto l = loop(1000, 1000, schedule, 2, dispatch);
  l.exceptions = {{1, 1e10}};
  return l;
}

TEST(LoopRuntime, SeedExampleStaticThreadZeroCarriesTheSlowIteration) {
  // Static chunk 2: thread 0 runs chunks 0, 2, 4, ... = iterations {0, 1, 4, 5, ...}: 500 of them including
  // the slow one, 499 x 1000 + 1e10 = 10 000 499 000 cycles; thread 1 runs 500 x 1000 = 500 000. Static pays
  // no dispatch.
  auto runtime = make_loop_runtime(seed_example("static", 50), 2, 7);
  const auto driven = drive(*runtime, 2);
  EXPECT_EQ(driven.done_at[0], 10'000'499'000);
  EXPECT_EQ(driven.done_at[1], 500'000);
  EXPECT_EQ(runtime->stats(0).iterations, 500);
  EXPECT_EQ(runtime->stats(0).chunks, 250);
  EXPECT_EQ(runtime->stats(1).iterations, 500);
  EXPECT_EQ(runtime->stats(0).dispatches, 0) << "static takes nothing from a shared counter";
  EXPECT_EQ(runtime->stats(0).dispatch_cycles, 0);
}

TEST(LoopRuntime, SeedExampleDynamicWins) {
  // Dynamic chunk 2, dispatch 50: at 0 thread 0 takes [0,2) (50 + 1000 + 1e10 = 10 000 001 050 cycles) and
  // thread 1 takes [2,4); thread 1 then takes every other chunk, 499 chunks of 50 + 2000: done at 1 022 950.
  // Thread 0 asks again at 10 000 001 050 and finds none left: the loop ends there, 497 950 cycles before
  // static's 10 000 499 000.
  auto runtime = make_loop_runtime(seed_example("dynamic", 50), 2, 7);
  const auto driven = drive(*runtime, 2);
  EXPECT_EQ(driven.done_at[0], 10'000'001'050);
  EXPECT_EQ(driven.done_at[1], 1'022'950);
  EXPECT_EQ(runtime->stats(0).iterations, 2);
  EXPECT_EQ(runtime->stats(0).dispatches, 1);
  EXPECT_EQ(runtime->stats(1).iterations, 998);
  EXPECT_EQ(runtime->stats(1).chunks, 499);
  EXPECT_EQ(runtime->stats(1).dispatches, 499);
  EXPECT_EQ(runtime->stats(1).dispatch_cycles, 499 * 50);
  EXPECT_LT(std::max(driven.done_at[0], driven.done_at[1]), 10'000'499'000) << "dynamic wins";
}

TEST(LoopRuntime, EqualIterationsDynamicLosesByExactlyItsDispatchCosts) {
  // 1000 iterations of 1000 cycles on 2 threads. Static: 500 each, done at 500 000. Dynamic chunk 1,
  // dispatch 50: the threads take chunks in turn at equal times, 500 each of 1050 cycles: done at 525 000,
  // later by 500 dispatches x 50 = 25 000, each thread's dispatch cycles.
  auto static_runtime = make_loop_runtime(loop(1000, 1000, "static", 0, 50), 2, 1);
  const auto s = drive(*static_runtime, 2);
  EXPECT_EQ(s.done_at[0], 500'000);
  EXPECT_EQ(s.done_at[1], 500'000);
  auto dynamic_runtime = make_loop_runtime(loop(1000, 1000, "dynamic", 0, 50), 2, 1);
  const auto d = drive(*dynamic_runtime, 2);
  EXPECT_EQ(d.done_at[0], 525'000);
  EXPECT_EQ(d.done_at[1], 525'000);
  for (int t = 0; t < 2; ++t) {
    EXPECT_EQ(dynamic_runtime->stats(t).chunks, 500);
    EXPECT_EQ(d.done_at[t] - s.done_at[t], dynamic_runtime->stats(t).dispatch_cycles);
  }
}

TEST(LoopRuntime, GuidedOnEqualIterationsPaysFewDispatches) {
  // 100 iterations of 10 cycles on 4 threads, dispatch 5, guided: the 14 chunks of the guided test above,
  // taken as threads free up. At 0: 25, 19, 14, 11 (threads 0..3, done at 255, 195, 145, 115 with the
  // dispatch). Thread 3 at 115 takes 8 (-> 200), thread 2 at 145 takes 6 (-> 210), thread 1 at 195 takes 5
  // (-> 250), thread 3 at 200 takes 3 (-> 235), thread 2 at 210 takes 3 (-> 245), thread 3 at 235 takes 2
  // (-> 260), thread 2 at 245 takes 1 (-> 260), thread 1 at 250 takes 1 (-> 265), thread 0 at 255 takes 1
  // (-> 270), thread 2 and 3 at 260: 1 left, thread 2 takes it (-> 275), thread 3 is done at 260.
  auto runtime = make_loop_runtime(loop(100, 10, "guided", 0, 5), 4, 1);
  const auto driven = drive(*runtime, 4);
  EXPECT_EQ(driven.done_at, (std::vector<Cycles>{270, 265, 275, 260}));
  std::int64_t dispatches = 0, iterations = 0;
  for (int t = 0; t < 4; ++t) {
    dispatches += runtime->stats(t).dispatches;
    iterations += runtime->stats(t).iterations;
  }
  EXPECT_EQ(dispatches, 14);
  EXPECT_EQ(iterations, 100);
}

TEST(LoopRuntime, EachPhaseRunsTheWholeLoopAgain) {
  auto runtime = make_loop_runtime(loop(10, 100, "dynamic", 3, 0), 2, 1);
  const auto first = drive(*runtime, 2, 0, 0);
  const auto second = drive(*runtime, 2, 1, 1000);
  // Chunks [0,3) [3,6) at 0, [6,9) by thread 0 at 300, [9,10) by thread 1 at 300: done at 600 and 400.
  EXPECT_EQ(first.done_at, (std::vector<Cycles>{600, 400}));
  EXPECT_EQ(second.done_at, (std::vector<Cycles>{1600, 1400})) << "the shared counter starts over";
  EXPECT_EQ(runtime->stats(0).iterations + runtime->stats(1).iterations, 20);
}

TEST(IterationCosts, DrawsDependOnTheSeedPhaseAndIndexOnlyAndStayInTheDistribution) {
  config::SmpLoop l = loop(1000, 1, "static", 0, 0);
  l.cost = *workload::Distribution::parse("100-200:1, 1000:1");
  l.exceptions = {{7, 5e9}};
  const IterationCosts a(l, 42), b(l, 42), other(l, 43);
  int differ = 0, thousands = 0;
  Cycles sum = 0;
  for (std::int64_t i = 999; i >= 0; --i) {  // backwards: the order of the draws does not matter
    const Cycles c = a.cost(0, i);
    EXPECT_EQ(c, b.cost(0, i));
    if (i == 7) {
      EXPECT_EQ(c, 5'000'000'000) << "the exception overrides the draw";
    } else {
      EXPECT_TRUE((c >= 100 && c <= 200) || c == 1000) << c;
      thousands += c == 1000;
    }
    differ += c != other.cost(0, i);
    sum += c;
  }
  EXPECT_EQ(a.sum(0, 0, 1000), sum);
  EXPECT_GT(differ, 400) << "another seed draws other costs";
  EXPECT_GT(thousands, 400) << "weights 1:1: about half the iterations cost 1000";
  EXPECT_LT(thousands, 600);
  EXPECT_NE(a.sum(0, 0, 1000), a.sum(1, 0, 1000)) << "each phase draws again";
}

TEST(IterationCosts, ConstantCostsRoundToWholeCyclesAtLeastOne) {
  auto l = loop(10, 0.4, "static", 0, 0);
  EXPECT_EQ(IterationCosts(l, 1).sum(0, 0, 10), 10) << "0.4 cycles rounds to the minimum of one cycle";
  l = loop(10, 2.6, "static", 0, 0);
  l.exceptions = {{3, 100}, {9, 1000}};
  EXPECT_EQ(IterationCosts(l, 1).sum(0, 2, 9), 6 * 3 + 100);
  EXPECT_EQ(IterationCosts(l, 1).sum(0, 0, 10), 8 * 3 + 1100);
}

}  // namespace
}  // namespace cosched::userlevel
