// The NUMA model's tree platforms (platform/numa_platform) and its shared network (numa/shared_network) on
// SimGrid. Each test runs in its own process (gtest_discover_tests): the SimGrid engine is a singleton.
// docs/models/numa.md section 2 states the rules the expected values follow from.

#include <gtest/gtest.h>

#include <optional>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "config/input_error.hpp"
#include "numa/network.hpp"
#include "platform/numa_platform.hpp"
#include "platform/platform_check.hpp"

namespace cosched::platform {
namespace {

namespace sg4 = simgrid::s4u;

std::string source_path(const std::string& relative) {
  return std::string(COSCHED_SOURCE_DIR) + "/" + relative;
}

config::NumaConfig numa_on(const std::string& platform) {
  config::NumaConfig numa;
  numa.platform_file = source_path(platform);
  return numa;
}

struct Loaded {
  explicit Loaded(const std::string& platform) : numa(numa_on(platform)), engine(&argc, argv) {
    topology = build_numa_platform(engine, numa);
  }
  int argc = 1;
  char name[5] = "test";
  char* argv[2] = {name, nullptr};
  config::NumaConfig numa;
  sg4::Engine engine;
  NumaTopology topology;
};

std::vector<int> port_values(const NumaTopology& topology, const std::vector<int>& ports,
                             int NumaTopology::Port::*field) {
  std::vector<int> out;
  for (int port : ports) out.push_back(topology.ports[static_cast<std::size_t>(port)].*field);
  return out;
}

// The names of SimGrid's links on the route from cluster a to cluster b.
std::vector<std::string> simgrid_route(const NumaTopology& topology, int a, int b) {
  std::vector<sg4::Link*> links;
  topology.clusters[static_cast<std::size_t>(a)]->route_to(topology.clusters[static_cast<std::size_t>(b)],
                                                           links, nullptr);
  std::vector<std::string> names;
  for (const auto* link : links) names.push_back(link->get_name());
  return names;
}

std::vector<std::string> port_links(const NumaTopology& topology, const std::vector<int>& ports) {
  std::vector<std::string> names;
  for (int port : ports) names.push_back(topology.ports[static_cast<std::size_t>(port)].link);
  return names;
}

// w488 (chapter 5): fan-out 4, 8, 8; 256 clusters; 1 + 4 + 32 switches.
TEST(NumaPlatform, W488IsAThreeLevelTreeOf256ClustersAnd37Switches) {
  Loaded w488("platforms/numa-w488.xml");
  const auto& t = w488.topology;
  ASSERT_EQ(t.clusters.size(), 256u);
  EXPECT_EQ(t.clusters[0]->get_name(), "cluster-0");
  EXPECT_EQ(t.clusters[10]->get_name(), "cluster-10") << "natural order: cluster-10 after cluster-9";
  EXPECT_EQ(t.levels, 3);
  EXPECT_EQ(t.fanout, (std::vector<int>{4, 8, 8}));
  ASSERT_EQ(t.switches.size(), 37u);
  // The root: level 1, 4 children and no parent, so 4 input lines; all 256 clusters.
  EXPECT_EQ(t.switches[0].level, 1);
  EXPECT_EQ(t.switches[0].parent, -1);
  EXPECT_EQ(t.switches[0].first, 0);
  EXPECT_EQ(t.switches[0].count, 256);
  EXPECT_EQ(t.switches[0].input_lines, 4);
  // Level 2 (switches 1-4): 8 children and a parent; 64 clusters each.
  EXPECT_EQ(t.switches[2].level, 2);
  EXPECT_EQ(t.switches[2].parent, 0);
  EXPECT_EQ(t.switches[2].first, 64);
  EXPECT_EQ(t.switches[2].count, 64);
  EXPECT_EQ(t.switches[2].input_lines, 9);
  // Level 3 (switches 5-36): 8 clusters each; switch 5 + 8 * 1 + 3 is the 4th bottom switch of switch 2.
  EXPECT_EQ(t.switches[16].level, 3);
  EXPECT_EQ(t.switches[16].parent, 2);
  EXPECT_EQ(t.switches[16].first, 88);
  EXPECT_EQ(t.switches[16].count, 8);
  EXPECT_EQ(t.switches[16].input_lines, 9);
  EXPECT_EQ(t.switches[36].first, 248);
  EXPECT_EQ(t.ancestor[255], (std::vector<int>{36, 4, 0}));
  EXPECT_EQ(t.ancestor[90], (std::vector<int>{16, 2, 0}));
  // 2 directions of 256 cluster links and 36 switch links.
  EXPECT_EQ(t.ports.size(), 2u * 256 + 2 * 36);
}

TEST(NumaPlatform, W488RoutesClimbToTheLowestCommonSwitchAndComeBackDown) {
  Loaded w488("platforms/numa-w488.xml");
  const auto& t = w488.topology;
  EXPECT_EQ(t.height_of_lca(5, 5), 0);
  EXPECT_EQ(t.height_of_lca(0, 7), 1);
  EXPECT_EQ(t.height_of_lca(0, 8), 2);
  EXPECT_EQ(t.height_of_lca(63, 64), 3);
  EXPECT_EQ(t.route(0, 1).size(), 2u);
  EXPECT_EQ(t.route(0, 8).size(), 4u);
  EXPECT_EQ(t.route(0, 255).size(), 6u);
  EXPECT_TRUE(t.route(3, 3).empty());
  // Capacities (thesis 4.2.2, A28): nothing limits the injection port; a port leaving a bottom or level-2
  // switch holds its 8 + 1 input lines, one leaving the root its 4.
  const auto across = t.route(0, 255);
  EXPECT_EQ(port_values(t, across, &NumaTopology::Port::capacity), (std::vector<int>{-1, 9, 9, 4, 9, 9}));
  EXPECT_EQ(port_values(t, across, &NumaTopology::Port::level), (std::vector<int>{3, 2, 1, 1, 2, 3}));
  for (int port : across) EXPECT_DOUBLE_EQ(t.ports[static_cast<std::size_t>(port)].bandwidth, 81.92e9);
  EXPECT_EQ(
      port_links(t, across),
      (std::vector<std::string>{"switch-0-0_link_0_UP", "link-switch-0-0_UP", "link-switch-0_UP",
                                "link-switch-3_DOWN", "link-switch-3-7_DOWN", "switch-3-7_link_255_DOWN"}));
  // The ports stand for the links SimGrid routes over.
  for (auto [a, b] : {std::pair{0, 1}, {9, 0}, {100, 37}, {255, 0}, {64, 127}})
    EXPECT_EQ(port_links(t, t.route(a, b)), simgrid_route(t, a, b)) << a << " -> " << b;
}

// w4444: 4 levels of fan-out 4; 1 + 4 + 16 + 64 switches.
TEST(NumaPlatform, W4444IsAFourLevelTreeOf85Switches) {
  Loaded w4444("platforms/numa-w4444.xml");
  const auto& t = w4444.topology;
  ASSERT_EQ(t.clusters.size(), 256u);
  EXPECT_EQ(t.levels, 4);
  EXPECT_EQ(t.fanout, (std::vector<int>{4, 4, 4, 4}));
  EXPECT_EQ(t.switches.size(), 85u);
  EXPECT_EQ(t.route(0, 1).size(), 2u);
  EXPECT_EQ(t.route(0, 4).size(), 4u);
  EXPECT_EQ(t.route(0, 16).size(), 6u);
  EXPECT_EQ(t.route(0, 64).size(), 8u);
  EXPECT_EQ(port_values(t, t.route(255, 0), &NumaTopology::Port::capacity),
            (std::vector<int>{-1, 5, 5, 5, 4, 5, 5, 5}));
}

// More than 256 clusters: the routes are sampled, and the tree is read all the same.
TEST(NumaPlatform, Numa1024IsReadWithSampledRoutes) {
  Loaded big("platforms/numa-1024.xml");
  const auto& t = big.topology;
  ASSERT_EQ(t.clusters.size(), 1024u);
  EXPECT_EQ(t.fanout, (std::vector<int>{4, 4, 8, 8}));
  EXPECT_EQ(t.switches.size(), 1u + 4 + 16 + 128);
  EXPECT_EQ(port_links(t, t.route(1023, 5)), simgrid_route(t, 1023, 5));
}

// --- the shared network: SimGrid's flow model, inside an actor ---

// Runs `body` in an actor on w488 with the shared network, then SimGrid to its end.
template <typename Body>
void on_shared_w488(Body body) {
  Loaded w488("platforms/numa-w488.xml");
  auto network = numa::make_shared_network(w488.topology, w488.numa);
  sg4::Actor::create("machine", w488.topology.clusters[0], [&] { body(*network); });
  w488.engine.run();
}

numa::Message page(int from, int to, std::uint64_t tag = 0) {
  return numa::Message{from, to, numa::MessageKind::Page, tag};
}

// 81.92 GB/s on every link: a 4096-byte page takes 50 ns = 50 clocks at 1 GHz on each link. The flow model
// is cut-through: the page crosses all its links at once, so 50 clocks over 2 links as over 6 (the hop
// model takes 50 per hop).
TEST(NumaSharedNetwork, APageAloneTakesOneLinkTimeWhateverTheRoute) {
  std::vector<std::optional<numa::Delivery>> got;
  on_shared_w488([&](numa::Network& network) {
    network.send(page(0, 1, 7), 0);
    EXPECT_EQ(network.in_flight(), 1);
    got.push_back(network.next_delivery(1000));
    network.send(page(0, 255, 8), 100);
    got.push_back(network.next_delivery(1000));
    EXPECT_EQ(network.in_flight(), 0);
  });
  ASSERT_TRUE(got[0].has_value());
  EXPECT_EQ(got[0]->at, 50);
  EXPECT_EQ(got[0]->message.tag, 7u);
  ASSERT_TRUE(got[1].has_value());
  EXPECT_EQ(got[1]->at, 150);
  EXPECT_EQ(got[1]->message.to, 255);
}

// Late in a long run SimGrid's clock, a double in seconds, rounds: a page sent from cluster 0 at clock
// 64,570,078 (646 slices of 100,000 clocks) ends 7.5e-9 clock after the 50th. It must not cost a clock.
TEST(NumaSharedNetwork, APageLateInALongRunStillTakesFiftyClocks) {
  std::optional<numa::Delivery> got;
  on_shared_w488([&](numa::Network& network) {
    network.send(page(0, 200), 64'570'078);
    got = network.next_delivery(70'000'000);
  });
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->at, 64'570'128);
}

// A communication message is 16 bytes: 0.2 clock, delivered at the next clock.
TEST(NumaSharedNetwork, ASmallMessageIsDeliveredAtTheNextClock) {
  std::optional<numa::Delivery> got;
  on_shared_w488([&](numa::Network& network) {
    network.send(numa::Message{0, 64, numa::MessageKind::Communication, 1}, 10);
    got = network.next_delivery(100);
  });
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->at, 11);
}

