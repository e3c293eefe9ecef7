#include "numa/sync_points.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "numa/reference_stream.hpp"

namespace cosched::numa {

SyncPoints::SyncPoints(int threads, Members members, Clock sync_min, Clock sync_max, std::uint64_t seed)
    : threads_(threads), kind_(members), rng_(seed) {
  interval_ = sync_min + uniform_below(rng_, sync_max - sync_min + 1);
}

SyncPoints::Point& SyncPoints::draw_to(int k) {
  while (k >= first_ + static_cast<int>(points_.size())) {
    // A6: the members are a uniform random subset of the chosen size (a partial Fisher-Yates shuffle).
    Point pt;
    const int n = threads_;
    int size = n;
    if (kind_ == Members::RandomSubset) size = 2 + static_cast<int>(uniform_below(rng_, std::max(1, n - 1)));
    if (kind_ == Members::Pair) size = 2;
    size = std::min(size, n);
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    pt.member.assign(n, 0);
    pt.coordinator = n;
    for (int i = 0; i < size; ++i) {
      const int j = i + static_cast<int>(uniform_below(rng_, n - i));
      std::swap(order[i], order[j]);
      pt.member[order[i]] = 1;
      pt.coordinator = std::min(pt.coordinator, order[i]);
    }
    pt.members = size;
    points_.push_back(std::move(pt));
  }
  return points_[k - first_];
}

void SyncPoints::forget_passed(int lowest) {
  while (!points_.empty() && first_ < lowest && points_.front().arrived == points_.front().members) {
    points_.pop_front();
    ++first_;
  }
}

}  // namespace cosched::numa
