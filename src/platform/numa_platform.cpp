#include "platform/numa_platform.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "platform/now_platform.hpp"
#include "platform/platform_check.hpp"

namespace cosched::platform {

namespace sg4 = simgrid::s4u;

namespace {

// Up to this many clusters every route is read and checked; beyond, each cluster's route to one cluster
// at every height (enough to see every port of the tree from both of its ends).
constexpr int kAllRoutesUpTo = 256;

// The value most entries have; ties go to the one met first, so a single odd entry is the one blamed.
template <typename T>
T most_common(const std::vector<T>& values) {
  std::map<T, int> counts;
  T best = values.front();
  int best_count = 0;
  for (const T& value : values) {
    const int count = ++counts[value];
    if (count > best_count) best = value, best_count = count;
  }
  return best;
}

// Reads the tree of switches out of the zones of a loaded platform and checks its routes
// (docs/scenario-format.md, "NUMA platform files"). Every refusal is one located line.
class TreeReader {
 public:
  TreeReader(const sg4::Engine& engine, const std::string& file) : engine_(engine), file_(file) {}

  NumaTopology read() {
    read_clusters();
    read_switches();
    number_ports();
    read_routes();
    read_links();
    return std::move(topology_);
  }

 private:
  const sg4::Engine& engine_;
  const std::string& file_;
  NumaTopology topology_;
  std::vector<std::vector<const sg4::NetZone*>> paths_;  // each cluster's zones, from the root down
  std::vector<sg4::Link*> port_links_;                   // by port: the link direction it stands for
  std::vector<std::pair<int, int>> port_first_routes_;   // by port: the first route read that crosses it
  std::unordered_map<const sg4::Link*, int> link_ports_;

  int clusters() const { return static_cast<int>(topology_.clusters.size()); }
  const std::string& cluster_name(int c) const { return topology_.clusters[c]->get_name(); }
  const NumaTopology::Switch& switch_at(int s) const { return topology_.switches[s]; }
  int ancestor(int c, int k) const { return topology_.ancestor[c][k]; }

  [[noreturn]] void fail(const std::string& id, const std::string& zone, const std::string& what) const {
    fail_at_declaration(file_, id, zone, what);
  }

  // Hosts in the natural order of their names are the clusters (thesis 4.2.2: one processor and its
  // memory each); every one sits in a zone at the tree's bottom level.
  void read_clusters() {
    auto& hosts = topology_.clusters;
    hosts = engine_.get_all_hosts();
    std::sort(hosts.begin(), hosts.end(), [](const sg4::Host* a, const sg4::Host* b) {
      return natural_less(a->get_name(), b->get_name());
    });
    if (hosts.size() < 2)
      throw config::InputError(fmt::format(
          "{}: platform.file: expected at least 2 hosts (the clusters), found {}", file_, hosts.size()));
    for (const auto* host : hosts) {
      if (host->get_core_count() != 1)
        fail(host->get_name(), host->get_englobing_zone()->get_name(),
             fmt::format("host '{}' has {} cores; expected 1: a cluster is one processor and its memory "
                         "(thesis 4.2.2)",
                         host->get_name(), host->get_core_count()));
    }
    const sg4::NetZone* root = engine_.get_netzone_root();
    std::vector<int> depths;
    for (const auto* host : hosts) {
      // SimGrid 3.32's NetZone::get_parent() crashes on the root: climb until it is reached.
      std::vector<const sg4::NetZone*> path{host->get_englobing_zone()};
      while (path.back() != root) path.push_back(path.back()->get_parent());
      std::reverse(path.begin(), path.end());
      depths.push_back(static_cast<int>(path.size()));
      paths_.push_back(std::move(path));
    }
    const int levels = most_common(depths);
    const auto typical =
        static_cast<std::size_t>(std::find(depths.begin(), depths.end(), levels) - depths.begin());
    for (std::size_t c = 0; c < hosts.size(); ++c) {
      if (depths[c] == levels) continue;
      const auto& zone = paths_[c].back()->get_name();
      fail(hosts[c]->get_name(), zone,
           fmt::format(
               "host '{}' is in zone '{}' at level {}, not in a bottom switch of the tree (level {}, "
               "as '{}', which holds '{}'); expected every host (a cluster) in a zone of the bottom level",
               hosts[c]->get_name(), zone, depths[c], levels, paths_[typical].back()->get_name(),
               hosts[typical]->get_name()));
    }
    topology_.levels = levels;
  }

