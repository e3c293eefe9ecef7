// Policy0 (thesis 4.3): n free clusters drawn uniformly, on the 16-cluster machine of
// allocation_test_support.hpp.

#include "sched/numa/random_allocation.hpp"

#include <gtest/gtest.h>

#include <map>

#include "sched/numa/allocation_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;

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
  const auto& policy0 = numa_allocation_policies().at("policy0");
  const auto params = numa_allocation_policies().defaults("policy0").params;
  std::map<int, int> times;
  for (int draw = 0; draw < 8000; ++draw) {
    const auto got = policy0.allocate(*params, request.view(), rng);
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

}  // namespace
}  // namespace cosched::sched