// Two pages into cluster 1 share the last link (the port into cluster 1): each gets half the bandwidth,
// so both end at 100 clocks, in the order they were sent. Two pages on disjoint routes do not slow down.
TEST(NumaSharedNetwork, TwoPagesSharingALinkTakeLongerThanOne) {
  std::vector<numa::Delivery> shared, apart;
  on_shared_w488([&](numa::Network& network) {
    network.send(page(2, 1, 1), 0);
    network.send(page(0, 1, 2), 0);
    while (auto d = network.next_delivery(1000)) shared.push_back(*d);
    network.send(page(0, 1, 3), 1000);
    network.send(page(2, 3, 4), 1000);
    while (auto d = network.next_delivery(2000)) apart.push_back(*d);
  });
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0].at, 100);
  EXPECT_EQ(shared[0].message.tag, 1u) << "same clock, same completion: the first sent comes first";
  EXPECT_EQ(shared[1].at, 100);
  EXPECT_EQ(shared[1].message.tag, 2u);
  ASSERT_EQ(apart.size(), 2u);
  EXPECT_EQ(apart[0].at, 1050);
  EXPECT_EQ(apart[1].at, 1050);
}

// A page of 4096 bytes from 0 to 1 (alone for 25 clocks, then sharing with a second page into 1): the first
// has 2048 bytes left at 25 and moves at half speed until it ends at 25 + 50 = 75; the second then has
// 4096 - 2048 = 2048 left at full speed: 75 + 25 = 100.
TEST(NumaSharedNetwork, AMessageSlowsDownWhileAnotherSharesItsLink) {
  std::vector<numa::Delivery> got;
  on_shared_w488([&](numa::Network& network) {
    network.send(page(0, 1, 1), 0);
    EXPECT_FALSE(network.next_delivery(25).has_value()) << "nothing ends by clock 25";
    network.send(page(2, 1, 2), 25);
    while (auto d = network.next_delivery(1000)) got.push_back(*d);
  });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].at, 75);
  EXPECT_EQ(got[0].message.tag, 1u);
  EXPECT_EQ(got[1].at, 100);
  EXPECT_EQ(got[1].message.tag, 2u);
}