  // The switches are the zones on the way from the root to the clusters, numbered level by level from the
  // root, and within a level by their first cluster; zones holding no cluster (a switch's own router)
  // are not switches.
  void read_switches() {
    const int levels = topology_.levels;
    struct Found {
      const sg4::NetZone* zone;
      int level, parent;
      std::vector<int> children;  // found switches, by first cluster
      std::vector<int> clusters;  // in increasing order
    };
    std::vector<Found> found;
    std::unordered_map<const sg4::NetZone*, int> index;
    for (int c = 0; c < clusters(); ++c) {
      int parent = -1;
      for (int d = 0; d < levels; ++d) {
        const auto* zone = paths_[c][d];
        auto [at, added] = index.try_emplace(zone, static_cast<int>(found.size()));
        if (added) {
          found.push_back({zone, d + 1, parent, {}, {}});
          if (parent >= 0) found[parent].children.push_back(at->second);
        }
        found[at->second].clusters.push_back(c);
        parent = at->second;
      }
    }
    // Breadth first from the root: level by level, each level in the order of its first clusters.
    std::vector<int> order{0};
    for (std::size_t i = 0; i < order.size(); ++i)
      for (int child : found[order[i]].children) order.push_back(child);
    std::vector<int> number(found.size());
    for (std::size_t s = 0; s < order.size(); ++s) number[order[s]] = static_cast<int>(s);

    for (int level = 1; level <= levels; ++level) {
      std::vector<int> at_level, counts;
      for (int f : order) {
        const auto& sw = found[f];
        if (sw.level != level) continue;
        at_level.push_back(f);
        counts.push_back(static_cast<int>(level == levels ? sw.clusters.size() : sw.children.size()));
      }
      const int fanout = most_common(counts);
      const char* what = level == levels ? "clusters" : "switches";
      for (std::size_t i = 0; i < at_level.size(); ++i) {
        const auto& name = found[at_level[i]].zone->get_name();
        if (counts[i] < 2)
          fail(name, "",
               fmt::format("switch '{}' (level {}) has {} {} below it; expected at least 2", name, level,
                           counts[i], level == levels ? "cluster" : "switch"));
        if (counts[i] != fanout)
          fail(name, "",
               fmt::format(
                   "switch '{}' (level {}) has {} {} below it where the other switches of level {} have "
                   "{}; expected one fan-out per level (as w488 and w4444, chapter 5)",
                   name, level, counts[i], what, level, fanout));
      }
      topology_.fanout.push_back(fanout);
    }

    for (int f : order) {
      const auto& sw = found[f];
      const auto& cs = sw.clusters;
      for (std::size_t i = 0; i + 1 < cs.size(); ++i) {
        if (cs[i + 1] == cs[i] + 1) continue;
        const int missing = cs[i] + 1;
        fail(
            sw.zone->get_name(), "",
            fmt::format("switch '{}' (level {}) holds '{}' and '{}' but not '{}' (below '{}'); expected each "
                        "switch's clusters consecutive in the natural order of host names",
                        sw.zone->get_name(), sw.level, cluster_name(cs[i]), cluster_name(cs[i + 1]),
                        cluster_name(missing), paths_[missing].back()->get_name()));
      }
      NumaTopology::Switch out;
      out.name = sw.zone->get_name();
      out.level = sw.level;
      out.parent = sw.parent < 0 ? -1 : number[sw.parent];
      out.first = cs.front();
      out.count = static_cast<int>(cs.size());
      // Thesis 4.2.2: a node's output buffers hold as many messages as it has input lines, one from each
      // child and one from its parent (the root has none).
      const auto children = sw.level == levels ? cs.size() : sw.children.size();
      out.input_lines = static_cast<int>(children) + (sw.parent < 0 ? 0 : 1);
      topology_.switches.push_back(std::move(out));
    }

    topology_.ancestor.assign(static_cast<std::size_t>(clusters()), std::vector<int>(levels));
    for (int c = 0; c < clusters(); ++c)
      for (int k = 0; k < levels; ++k) topology_.ancestor[c][k] = number[index.at(paths_[c][levels - 1 - k])];
  }

