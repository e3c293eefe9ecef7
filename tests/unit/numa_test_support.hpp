#pragma once
// A NUMA tree topology built by hand, as platform::build_numa_platform would read it from a platform file,
// for tests of the machine without SimGrid: uniform fan-outs from the root, clusters numbered left to right,
// switches in breadth-first order (switch 0 the root), every link at `bandwidth`.

#include <vector>

#include "platform/numa_topology.hpp"

namespace cosched::numa::testing {

inline platform::NumaTopology hand_built_tree(const std::vector<int>& fanout, double bandwidth = 81.92e9) {
  platform::NumaTopology t;
  t.levels = static_cast<int>(fanout.size());
  t.fanout = fanout;
  // Switches level by level; each switch's children are the next level's switches (or clusters) in order.
  std::vector<std::vector<int>> by_level(t.levels + 1);
  t.switches.push_back({"sw", 1, -1, 0, 0, 0});
  by_level[1].push_back(0);
  for (int level = 1; level < t.levels; ++level)
    for (int parent : by_level[level])
      for (int k = 0; k < fanout[level - 1]; ++k) {
        by_level[level + 1].push_back(static_cast<int>(t.switches.size()));
        t.switches.push_back({"sw", level + 1, parent, 0, 0, 0});
      }
  int clusters = 0;
  std::vector<int> bottom_of;
  for (int s : by_level[t.levels]) {
    t.switches[s].first = clusters;
    t.switches[s].count = fanout.back();
    for (int k = 0; k < fanout.back(); ++k) bottom_of.push_back(s);
    clusters += fanout.back();
  }
  for (int level = t.levels - 1; level >= 1; --level)
    for (int s : by_level[level]) {
      t.switches[s].first = clusters;
      t.switches[s].count = 0;
      for (int c : by_level[level + 1])
        if (t.switches[c].parent == s) {
          t.switches[s].first = std::min(t.switches[s].first, t.switches[c].first);
          t.switches[s].count += t.switches[c].count;
        }
    }
  for (auto& s : t.switches) s.input_lines = fanout[s.level - 1] + (s.parent >= 0 ? 1 : 0);
  auto port = [&](int level, int capacity) {
    t.ports.push_back({"link", level, bandwidth, capacity});
    return static_cast<int>(t.ports.size()) - 1;
  };
  // Per switch (not the root): its up port and the down port into it.
  std::vector<int> up_of(t.switches.size(), -1), down_of(t.switches.size(), -1);
  for (std::size_t s = 1; s < t.switches.size(); ++s) {
    const auto& sw = t.switches[s];
    up_of[s] = port(sw.level - 1, sw.input_lines);
    down_of[s] = port(sw.level - 1, t.switches[sw.parent].input_lines);
  }
  t.up.resize(clusters);
  t.down.resize(clusters);
  t.ancestor.resize(clusters);
  for (int c = 0; c < clusters; ++c) {
    const int bottom = bottom_of[c];
    t.up[c].push_back(port(t.levels, -1));
    t.down[c].push_back(port(t.levels, t.switches[bottom].input_lines));
    for (int s = bottom; s >= 0; s = t.switches[s].parent) {
      t.ancestor[c].push_back(s);
      if (t.switches[s].parent >= 0) {
        t.up[c].push_back(up_of[s]);
        t.down[c].push_back(down_of[s]);
      }
    }
  }
  return t;
}

}  // namespace cosched::numa::testing
