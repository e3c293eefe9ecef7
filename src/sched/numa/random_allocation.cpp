#include "sched/numa/random_allocation.hpp"

#include "util/random.hpp"

namespace cosched::sched {
namespace {

// Thesis 4.3, Policy0: "allocates randomly selected requested number of clusters": n of the free clusters,
// uniformly without replacement (a partial Fisher-Yates shuffle); fails with fewer than n free.
Allocation policy0(const config::PolicyParams&, const AllocationRequest& request, std::mt19937_64& rng) {
  std::vector<int> free;
  for (int c = 0; c < request.clusters(); ++c)
    if (request.is_free(c)) free.push_back(c);
  const auto n = static_cast<std::size_t>(request.threads);
  if (n == 0 || free.size() < n) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i) std::swap(free[i], free[i + util::uniform_below(rng, free.size() - i)]);
  free.resize(n);
  return sorted_clusters(std::move(free));
}

}  // namespace

const NumaPolicyEntry kPolicy0Entry{
    {"policy0",
     "n free clusters drawn uniformly at random; waits with fewer free (thesis 4.3)",
     {},
     config::default_params<NumaAllocationParams>,
     config::no_keys_json},
    false,
    policy0};

}  // namespace cosched::sched