  // Ports, one per direction of every tree edge: 2c is cluster c's injection port (up out of c), 2c + 1
  // the port into c; then, for every switch s but the root, 2N + 2(s - 1) up out of s and the next one
  // down into s. Each port's link is read from the routes (read_routes).
  int injection_port(int c) const { return 2 * c; }
  int ejection_port(int c) const { return 2 * c + 1; }
  int up_port_of(int s) const { return 2 * clusters() + 2 * (s - 1); }
  int down_port_of(int s) const { return up_port_of(s) + 1; }

  void number_ports() {
    const int levels = topology_.levels;
    const auto n = static_cast<std::size_t>(clusters());
    const auto port_count = 2 * n + 2 * (topology_.switches.size() - 1);
    topology_.ports.assign(port_count, {});
    port_links_.assign(port_count, nullptr);
    port_first_routes_.assign(port_count, {-1, -1});
    for (int c = 0; c < clusters(); ++c) {
      const int bottom = ancestor(c, 0);
      auto& injection = topology_.ports[injection_port(c)];
      injection.level = levels;
      injection.capacity = -1;  // a cluster's injection queue has no limit (A28)
      auto& ejection = topology_.ports[ejection_port(c)];
      ejection.level = levels;
      ejection.capacity = switch_at(bottom).input_lines;
    }
    for (int s = 1; s < static_cast<int>(topology_.switches.size()); ++s) {
      const auto& sw = switch_at(s);
      auto& up = topology_.ports[up_port_of(s)];
      up.level = sw.level - 1;
      up.capacity = sw.input_lines;
      auto& down = topology_.ports[down_port_of(s)];
      down.level = sw.level - 1;
      down.capacity = switch_at(sw.parent).input_lines;
    }
    topology_.up.assign(n, std::vector<int>(levels));
    topology_.down.assign(n, std::vector<int>(levels));
    for (int c = 0; c < clusters(); ++c) {
      for (int k = 0; k < levels; ++k) {
        topology_.up[c][k] = k == 0 ? injection_port(c) : up_port_of(ancestor(c, k - 1));
        topology_.down[c][k] = k == 0 ? ejection_port(c) : down_port_of(ancestor(c, k - 1));
      }
    }
  }

  std::string describe(int port) const {
    const int n = clusters();
    if (port < 2 * n) {
      const int c = port / 2;
      const auto& bottom = switch_at(ancestor(c, 0)).name;
      return port % 2 == 0 ? fmt::format("up from '{}' to '{}'", cluster_name(c), bottom)
                           : fmt::format("down from '{}' to '{}'", bottom, cluster_name(c));
    }
    const int s = (port - 2 * n) / 2 + 1;
    const auto& name = switch_at(s).name;
    const auto& parent = switch_at(switch_at(s).parent).name;
    return (port - 2 * n) % 2 == 0 ? fmt::format("up from '{}' to '{}'", name, parent)
                                   : fmt::format("down from '{}' to '{}'", parent, name);
  }

