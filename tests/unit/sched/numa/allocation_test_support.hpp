#pragma once
// What the allocation policies' tests share (thesis 4.3; docs/models/numa.md section 4): a 16-cluster machine
// of two levels, 4 bottom switches of 4 clusters, so that clusters 4..7 form the subtree of the second bottom
// switch; a request's backing vectors; and one policy's allocation with its default parameters.

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "sched/numa/allocation.hpp"
#include "sched/numa/allocation_registry.hpp"

namespace cosched::sched::testing {

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

// What `policy`, with its defaults, gives `request`, drawing from a generator seeded with `seed`.
inline Allocation allocate(std::string_view policy, const Request& request, std::uint64_t seed = 1) {
  const auto& policies = numa_allocation_policies();
  const auto* entry = policies.find(policy);
  EXPECT_NE(entry, nullptr) << policy;
  if (entry == nullptr) return std::nullopt;
  std::mt19937_64 rng(seed);
  return entry->allocate(*policies.defaults(policy).params, request.view(), rng);
}

using Clusters = std::vector<int>;

}  // namespace cosched::sched::testing
