// Strategy1 (thesis 4.4, A24, A25): by page class, then the lowest-priority process, then LRU, on the frames
// of replacement_test_support.hpp.

#include "sched/numa/class_replacement.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sched/numa/replacement_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;
using enum PageClass;

TEST(NumaReplacement, Strategy1EvictsByClassThenLowestPriorityThenLru) {
  // Class 1 (other's copy): frames 6 (rank 1) and 7 (rank 2); 7's process has the lower priority, so 7
  // goes first although 6 is older. Frame 1 is class 1 too but under coherency processing. Then 2 (own
  // copy), 3 (other's last), 4 (other's local), 5 (own last), 0 (own local); 8 never.
  EXPECT_EQ(strategy("strategy1").victim(every_class()), 7);
  EXPECT_EQ(eviction_order("strategy1", every_class()), (std::vector<int>{7, 6, 2, 3, 4, 5, 0}));
}

}  // namespace
}  // namespace cosched::sched
