#include "sched/numa/contiguous_allocation.hpp"

#include <numeric>

namespace cosched::sched {
namespace {

// Thesis 4.3, Policy1: "allocates requested number of continuous clusters in a fixed order". A21 (a): the
// lowest i with clusters i .. i + n - 1 all free (first fit from cluster 0); fails when no such run exists.
Allocation policy1(const config::PolicyParams&, const AllocationRequest& request, std::mt19937_64&) {
  const int n = request.threads;
  if (n <= 0) return std::nullopt;
  int run = 0;  // free clusters ending at c
  for (int c = 0; c < request.clusters(); ++c) {
    run = request.is_free(c) ? run + 1 : 0;
    if (run == n) {
      std::vector<int> clusters(n);
      std::iota(clusters.begin(), clusters.end(), c - n + 1);
      return clusters;
    }
  }
  return std::nullopt;
}

}  // namespace

const NumaPolicyEntry kPolicy1Entry{
    {"policy1",
     "the first n contiguous free clusters from cluster 0; waits when no such run is free (thesis 4.3, A21 "
     "(a))",
     {},
     config::default_params<NumaAllocationParams>,
     config::no_keys_json},
    false,
    policy1};

}  // namespace cosched::sched
