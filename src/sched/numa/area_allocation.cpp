#include "sched/numa/area_allocation.hpp"

namespace cosched::sched {
namespace {

// pick(X, k) of docs/models/numa.md 4.5: the clusters of the process's previous allocation first (figure
// 4.2: its threads stay where they were and their local pages need not move), then the clusters holding
// most of its pages (4.3 para 5: the policies differ in "how much they persist in allocating processors from
// clusters where process's currently using physical pages are located"), then the lowest cluster ID.
std::vector<int> pick(const AllocationRequest& request, std::vector<int> candidates, std::size_t k) {
  std::vector<char> previous(request.free.size(), 0);
  for (const int c : request.previous)
    if (c >= 0 && c < request.clusters()) previous[c] = 1;
  std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
    if (previous[a] != previous[b]) return previous[a] > previous[b];
    if (request.pages_on(a) != request.pages_on(b)) return request.pages_on(a) > request.pages_on(b);
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
  for (int c = 0; c < request.clusters(); ++c) {
    if (!request.is_free(c)) continue;
    if (request.pages_on(c) > 0) {
      areas.area4.push_back(c);
    } else if (request.in_home(c)) {
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
// policy allows. An area that has n clusters with those inside it gets the process: every cluster of the
// inner areas, and pick() of its own for the rest. So Policy2's whole-machine step still takes the home
// subtree's free clusters before any outside it (the areas nest, figure 4.1).
Allocation nested_areas(const AllocationRequest& request, Widest widest) {
  const auto n = static_cast<std::size_t>(request.threads);
  if (n == 0) return std::nullopt;
  const Areas areas = areas_of(request);
  if (areas.area4.size() >= n) return sorted_clusters(pick(request, areas.area4, n));
  if (widest == Widest::PageClusters) return std::nullopt;
  std::vector<int> taken = areas.area4;
  if (taken.size() + areas.home_rest.size() >= n) {
    for (const int c : pick(request, areas.home_rest, n - taken.size())) taken.push_back(c);
    return sorted_clusters(std::move(taken));
  }
  if (widest == Widest::HomeSubtree) return std::nullopt;
  taken.insert(taken.end(), areas.home_rest.begin(), areas.home_rest.end());
  if (taken.size() + areas.machine_rest.size() < n) return std::nullopt;
  for (const int c : pick(request, areas.machine_rest, n - taken.size())) taken.push_back(c);
  return sorted_clusters(std::move(taken));
}

bool holds_no_page(const AllocationRequest& request) {
  return std::all_of(request.pages.begin(), request.pages.end(), [](int p) { return p == 0; });
}

// Thesis 4.3, Policy2: "first allocate clusters in home-node area where pages of target process exist, then
// clusters in whole area will be tried on failure"; para 5: it "will look for processors for all clusters".
Allocation policy2(const config::PolicyParams&, const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, Widest::Machine);
}

// Thesis 4.3, Policy3: "same as Policy2, but only home-node area is tried".
Allocation policy3(const config::PolicyParams&, const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, Widest::HomeSubtree);
}

// Thesis 4.3, Policy4: "clusters that actually has target process's pages are allocated"; when they cannot
// give n processors, para 5: "Policy4 gives up scheduling the target process" (A23, taken literally). A
// process with no page anywhere (it has never run, or lost every page) has nothing for the rule to persist
// in, and would never start: it gets a first placement as Policy3 gives it.
Allocation policy4(const config::PolicyParams&, const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, holds_no_page(request) ? Widest::HomeSubtree : Widest::PageClusters);
}

// The other reading of A23 (the specification's suggested default): when the page clusters cannot give n
// processors, Policy4 falls back to the home-node area for that slice, as Policy3.
Allocation policy4_home(const config::PolicyParams&, const AllocationRequest& request, std::mt19937_64&) {
  return nested_areas(request, Widest::HomeSubtree);
}

constexpr config::PolicySpec spec(std::string_view name, std::string_view doc) {
  return {name, doc, {}, config::default_params<NumaAllocationParams>, config::no_keys_json};
}

}  // namespace

const NumaPolicyEntry kPolicy2Entry{
    spec("policy2",
         "clusters holding its pages, then the home-node subtree, then the whole machine (thesis 4.3, A22, "
         "A23)"),
    true, policy2};
const NumaPolicyEntry kPolicy3Entry{
    spec("policy3",
         "clusters holding its pages, then the home-node subtree; waits if that is not enough (thesis 4.3, "
         "A22, A23)"),
    true, policy3};
const NumaPolicyEntry kPolicy4Entry{
    spec("policy4",
         "only clusters holding its pages, else it waits; a process with no page placed as policy3 (thesis "
         "4.3, A22, A23)"),
    true, policy4};
const NumaPolicyEntry kPolicy4HomeEntry{
    spec("policy4-home",
         "policy4, but falling back to the home-node subtree when its page clusters are too few (A23's other "
         "reading)"),
    true, policy4_home};

}  // namespace cosched::sched
