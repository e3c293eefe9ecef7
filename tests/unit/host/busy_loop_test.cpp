// cosched host's loops (src/host/busy_loop.cpp): a spin's polls stop at its budget or at the change it waits
// for, and the calibration gives costs in the range of one iteration.

#include "host/busy_loop.hpp"

#include <gtest/gtest.h>

namespace cosched::host {
namespace {

TEST(BusyLoop, PollsStopAtTheBudgetOrAtTheChange) {
  const std::atomic<std::uint32_t> word{5};
  EXPECT_EQ(poll_until_changed(word, 5, 7).polls, 7u);
  EXPECT_FALSE(poll_until_changed(word, 5, 7).changed);
  const auto changed = poll_until_changed(word, 4, 7);
  EXPECT_TRUE(changed.changed);
  EXPECT_EQ(changed.polls, 1u) << "the first poll sees it";
}

TEST(BusyLoop, CalibrationGivesPositiveCosts) {
  const LoopCosts costs = calibrate_loops();
  EXPECT_GT(costs.ns_per_compute_iteration, 0);
  EXPECT_LT(costs.ns_per_compute_iteration, 100) << "one multiply-add, not a system call";
  EXPECT_GT(costs.ns_per_poll, 0);
}

}  // namespace
}  // namespace cosched::host
