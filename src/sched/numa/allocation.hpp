#pragma once
// The NUMA model's processor allocation policies, scheduler.policy policy0 .. policy4 (Nobukuni 1997,
// 4.3; docs/models/numa.md section 4), and policy4-home (A23's other reading of policy4): which free
// clusters a process gets for a time slice. Each is one registry entry. And the user-level placement of a
// process's threads on what it got (figure 4.2).

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::sched {

// What a policy sees of the machine and the process when it places one process (all vectors by cluster).
struct AllocationRequest {
  int threads = 0;                  // n: the fixed number of processors it needs
  std::span<const char> free;       // free[c]: cluster c is still free in this slice
  std::span<const int> pages;       // pages[c]: frames of cluster c holding a page of the process (A22)
  int home_first = 0, home_count = 0;  // the home-node subtree: clusters [first, first + count) (4.3, A23)
  std::span<const int> previous;    // the clusters of its previous allocation (its last run), any order
};

struct NumaPolicyEntry {
  std::string_view name;
  std::string_view doc;
  bool uses_rmt = false;  // policy2-4 read the resource management tree (4.3)
  // The clusters it gets (n of them, in increasing cluster order), or nothing when the policy gives up.
  std::optional<std::vector<int>> (*allocate)(const AllocationRequest& request, std::mt19937_64& rng);
};

std::span<const NumaPolicyEntry> numa_policies();
const NumaPolicyEntry* find_numa_policy(std::string_view name);
std::string numa_policy_names();  // "policy0, policy1, policy2, policy3, policy4 or policy4-home"

// Figure 4.2: thread k stays on its previous cluster if the process got that cluster again; the other
// threads, in increasing ID, take the newly allocated clusters in increasing ID (A29). `previous[k]`: thread
// k's cluster at the process's last run, -1 if none. Returns each thread's cluster.
std::vector<int> place_threads(std::span<const int> allocated, std::span<const int> previous);

}  // namespace cosched::sched
