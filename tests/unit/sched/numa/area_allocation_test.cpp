// Policies 2, 3, 4 and policy4-home (thesis 4.3, figure 4.1, A22, A23): the nested areas, on the 16-cluster
// machine of allocation_test_support.hpp. Every expected allocation is worked out by hand in its comment.

#include "sched/numa/area_allocation.hpp"

#include <gtest/gtest.h>

#include "sched/numa/allocation_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;

TEST(NumaPolicies, PickPrefersThePreviousAllocationThenMostPagesThenTheLowestId) {
  // Pages on 4 (3 pages), 6 (10) and 7 (1): all three are Area4.
  Request request;
  request.pages[4] = 3;
  request.pages[6] = 10;
  request.pages[7] = 1;
  request.previous = {7, 13};
  request.threads = 1;
  EXPECT_EQ(allocate("policy4", request), (Clusters{7})) << "7 was in its previous allocation";
  request.threads = 2;
  EXPECT_EQ(allocate("policy4", request), (Clusters{6, 7})) << "then 6, the most pages";
  request.previous.clear();
  request.pages[6] = 3;
  request.threads = 1;
  EXPECT_EQ(allocate("policy4", request), (Clusters{4})) << "4 and 6 hold 3 pages each: the lower ID";
}

// Home-node area: clusters 4..7, of which 5 is busy; the process has pages on 6 only.
Request home_case(int threads) {
  Request request;
  request.threads = threads;
  request.home_first = 4;
  request.home_count = 4;
  request.busy({5});
  request.pages[6] = 2;
  return request;
}

TEST(NumaPolicies, Policies2And3CompleteThePageClustersFromTheHomeSubtree) {
  // Area4 = {6}, one cluster for 3 threads; Area3's other free clusters {4, 7} complete it.
  for (const auto* policy : {"policy2", "policy3"})
    EXPECT_EQ(allocate(policy, home_case(3)), (Clusters{4, 6, 7})) << policy;
  // For 2 threads, pick() chooses among 4 and 7: the lower ID, or 7 when it was in the previous allocation.
  EXPECT_EQ(allocate("policy3", home_case(2)), (Clusters{4, 6}));
  auto again = home_case(2);
  again.previous = {7, 6};
  EXPECT_EQ(allocate("policy3", again), (Clusters{6, 7}));
}

TEST(NumaPolicies, Policy4GivesUpWhenItsPageClustersAreTooFew) {
  // Thesis 4.3 para 5: "Policy4 gives up scheduling the target process".
  EXPECT_EQ(allocate("policy4", home_case(3)), std::nullopt) << "pages on 1 cluster, 3 threads";
  EXPECT_EQ(allocate("policy4-home", home_case(3)), (Clusters{4, 6, 7}))
      << "A23's other reading falls back to the home-node area";

  // Pages on 1, 3 and 9, enough clusters, but 3 is busy this slice: it waits.
  Request request;
  request.threads = 3;
  request.pages[1] = request.pages[3] = request.pages[9] = 1;
  request.busy({3});
  EXPECT_EQ(allocate("policy4", request), std::nullopt);
  request.free[3] = 1;
  EXPECT_EQ(allocate("policy4", request), (Clusters{1, 3, 9})) << "all three free: exactly them";
}

TEST(NumaPolicies, Policy4PlacesAProcessWithNoPageAsPolicy3) {
  // Never run: no page anywhere, the root as home node. Policy3's placement: pick() over the free clusters.
  Request request;
  request.threads = 3;
  request.busy({0, 1});
  EXPECT_EQ(allocate("policy4", request), (Clusters{2, 3, 4}));
  request.home_first = 8;
  request.home_count = 4;
  EXPECT_EQ(allocate("policy4", request), (Clusters{8, 9, 10})) << "within its home subtree";
  request.home_count = 2;
  EXPECT_EQ(allocate("policy4", request), std::nullopt) << "a home subtree of 2 free clusters is too small";
}

TEST(NumaPolicies, Policy2TakesTheWholeHomeAreaBeforeClustersOutsideIt) {
  // 4 threads: Area4 {6} and the home area's {4, 7} give 3, so policy3 waits, and policy2 adds one cluster
  // from outside: the lowest free one, or one of its previous allocation.
  EXPECT_EQ(allocate("policy3", home_case(4)), std::nullopt);
  EXPECT_EQ(allocate("policy2", home_case(4)), (Clusters{0, 4, 6, 7}));
  auto request = home_case(4);
  request.previous = {13, 14, 15};
  EXPECT_EQ(allocate("policy2", request), (Clusters{4, 6, 7, 13}))
      << "13 before 14 and 15: both previous, the lower ID";
  request.busy({0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15});
  EXPECT_EQ(allocate("policy2", request), std::nullopt) << "3 free clusters in the whole machine";
}

}  // namespace
}  // namespace cosched::sched
