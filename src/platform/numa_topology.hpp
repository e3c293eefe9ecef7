#pragma once
// The tree of the NUMA model's platform as the machine and the hop network read it (Nobukuni
// 1997, 4.2.1-4.2.2; docs/models/numa.md section 2): built from the SimGrid platform by
// platform/numa_platform.hpp, and free of SimGrid itself, so that the model's logic (cosched_core) needs none
// of its headers.

#include <string>
#include <vector>

namespace simgrid::s4u {
class Host;
}  // namespace simgrid::s4u

namespace cosched::platform {

struct NumaTopology {
  // Cluster i is clusters[i]: hosts in the natural order of their names, which must number every subtree's
  // clusters contiguously (checked).
  std::vector<simgrid::s4u::Host*> clusters;
  int levels = 0;           // switch levels; the root switch is level 1, the bottom switches level `levels`
  std::vector<int> fanout;  // children of each switch, by level from the root (w488: 4, 8, 8)

  // Switch s: its level, its parent (-1 for the root, switch 0), and its subtree's clusters
  // [first, first + count). input_lines: its children, plus one for the line from its parent.
  struct Switch {
    std::string name;
    int level = 0;
    int parent = -1;
    int first = 0, count = 0;
    int input_lines = 0;
  };
  std::vector<Switch> switches;

  // An output port: one direction of one link, where a message waits for the link (thesis 4.2.2). Its
  // buffer holds `capacity` messages, the input lines of the node it leaves (-1: no limit, a cluster's
  // injection port).
  struct Port {
    std::string link;      // the SimGrid link (with its direction)
    int level = 0;         // the switch level of the link's upper end
    double bandwidth = 0;  // bytes per second, as the platform gives it
    int capacity = -1;
  };
  std::vector<Port> ports;

  // up[c][k]: the port a message from cluster c takes at its k-th hop up (k = 0 leaves the cluster);
  // down[c][k]: the port of the hop that brings a message into the subtree of c's ancestor at height k
  // (k = 0: the last hop, into c). A route of LCA height h is up[a][0..h-1] then down[b][h-1..0].
  std::vector<std::vector<int>> up, down;
  // ancestor[c][k]: the switch at height k + 1 above c (k = 0: c's bottom switch).
  std::vector<std::vector<int>> ancestor;

  // 0 when a == b. Inline and pure: the machine and the hop network (no SimGrid) ask it.
  int height_of_lca(int a, int b) const {
    if (a == b) return 0;
    const auto& above_a = ancestor[a];
    const auto& above_b = ancestor[b];
    int k = 0;
    while (above_a[k] != above_b[k]) ++k;
    return k + 1;
  }
  // The ports of the route from a to b, in order (2 * height_of_lca(a, b) of them).
  std::vector<int> route(int a, int b) const {
    const int height = height_of_lca(a, b);
    std::vector<int> ports;
    ports.reserve(2 * height);
    for (int k = 0; k < height; ++k) ports.push_back(up[a][k]);
    for (int k = height - 1; k >= 0; --k) ports.push_back(down[b][k]);
    return ports;
  }
};

}  // namespace cosched::platform
