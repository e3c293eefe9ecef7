#include "sched/smp/round_robin.hpp"

#include <gtest/gtest.h>

namespace cosched::sched {
namespace {

TEST(RoundRobin, DispatchesInFifoOrderWithAFixedQuantum) {
  RoundRobin rr(100);
  rr.enqueue(3);
  rr.enqueue(1);
  rr.enqueue(2);
  EXPECT_EQ(rr.ready_count(), 3u);
  EXPECT_EQ(rr.pick_next(0), 3) << "head first";
  rr.enqueue(3);  // preempted: back to the tail
  EXPECT_EQ(rr.pick_next(5), 1);
  EXPECT_EQ(rr.pick_next(0), 2);
  EXPECT_EQ(rr.pick_next(0), 3) << "the re-queued thread comes last";
  EXPECT_FALSE(rr.pick_next(0).has_value()) << "empty queue";
  EXPECT_EQ(rr.time_slice(7), 100);
}

TEST(RoundRobin, RefusesANonPositiveQuantum) {
  EXPECT_THROW(RoundRobin(0), std::invalid_argument);
}

}  // namespace
}  // namespace cosched::sched