  // A route climbs from a to the lowest common switch of a and b and comes back down, one link per tree
  // edge (thesis 4.2.2: one-hop communication through the switches): 2h links, where h is that switch's
  // height. The first route to cross a tree edge in a direction names that port's link; every other
  // route must cross the edge by the same link, and no link may stand for two ports.
  void check_route(int a, int b, std::vector<sg4::Link*>& links) {
    const auto& from = topology_.clusters[a];
    const auto& to = topology_.clusters[b];
    links.clear();
    set_crash_context("computing the route", from->get_name(), to->get_name());
    from->route_to(to, links, nullptr);
    const std::vector<int> expected = topology_.route(a, b);
    const int height = static_cast<int>(expected.size()) / 2;
    const auto& lca = switch_at(ancestor(a, height - 1));
    if (links.size() != expected.size()) {
      std::string names;
      for (const auto* link : links) names += (names.empty() ? "" : ", ") + link->get_name();
      // The links last: a long list may be cut (platform_check.cpp keeps a line to 300 characters).
      fail(lca.name, "",
           fmt::format(
               "the route from '{}' to '{}' crosses {} links where the tree has {} (up to their lowest "
               "common switch '{}', level {}, and down): {}",
               from->get_name(), to->get_name(), links.size(), expected.size(), lca.name, lca.level, names));
    }
    for (std::size_t i = 0; i < links.size(); ++i) {
      const int port = expected[i];
      auto*& known = port_links_[port];
      if (known == links[i]) continue;
      if (known != nullptr) {
        const auto [first_from, first_to] = port_first_routes_[port];
        fail(lca.name, "",
             fmt::format(
                 "routes go {} by two links: '{}' (route {} to {}) and '{}' (route {} to {}); expected "
                 "one link per edge and direction",
                 describe(port), known->get_name(), cluster_name(first_from), cluster_name(first_to),
                 links[i]->get_name(), from->get_name(), to->get_name()));
      }
      auto [seen, added] = link_ports_.try_emplace(links[i], port);
      if (!added) {
        // Both directions of one edge: the link's declaration is at fault; else the route.
        const bool one_edge = seen->second / 2 == port / 2;
        fail(one_edge ? links[i]->get_name() : lca.name, "",
             fmt::format(
                 "link '{}' is two ports of the tree: {}, and {} (route {} to {}); expected one link per "
                 "edge and direction",
                 links[i]->get_name(), describe(seen->second), describe(port), from->get_name(),
                 to->get_name()));
      }
      known = links[i];
      port_first_routes_[port] = {a, b};
    }
  }

  void read_routes() {
    std::vector<sg4::Link*> links;
    const int n = clusters();
    if (n <= kAllRoutesUpTo) {
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          if (a != b) check_route(a, b, links);
    } else {
      // To the cluster at the same place in the next subtree of each height: every port is crossed from
      // both of its ends' sides.
      for (int a = 0; a < n; ++a) {
        for (int height = 1; height <= topology_.levels; ++height) {
          const auto& top = switch_at(ancestor(a, height - 1));
          const int fanout = topology_.fanout[top.level - 1];
          const int size = top.count / fanout;
          const int offset = a - top.first;
          const int b = top.first + (offset / size + 1) % fanout * size + offset % size;
          check_route(a, b, links);
        }
      }
    }
    set_crash_context("", "", "");
  }

  // Every port's link: latency 0 and one bandwidth per level (thesis 4.2.2: the hop time comes from the
  // message's size and its level's bandwidth).
  void read_links() {
    const int levels = topology_.levels;
    for (std::size_t p = 0; p < port_links_.size(); ++p) {
      const auto* link = port_links_[p];
      auto& port = topology_.ports[p];
      port.link = link->get_name();
      port.bandwidth = link->get_bandwidth();
      if (link->get_latency() != 0)
        fail(port.link, "",
             fmt::format(
                 "link '{}' has latency {:g} s; expected 0: a hop's time comes from the message's size "
                 "and the level's bandwidth alone (thesis 4.2.2)",
                 port.link, link->get_latency()));
    }
    for (int level = 1; level <= levels; ++level) {
      std::vector<double> bandwidths;
      for (const auto& port : topology_.ports)
        if (port.level == level) bandwidths.push_back(port.bandwidth);
      const double typical = most_common(bandwidths);
      for (const auto& port : topology_.ports)
        if (port.level == level && port.bandwidth != typical)
          fail(port.link, "",
               fmt::format(
                   "link '{}' (level {}) has bandwidth {:g} B/s where the other links of level {} have "
                   "{:g} B/s; expected one bandwidth per level (thesis 4.2.2)",
                   port.link, level, port.bandwidth, level, typical));
    }
  }
};

}  // namespace

NumaTopology build_numa_platform(sg4::Engine& engine, const config::NumaConfig& numa) {
  configure_network_model();
  try {
    engine.load_platform(numa.platform_file);
  } catch (const std::exception& e) {
    throw config::InputError(fmt::format("{}: platform.file: SimGrid cannot load this platform: {}",
                                         numa.platform_file, e.what()));
  }
  check_platform_values(engine, numa.platform_file, config::limits::kMaxCpus);
  return TreeReader(engine, numa.platform_file).read();
}

}  // namespace cosched::platform