TEST(NumaSharedNetwork, WithNothingInFlightTimeDoesNotMove) {
  double clock = -1;
  bool delivered = true;
  on_shared_w488([&](numa::Network& network) {
    delivered = network.next_delivery(1'000'000).has_value();
    clock = sg4::Engine::get_clock();
  });
  EXPECT_FALSE(delivered);
  EXPECT_EQ(clock, 0.0);
}

// The model ends with a page on its way: dropping the network cancels it, so SimGrid's clock stops where the
// model stopped (clock 10), not where the page would have arrived (50).
TEST(NumaSharedNetwork, DroppingTheNetworkCancelsWhatIsInFlight) {
  Loaded w488("platforms/numa-w488.xml");
  auto network = numa::make_shared_network(w488.topology, w488.numa);
  sg4::Actor::create("machine", w488.topology.clusters[0], [&] {
    network->send(page(0, 1), 0);
    EXPECT_FALSE(network->next_delivery(10).has_value());
    network.reset();
  });
  w488.engine.run();
  EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 10e-9);
}

// A message to its own cluster crosses no link and is delivered when sent.
TEST(NumaSharedNetwork, AMessageToItsOwnClusterArrivesAtOnce) {
  std::optional<numa::Delivery> got;
  on_shared_w488([&](numa::Network& network) {
    network.send(page(4, 4), 30);
    got = network.next_delivery(30);
  });
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->at, 30);
}

