#pragma once
// The NUMA model's processor allocation policies, scheduler.policy (Nobukuni 1997, 4.3; docs/models/numa.md
// section 4): which free clusters a process gets for a time slice. What every policy sees and declares; each
// declares its entry in its own file (random_allocation: policy0, contiguous_allocation: policy1,
// area_allocation: policy2, policy3, policy4 and policy4-home, one rule at four widths), and
// allocation_registry lists them. And the user-level placement of a process's threads on what it got
// (figure 4.2).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "config/policy.hpp"

namespace cosched::sched {

// What a policy sees of the machine and the process when it places one process (all vectors by cluster).
struct AllocationRequest {
  int threads = 0;                     // n: the fixed number of processors it needs
  std::span<const char> free;          // free[c]: cluster c is still free in this slice
  std::span<const int> pages;          // pages[c]: frames of cluster c holding a page of the process (A22)
  int home_first = 0, home_count = 0;  // the home-node subtree: clusters [first, first + count) (4.3, A23)
  std::span<const int> previous;       // the clusters of its previous allocation (its last run), any order

  int clusters() const { return static_cast<int>(free.size()); }
  bool is_free(int c) const { return free[c] != 0; }
  int pages_on(int c) const { return c < static_cast<int>(pages.size()) ? pages[c] : 0; }
  bool in_home(int c) const { return c >= home_first && c < home_first + home_count; }
};

// The clusters a policy gives (n of them, in increasing cluster order), or nothing when it gives up.
using Allocation = std::optional<std::vector<int>>;

inline Allocation sorted_clusters(std::vector<int> clusters) {
  std::sort(clusters.begin(), clusters.end());
  return clusters;
}

// An allocation policy's parameters: none is common to all; a policy with keys derives its own struct.
struct NumaAllocationParams : config::PolicyParams {};

// An allocation policy as its registry lists it (sched/numa/allocation_registry.hpp): what every policy
// declares, and the family's trait and rule.
struct NumaPolicyEntry {
  config::PolicySpec spec;
  bool uses_rmt = false;  // policy2-4 read the resource management tree (4.3)
  Allocation (*allocate)(const config::PolicyParams& params, const AllocationRequest& request,
                         std::mt19937_64& rng);
};

// Figure 4.2: thread k stays on its previous cluster if the process got that cluster again; the other
// threads, in increasing ID, take the newly allocated clusters in increasing ID (A29). `previous[k]`: thread
// k's cluster at the process's last run, -1 if none. Returns each thread's cluster.
std::vector<int> place_threads(std::span<const int> allocated, std::span<const int> previous);

}  // namespace cosched::sched
