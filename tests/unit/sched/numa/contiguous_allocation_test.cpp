// Policy1 (thesis 4.3, A21 (a)): the first n contiguous free clusters, on the 16-cluster machine of
// allocation_test_support.hpp.

#include "sched/numa/contiguous_allocation.hpp"

#include <gtest/gtest.h>

#include "sched/numa/allocation_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;

TEST(NumaPolicies, Policy1TakesTheFirstContiguousFreeRunFromClusterZero) {
  Request request;
  request.busy({2, 7});  // free runs: 0-1, 3-6, 8-15
  request.threads = 2;
  EXPECT_EQ(allocate("policy1", request), (Clusters{0, 1}));
  request.threads = 4;
  EXPECT_EQ(allocate("policy1", request), (Clusters{3, 4, 5, 6})) << "0-1 is too short";
  request.threads = 5;
  EXPECT_EQ(allocate("policy1", request), (Clusters{8, 9, 10, 11, 12})) << "3-6 is too short";
  request.threads = 9;
  EXPECT_EQ(allocate("policy1", request), std::nullopt)
      << "13 free clusters but no run of 9 (A21 (a): contiguous or nothing)";
}

}  // namespace
}  // namespace cosched::sched