// Hops and bytes per level from the routes: a page from 0 to 255 crosses 2 links of each level; a
// communication from 0 to 1 (16 bytes), 2 links of level 3.
TEST(NumaSharedNetwork, TrafficCountsHopsAndBytesPerLevel) {
  std::vector<numa::LevelTraffic> traffic;
  on_shared_w488([&](numa::Network& network) {
    network.send(page(0, 255), 0);
    network.send(numa::Message{0, 1, numa::MessageKind::Communication, 0}, 0);
    while (network.next_delivery(1000)) {
    }
    traffic = network.traffic();
  });
  ASSERT_EQ(traffic.size(), 3u);
  const auto page_kind = static_cast<std::size_t>(numa::MessageKind::Page);
  const auto communication = static_cast<std::size_t>(numa::MessageKind::Communication);
  EXPECT_EQ(traffic[0].hops[page_kind], 2);
  EXPECT_EQ(traffic[0].bytes, 2 * 4096);
  EXPECT_EQ(traffic[1].hops[page_kind], 2);
  EXPECT_EQ(traffic[2].hops[page_kind], 2);
  EXPECT_EQ(traffic[2].hops[communication], 2);
  EXPECT_EQ(traffic[2].bytes, 2 * 4096 + 2 * 16);
  for (const auto& level : traffic) {
    EXPECT_EQ(level.blocked_clocks, 0) << "the flow model never blocks";
    EXPECT_EQ(level.queued_clocks, 0);
  }
}

// --- bad platforms: one located line each, through the child process of cosched's platform check ---

std::string refusal(const std::string& file) {
  const std::string relative = "tests/data/bad-numa-platform/" + file;
  try {
    check_in_child_process(source_path(relative), [&relative] {
      int argc = 1;
      char name[] = "test";
      char* argv[] = {name, nullptr};
      sg4::Engine engine(&argc, argv);
      build_numa_platform(engine, numa_on(relative));
    });
  } catch (const config::InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
    return message;
  }
  ADD_FAILURE() << file << " was accepted";
  return "";
}

