// The user-level placement of a process's threads on the clusters its policy gave (thesis figure 4.2, A29).

#include "sched/numa/allocation.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace cosched::sched {
namespace {

TEST(NumaPlaceThreads, Figure42ThreadsOnClustersAllocatedAgainStayTheOthersTakeTheNewInIdOrder) {
  // Threads 3, 4, 5 ran on 12, 13, 14, which the (N+1)st allocation gives again; threads 0, 1, 2 ran on
  // 6, 2, 7, which it does not: they take the new clusters 1, 3, 5 in thread ID order.
  const std::vector<int> previous = {6, 2, 7, 12, 13, 14};
  const std::vector<int> allocated = {1, 3, 5, 12, 13, 14};
  EXPECT_EQ(place_threads(allocated, previous), (std::vector<int>{1, 3, 5, 12, 13, 14}));
}

TEST(NumaPlaceThreads, KeptThreadsNeedNotBeTheHighestAndTheFirstRunTakesClustersInOrder) {
  // Thread 1 stays on 9 and thread 2 on 1; threads 0 and 3 take the new 2 and 3.
  EXPECT_EQ(place_threads(std::vector<int>{1, 2, 3, 9}, std::vector<int>{0, 9, 1, 8}),
            (std::vector<int>{2, 9, 1, 3}));
  EXPECT_EQ(place_threads(std::vector<int>{6, 4, 5}, std::vector<int>{-1, -1, -1}),
            (std::vector<int>{4, 5, 6}))
      << "no previous run: thread k on the k-th cluster in ID order";
  EXPECT_THROW(place_threads(std::vector<int>{4, 5}, std::vector<int>{-1, -1, -1}), std::logic_error);
}

}  // namespace
}  // namespace cosched::sched
