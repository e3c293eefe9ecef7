// The NUMA model's allocation policies and thread placement (thesis 4.3, figure 4.2; docs/models/numa.md
// section 4) on a 16-cluster machine of two levels, 4 bottom switches of 4 clusters: clusters 4..7 form the
// subtree of the second bottom switch. Every expected allocation is worked out by hand in its comment.

#include "sched/numa/allocation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace cosched::sched {
namespace {

constexpr int kClusters = 16;

// A request's backing vectors: every cluster free, no page, the whole machine as home, no previous run.
struct Request {
  int threads = 0;
  std::vector<char> free = std::vector<char>(kClusters, 1);
  std::vector<int> pages = std::vector<int>(kClusters, 0);
  int home_first = 0, home_count = kClusters;
  std::vector<int> previous;

  Request& busy(std::initializer_list<int> clusters) {
    for (const int c : clusters) free[c] = 0;
    return *this;
  }
  AllocationRequest view() const { return {threads, free, pages, home_first, home_count, previous}; }
};

std::optional<std::vector<int>> allocate(std::string_view policy, const Request& request,
                                         std::uint64_t seed = 1) {
  const auto* entry = find_numa_policy(policy);
  EXPECT_NE(entry, nullptr) << policy;
  std::mt19937_64 rng(seed);
  return entry->allocate(request.view(), rng);
}

using Clusters = std::vector<int>;

TEST(NumaPolicies, RegistryNamesEveryPolicyAndWhichReadTheTree) {
  EXPECT_EQ(numa_policy_names(), "policy0, policy1, policy2, policy3, policy4 or policy4-home");
  EXPECT_EQ(find_numa_policy("policy5"), nullptr);
  EXPECT_FALSE(find_numa_policy("policy0")->uses_rmt) << "thesis 4.3: policy2, 3, 4 use the tree";
  EXPECT_FALSE(find_numa_policy("policy1")->uses_rmt);
  EXPECT_TRUE(find_numa_policy("policy2")->uses_rmt);
  EXPECT_TRUE(find_numa_policy("policy3")->uses_rmt);
  EXPECT_TRUE(find_numa_policy("policy4")->uses_rmt);
  for (const auto& entry : numa_policies()) EXPECT_FALSE(entry.doc.empty()) << entry.name;
}

TEST(NumaPolicies, Policy0TakesExactlyTheFreeClustersWhenThereAreJustEnoughAndFailsWithFewer) {
  Request request;
  request.busy({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});  // 12, 13, 14, 15 free
  request.threads = 4;
  EXPECT_EQ(allocate("policy0", request), (Clusters{12, 13, 14, 15}));
  request.threads = 5;
  EXPECT_EQ(allocate("policy0", request), std::nullopt) << "4 free clusters for 5 threads";
}

TEST(NumaPolicies, Policy0DrawsFreeClustersUniformly) {
  // 8 free clusters (the even ones), 2 drawn: each is in a draw with probability 2/8. Over 8000 draws a
  // cluster's count is binomial(8000, 1/4): mean 2000, standard deviation 38.7; 5 deviations allowed.
  Request request;
  request.busy({1, 3, 5, 7, 9, 11, 13, 15});
  request.threads = 2;
  std::mt19937_64 rng(7);
  const auto* policy0 = find_numa_policy("policy0");
  std::map<int, int> times;
  for (int draw = 0; draw < 8000; ++draw) {
    const auto got = policy0->allocate(request.view(), rng);
    ASSERT_TRUE(got.has_value());
    ASSERT_EQ(got->size(), 2u);
    EXPECT_LT((*got)[0], (*got)[1]) << "two distinct clusters in increasing order";
    for (const int c : *got) ++times[c];
  }
  ASSERT_EQ(times.size(), 8u) << "only free clusters are drawn";
  for (const auto& [cluster, count] : times) {
    EXPECT_EQ(cluster % 2, 0) << "cluster " << cluster << " is busy";
    EXPECT_NEAR(count, 2000, 194) << "cluster " << cluster;
  }
  EXPECT_EQ(allocate("policy0", request, 3), allocate("policy0", request, 3)) << "a seed fixes the draw";
}

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

TEST(NumaPolicies, EveryPolicyReturnsNClustersInIncreasingOrder) {
  Request request;
  request.threads = 5;
  request.pages[14] = 4;
  request.pages[2] = 1;
  request.pages[9] = 9;
  request.previous = {15, 3};
  request.busy({4});
  for (const auto& entry : numa_policies()) {
    std::mt19937_64 rng(11);
    const auto got = entry.allocate(request.view(), rng);
    if (entry.name == "policy4" || entry.name == "policy4-home") {
      if (entry.name == "policy4") {
        EXPECT_EQ(got, std::nullopt) << "pages on 3 clusters for 5 threads";
      } else {
        // Area4 {2, 9, 14}, then pick 2 of the rest of the machine (its home): previous 3 and 15.
        EXPECT_EQ(got, (Clusters{2, 3, 9, 14, 15}));
      }
      continue;
    }
    ASSERT_TRUE(got.has_value()) << entry.name;
    ASSERT_EQ(got->size(), 5u) << entry.name;
    EXPECT_TRUE(std::is_sorted(got->begin(), got->end())) << entry.name;
    for (const int c : *got) EXPECT_NE(c, 4) << entry.name << " took the busy cluster";
  }
}

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