void expect_refused(const std::string& file, int line, const std::string& reason) {
  const std::string message = refusal(file);
  const std::string where =
      source_path("tests/data/bad-numa-platform/" + file) + ":" + std::to_string(line) + ": platform.file: ";
  EXPECT_EQ(message.rfind(where, 0), 0u) << message;
  EXPECT_NE(message.find(reason), std::string::npos) << message;
}

TEST(NumaPlatformRefused, AHostOutsideTheBottomSwitches) {
  expect_refused(
      "host-outside-switch.xml", 44,
      "host 'cluster-8' is in zone 'stray' at level 2, not in a bottom switch of the tree (level 3");
}

TEST(NumaPlatformRefused, NumberingThatIsNotContiguous) {
  expect_refused("not-contiguous.xml", 7,
                 "switch 'switch-0' (level 2) holds 'cluster-1' and 'cluster-4' but not 'cluster-2' (below "
                 "'switch-1-0'); expected each switch's clusters consecutive in the natural order");
}

TEST(NumaPlatformRefused, ARouteWithALinkTooMany) {
  expect_refused(
      "route-extra-link.xml", 7,
      "the route from 'cluster-0' to 'cluster-2' crosses 5 links where the tree has 4 (up to their "
      "lowest common switch 'switch-0', level 2, and down): switch-0-0_link_0_UP, link-switch-0-0_UP, "
      "detour");
}

TEST(NumaPlatformRefused, ARouteDownTheWrongEdge) {
  // The route from cluster-0 to cluster-2 makes link-switch-0-0_DOWN the port down into switch-0-1; the route
  // back from cluster-2 to cluster-0 (reversed by SimGrid) then climbs out of switch-0-1 by
  // link-switch-0-0_UP, the port up out of switch-0-0.
  expect_refused(
      "route-wrong-edge.xml", 7,
      "link 'link-switch-0-0_UP' is two ports of the tree: up from 'switch-0-0' to 'switch-0', and up "
      "from 'switch-0-1' to 'switch-0' (route cluster-2 to cluster-0); expected one link per edge");
}

// Cluster 2 climbs out of switch-0-1 by 'detour' towards cluster 0 (the way back of the route from
// switch-0-0), by link-switch-0-1 towards cluster 4: two links for one port. Located at the later route's
// lowest common switch, the root.
TEST(NumaPlatformRefused, TwoLinksForOneEdge) {
  expect_refused("route-other-link.xml", 6,
                 "routes go up from 'switch-0-1' to 'switch-0' by two links: 'detour_UP' (route cluster-2 to "
                 "cluster-0) and 'link-switch-0-1_UP' (route cluster-2 to cluster-4)");
}

TEST(NumaPlatformRefused, AZeroBandwidth) {
  expect_refused("bandwidth-zero.xml", 43, "link 'link-switch-1");
}

TEST(NumaPlatformRefused, AFanOutThatDiffersWithinALevel) {
  // One switch of each fan-out: the first met (switch-0's 2) is taken as the level's.
  expect_refused(
      "fanout-not-uniform.xml", 25,
      "switch 'switch-1' (level 2) has 3 switches below it where the other switches of level 2 have 2; "
      "expected one fan-out per level");
}

TEST(NumaPlatformRefused, ALatency) {
  expect_refused("latency.xml", 13, "link 'link-switch-0-1_UP' has latency 1e-06 s; expected 0");
}

TEST(NumaPlatformRefused, TwoBandwidthsInALevel) {
  expect_refused(
      "bandwidth-per-link.xml", 32,
      "link 'link-switch-1-1_UP' (level 2) has bandwidth 4.096e+10 B/s where the other links of level 2 "
      "have 8.192e+10 B/s; expected one bandwidth per level");
}

TEST(NumaPlatformRefused, OneCluster) {
  const std::string message = refusal("one-cluster.xml");
  EXPECT_NE(message.find("one-cluster.xml: platform.file: expected at least 2 hosts (the clusters), found 1"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace cosched::platform
