#include "sched/numa/allocation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "util/random.hpp"
#include "util/registry.hpp"

namespace cosched::sched {
namespace {

using Allocation = std::optional<std::vector<int>>;

int cluster_count(const AllocationRequest& request) {
  return static_cast<int>(request.free.size());
}

bool is_free(const AllocationRequest& request, int c) {
  return request.free[c] != 0;
}

int pages_on(const AllocationRequest& request, int c) {
  return c < static_cast<int>(request.pages.size()) ? request.pages[c] : 0;
}

bool in_home(const AllocationRequest& request, int c) {
  return c >= request.home_first && c < request.home_first + request.home_count;
}

Allocation sorted(std::vector<int> clusters) {
  std::sort(clusters.begin(), clusters.end());
  return clusters;
}

// Thesis 4.3, Policy0: "allocates randomly selected requested number of clusters": n of the free clusters,
// uniformly without replacement (a partial Fisher-Yates shuffle); fails with fewer than n free.
Allocation policy0(const AllocationRequest& request, std::mt19937_64& rng) {
  std::vector<int> free;
  for (int c = 0; c < cluster_count(request); ++c)
    if (is_free(request, c)) free.push_back(c);
  const auto n = static_cast<std::size_t>(request.threads);
  if (n == 0 || free.size() < n) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i) std::swap(free[i], free[i + util::uniform_below(rng, free.size() - i)]);
  free.resize(n);
  return sorted(std::move(free));
}

// Thesis 4.3, Policy1: "allocates requested number of continuous clusters in a fixed order". A21 (a): the
// lowest i with clusters i .. i + n - 1 all free (first fit from cluster 0); fails when no such run exists.
Allocation policy1(const AllocationRequest& request, std::mt19937_64&) {
  const int n = request.threads;
  if (n <= 0) return std::nullopt;
  int run = 0;  // free clusters ending at c
  for (int c = 0; c < cluster_count(request); ++c) {
    run = is_free(request, c) ? run + 1 : 0;
    if (run == n) {
      std::vector<int> clusters(n);
      std::iota(clusters.begin(), clusters.end(), c - n + 1);
      return clusters;
    }
  }
  return std::nullopt;
}

// pick(X, k) of docs/models/numa.md 4.5: the clusters of the process's previous allocation first (figure
// 4.2: its threads stay where they were and their local pages need not move), then the clusters holding
// most of its pages (4.3 para 5: the policies differ in "how much they persist in allocating processors from
// clusters where process's currently using physical pages are located"), then the lowest cluster ID.
std::vector<int> pick(const AllocationRequest& request, std::vector<int> candidates, std::size_t k) {
  std::vector<char> previous(request.free.size(), 0);
  for (const int c : request.previous)
    if (c >= 0 && c < cluster_count(request)) previous[c] = 1;
  std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
    if (previous[a] != previous[b]) return previous[a] > previous[b];
    if (pages_on(request, a) != pages_on(request, b)) return pages_on(request, a) > pages_on(request, b);
    return a < b;
  });
  candidates.resize(std::min(k, candidates.size()));
  return candidates;
}

// The areas of figure 4.1, innermost first: Area4 (free clusters holding a page of the process, A22), then
// the rest of Area3 (the other free clusters of the home-node subtree, A23), then the rest of Area2 (every
// other free cluster). A page cluster outside the home subtree (never, with the RMT's home node, which
// covers every page cluster) still counts in Area4.
struct Areas {
  std::vector<int> area4, home_rest, machine_rest;
};

Areas areas_of(const AllocationRequest& request) {
  Areas areas;
  for (int c = 0; c < cluster_count(request); ++c) {
    if (!is_free(request, c)) continue;
    if (pages_on(request, c) > 0) {
      areas.area4.push_back(c);
    } else if (in_home(request, c)) {
      areas.home_rest.push_back(c);
    } else {
      areas.machine_rest.push_back(c);
    }
  }
  return areas;
}

// The widest area a policy may take clusters from.
enum class Widest { PageClusters, HomeSubtree, Machine };

