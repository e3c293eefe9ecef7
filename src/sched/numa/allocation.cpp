#include "sched/numa/allocation.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace cosched::sched {

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
