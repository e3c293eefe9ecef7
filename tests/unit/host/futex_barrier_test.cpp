// cosched host's barrier (src/host/futex_barrier.cpp) with real threads: the counts the SMP model's metrics
// need follow from the waiting algorithm whatever the timings (docs/host.md, section 4), and no wait is lost.

#include "host/futex_barrier.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "host/busy_loop.hpp"

namespace cosched::host {
namespace {

struct Totals {
  WaitCounts counts;
  int failed_spins = 0;
  int last_arrivals = 0;
};

// `threads` threads pass `barriers` barriers, each waiter spinning at most `max_polls` polls (with `yield`,
// calling sched_yield() after each failed poll).
Totals run_barriers(int threads, int barriers, std::uint64_t max_polls, bool yield = false) {
  FutexBarrier barrier(threads);
  std::vector<Totals> each(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int b = 0; b < barriers; ++b) {
        compute_iterations(1000 * static_cast<std::uint64_t>(t + 1));  // uneven arrivals
        const auto arrival = barrier.arrive();
        if (arrival.last) {
          ++each[t].last_arrivals;
        } else if (barrier.wait(arrival, max_polls, yield, each[t].counts)) {
          ++each[t].failed_spins;
        }
      }
    });
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(barrier.completed(), barriers);
  Totals sum;
  for (const auto& t : each) {
    sum.counts.spins += t.counts.spins;
    sum.counts.successful_spins += t.counts.successful_spins;
    sum.counts.blocks += t.counts.blocks;
    sum.counts.polls += t.counts.polls;
    sum.failed_spins += t.failed_spins;
    sum.last_arrivals += t.last_arrivals;
  }
  EXPECT_EQ(sum.last_arrivals, barriers) << "one last arriver per barrier";
  return sum;
}

TEST(FutexBarrier, BlockMakesEveryWaiterBlockWithoutSpinning) {
  const Totals t = run_barriers(4, 50, 0);
  EXPECT_EQ(t.counts.spins, 0) << "a budget of 0 enters no spin (smp.md section 8)";
  EXPECT_EQ(t.counts.blocks, 3 * 50) << "every waiter, 3 per barrier";
  EXPECT_EQ(t.failed_spins, 0) << "blocking at once is not a failed spin";
}

TEST(FutexBarrier, UnlimitedSpinAlwaysSucceeds) {
  const Totals t = run_barriers(2, 200, kUnlimitedPolls);
  EXPECT_EQ(t.counts.spins, 200);
  EXPECT_EQ(t.counts.successful_spins, 200);
  EXPECT_EQ(t.counts.blocks, 0);
  EXPECT_GE(t.counts.polls, 200u);
}

TEST(FutexBarrier, FixedSpinEitherSucceedsOrFailsAndBlocks) {
  const Totals t = run_barriers(3, 200, 20);
  EXPECT_EQ(t.counts.spins, 2 * 200);
  EXPECT_EQ(t.counts.successful_spins + t.counts.blocks, t.counts.spins);
  EXPECT_EQ(t.failed_spins, t.counts.blocks) << "a failed spin blocks";
  EXPECT_LE(t.counts.polls, static_cast<std::uint64_t>(20 * t.counts.spins)) << "the budget bounds the polls";
}

TEST(FutexBarrier, AnUnlimitedYieldLoopAlwaysSucceeds) {
  const Totals t = run_barriers(3, 200, kUnlimitedPolls, true);
  EXPECT_EQ(t.counts.spins, 2 * 200);
  EXPECT_EQ(t.counts.successful_spins, 2 * 200);
  EXPECT_EQ(t.counts.blocks, 0);
}

TEST(FutexBarrier, AYieldLoopsBudgetBoundsItsPollsThenItBlocks) {
  const Totals t = run_barriers(3, 200, 2, true);
  EXPECT_EQ(t.counts.successful_spins + t.counts.blocks, t.counts.spins);
  EXPECT_EQ(t.failed_spins, t.counts.blocks);
  EXPECT_LE(t.counts.polls, static_cast<std::uint64_t>(2 * t.counts.spins)) << "at most 2 passes a wait";
}

}  // namespace
}  // namespace cosched::host
