#pragma once
// What the replacement strategies' tests share (thesis 4.4; docs/models/numa.md section 5): one cluster's
// frames with every page class present and two frames under coherency processing, and the order in which a
// strategy, with its defaults, empties a cluster.

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "sched/numa/replacement.hpp"
#include "sched/numa/replacement_registry.hpp"

namespace cosched::sched::testing {

// A strategy with its default parameters.
inline Replacement strategy(std::string_view name) {
  return Replacement(numa_replacements().defaults(name));
}

// frame, class, priority rank (0 highest), last reference, evictable.
inline std::vector<FrameView> every_class() {
  using enum PageClass;
  return {
      {0, OwnLocal, 0, 10, true},  {1, OtherCopy, 1, 50, false}, {2, OwnCopy, 0, 5, true},
      {3, OtherLast, 2, 40, true}, {4, OtherLocal, 1, 1, true},  {5, OwnLast, 0, 30, true},
      {6, OtherCopy, 1, 60, true}, {7, OtherCopy, 2, 70, true},  {8, OwnLocal, 0, 0, false},
  };
}

// Victims one after the other, each removed before the next is chosen, until none is evictable.
inline std::vector<int> eviction_order(std::string_view name, std::vector<FrameView> frames) {
  const auto replacement = strategy(name);
  std::vector<int> order;
  while (const auto victim = replacement.victim(frames)) {
    order.push_back(*victim);
    std::erase_if(frames, [&](const FrameView& f) { return f.frame == *victim; });
  }
  return order;
}

}  // namespace cosched::sched::testing
