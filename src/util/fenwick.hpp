#pragma once
// A Fenwick (binary indexed) tree of non-negative integer weights: point updates, the total, and the entry
// where a running sum passes a value, all in O(log n). Integer weights keep sums exact, so that sampling
// never depends on the order of updates.

#include <cstdint>
#include <vector>

namespace cosched::util {

class Fenwick {
 public:
  Fenwick() = default;
  explicit Fenwick(const std::vector<std::int64_t>& weights) { assign(weights); }

  // O(n): the tree of these weights.
  void assign(const std::vector<std::int64_t>& weights) {
    const std::size_t n = weights.size();
    weight_ = weights;
    tree_.assign(n + 1, 0);
    total_ = 0;
    for (std::size_t i = 1; i <= n; ++i) {
      tree_[i] += weights[i - 1];
      total_ += weights[i - 1];
      const std::size_t parent = i + (i & (~i + 1));
      if (parent <= n) tree_[parent] += tree_[i];
    }
    top_ = 1;
    while (top_ * 2 <= n) top_ *= 2;
  }

  std::size_t size() const { return weight_.size(); }
  std::int64_t total() const { return total_; }
  std::int64_t weight(std::size_t i) const { return weight_[i]; }

  void set(std::size_t i, std::int64_t w) {
    const std::int64_t delta = w - weight_[i];
    if (delta == 0) return;
    weight_[i] = w;
    total_ += delta;
    for (std::size_t k = i + 1; k < tree_.size(); k += k & (~k + 1)) tree_[k] += delta;
  }

  // The entry i with prefix(i) <= value < prefix(i + 1), for 0 <= value < total().
  std::size_t find(std::int64_t value) const {
    std::size_t pos = 0;
    for (std::size_t step = top_; step > 0; step /= 2) {
      const std::size_t next = pos + step;
      if (next < tree_.size() && tree_[next] <= value) {
        pos = next;
        value -= tree_[next];
      }
    }
    return pos;  // 0-based entry index
  }

 private:
  std::vector<std::int64_t> weight_;
  std::vector<std::int64_t> tree_;
  std::int64_t total_ = 0;
  std::size_t top_ = 1;
};

}  // namespace cosched::util
