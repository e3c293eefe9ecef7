// Strategy0 (thesis 4.4, A30): LRU whatever the page class, on the frames of replacement_test_support.hpp.

#include "sched/numa/lru_replacement.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sched/numa/replacement_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;
using enum PageClass;

TEST(NumaReplacement, Strategy0EvictsTheLeastRecentlyReferencedWhateverItsClass) {
  // Last references of the evictable frames: 4 at 1, 2 at 5, 0 at 10, 5 at 30, 3 at 40, 6 at 60, 7 at 70.
  // Frame 8 (at 0) and frame 1 are under coherency processing: never victims.
  EXPECT_EQ(strategy("strategy0").victim(every_class()), 4);
  EXPECT_EQ(eviction_order("strategy0", every_class()), (std::vector<int>{4, 2, 0, 5, 3, 6, 7}));
}

}  // namespace
}  // namespace cosched::sched