// Policies 2-4 (thesis 4.3 para 5): the areas are tried from the innermost out, up to the widest the
// policy allows. An area that has n clusters with those
// inside it gets the process: every cluster of the inner areas, and pick() of its own for the rest. So
// Policy2's whole-machine step still takes the home subtree's free clusters before any outside it (the
// areas nest, figure 4.1).
Allocation nested_areas(const AllocationRequest& request, Widest widest) {
  const auto n = static_cast<std::size_t>(request.threads);
  if (n == 0) return std::nullopt;
  const Areas areas = areas_of(request);
  if (areas.area4.size() >= n) return sorted(pick(request, areas.area4, n));
  if (widest == Widest::PageClusters) return std::nullopt;
  std::vector<int> taken = areas.area4;
  if (taken.size() + areas.home_rest.size() >= n) {
    for (const int c : pick(request, areas.home_rest, n - taken.size())) taken.push_back(c);
    return sorted(std::move(taken));
  }
  if (widest == Widest::HomeSubtree) return std::nullopt;
  taken.insert(taken.end(), areas.home_rest.begin(), areas.home_rest.end());
  if (taken.size() + areas.machine_rest.size() < n) return std::nullopt;
  for (const int c : pick(request, areas.machine_rest, n - taken.size())) taken.push_back(c);
  return sorted(std::move(taken));
}

bool holds_no_page(const AllocationRequest& request) {
  return std::all_of(request.pages.begin(), request.pages.end(), [](int p) { return p == 0; });
}

// Thesis 4.3, Policy2: "first allocate clusters in home-node area where pages of target process exist, then
// clusters in whole area will be tried on failure"; para 5: it "will look for processors for all clusters".
Allocation policy2(const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, Widest::Machine);
}

// Thesis 4.3, Policy3: "same as Policy2, but only home-node area is tried".
Allocation policy3(const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, Widest::HomeSubtree);
}

// Thesis 4.3, Policy4: "clusters that actually has target process's pages are allocated"; when they cannot
// give n processors, para 5: "Policy4 gives up scheduling the target process" (A23, taken literally). A
// process with no page anywhere (it has never run, or lost every page) has nothing for the rule to persist
// in, and would never start: it gets a first placement as Policy3 gives it.
Allocation policy4(const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, holds_no_page(request) ? Widest::HomeSubtree : Widest::PageClusters);
}

// The other reading of A23 (the specification's suggested default): when the page clusters cannot give n
// processors, Policy4 falls back to the home-node area for that slice, as Policy3.
Allocation policy4_home(const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, Widest::HomeSubtree);
}

const NumaPolicyEntry kPolicies[] = {
    {"policy0", "n free clusters drawn uniformly at random; waits with fewer free (thesis 4.3)", false,
     policy0},
    {"policy1",
     "the first n contiguous free clusters from cluster 0; waits when no such run is free (thesis 4.3, "
     "A21 (a))",
     false, policy1},
    {"policy2",
     "clusters holding its pages, then the home-node subtree, then the whole machine (thesis 4.3, A22, "
     "A23)",
     true, policy2},
    {"policy3",
     "clusters holding its pages, then the home-node subtree; waits if that is not enough (thesis 4.3, A22, "
     "A23)",
     true, policy3},
    {"policy4",
     "only clusters holding its pages, else it waits; a process with no page placed as policy3 (thesis "
     "4.3, A22, A23)",
     true, policy4},
    {"policy4-home",
     "policy4, but falling back to the home-node subtree when its page clusters are too few (A23's other "
     "reading)",
     true, policy4_home},
};

}  // namespace

std::span<const NumaPolicyEntry> numa_policies() {
  return kPolicies;
}

const NumaPolicyEntry* find_numa_policy(std::string_view name) {
  return util::find_named(numa_policies(), name);
}

std::string numa_policy_names() {
  return util::names_of(numa_policies(), " or ");
}

std::vector<int> place_threads(std::span<const int> allocated, std::span<const int> previous) {
  if (allocated.size() < previous.size())
    throw std::logic_error(
        fmt::format("place_threads: {} clusters for {} threads", allocated.size(), previous.size()));
  std::vector<int> clusters(allocated.begin(), allocated.end());
  std::sort(clusters.begin(), clusters.end());
  std::vector<char> taken(clusters.size(), 0);
  std::vector<int> placed(previous.size(), -1);
  // Figure 4.2: a thread whose previous cluster was allocated again runs there again (threads 3, 4, 5).
  for (std::size_t k = 0; k < previous.size(); ++k) {
    const auto it = std::lower_bound(clusters.begin(), clusters.end(), previous[k]);
    if (previous[k] < 0 || it == clusters.end() || *it != previous[k]) continue;
    const auto i = static_cast<std::size_t>(it - clusters.begin());
    if (taken[i]) continue;
    taken[i] = 1;
    placed[k] = previous[k];
  }
  // The remaining threads, "in thread ID order" (threads 0, 1, 2), take the newly allocated clusters in
  // increasing cluster ID (A29). Clusters beyond the threads' number stay unused.
  std::size_t next = 0;
  for (auto& cluster : placed) {
    if (cluster >= 0) continue;
    while (taken[next]) ++next;
    taken[next] = 1;
    cluster = clusters[next];
  }
  return placed;
}

}  // namespace cosched::sched
