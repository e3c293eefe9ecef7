// The resource management tree (thesis 3.1.1, 4.3; docs/models/numa.md section 4.1) over topologies built by
// hand (no SimGrid): the counts after allocations, releases and page moves, and the home node.

#include <gtest/gtest.h>

#include <vector>

#include "numa/rmt.hpp"

namespace cosched::numa {
namespace {

using Switch = platform::NumaTopology::Switch;

// Two levels, 4 x 4: root switch 0 over clusters 0..15; bottom switch s (1..4) over 4(s-1) .. 4(s-1)+3.
platform::NumaTopology two_levels() {
  platform::NumaTopology topology;
  topology.levels = 2;
  topology.fanout = {4, 4};
  topology.switches.push_back(Switch{"root", 1, -1, 0, 16, 4});
  for (int s = 1; s <= 4; ++s) topology.switches.push_back(Switch{"bottom", 2, 0, 4 * (s - 1), 4, 5});
  return topology;
}

// Three levels, 2 x 2 x 4: root 0 over 0..15; switches 1 (0..7) and 2 (8..15); 3 (0..3) and 4 (4..7) under
// 1, 5 (8..11) and 6 (12..15) under 2.
platform::NumaTopology three_levels() {
  platform::NumaTopology topology;
  topology.levels = 3;
  topology.fanout = {2, 2, 4};
  topology.switches = {Switch{"root", 1, -1, 0, 16, 2}, Switch{"a", 2, 0, 0, 8, 3},
                       Switch{"b", 2, 0, 8, 8, 3},      Switch{"a0", 3, 1, 0, 4, 5},
                       Switch{"a1", 3, 1, 4, 4, 5},     Switch{"b0", 3, 2, 8, 4, 5},
                       Switch{"b1", 3, 2, 12, 4, 5}};
  return topology;
}

TEST(NumaRmt, ANewTreeHasEverythingFree) {
  const ResourceTree tree(two_levels(), 3, 2);
  EXPECT_EQ(tree.clusters(), 16);
  EXPECT_EQ(tree.processors(ResourceTree::root()), 16);
  EXPECT_EQ(tree.frames(ResourceTree::root()), 48);
  EXPECT_EQ(tree.free_processors(ResourceTree::root()), 16);
  EXPECT_EQ(tree.free_pages(ResourceTree::root()), 48);
  EXPECT_EQ(tree.free_processors(2), 4);
  EXPECT_EQ(tree.free_pages(2), 12);
  EXPECT_EQ(tree.free_pages(tree.cluster_node(5)), 3);
  EXPECT_EQ(tree.clusters_below(3).first, 8);
  EXPECT_EQ(tree.clusters_below(tree.cluster_node(5)).first, 5);
  EXPECT_EQ(tree.clusters_below(tree.cluster_node(5)).count, 1);
  EXPECT_EQ(std::count(tree.free_clusters().begin(), tree.free_clusters().end(), 1), 16);
}

TEST(NumaRmt, ProcessorCountsAfterAllocationAndRelease) {
  ResourceTree tree(two_levels(), 3, 2);
  tree.allocate(0, 5);
  tree.allocate(0, 6);
  tree.allocate(1, 12);
  EXPECT_EQ(tree.free_processors(ResourceTree::root()), 13);
  EXPECT_EQ(tree.used_processors(ResourceTree::root(), 0), 2);
  EXPECT_EQ(tree.used_processors(ResourceTree::root(), 1), 1);
  EXPECT_EQ(tree.free_processors(2), 2) << "switch 2 (clusters 4..7) lost 5 and 6";
  EXPECT_EQ(tree.used_processors(2, 0), 2);
  EXPECT_EQ(tree.used_processors(2, 1), 0);
  EXPECT_EQ(tree.used_processors(4, 1), 1) << "switch 4 holds cluster 12";
  EXPECT_EQ(tree.free_processors(1), 4);
  EXPECT_EQ(tree.free_processors(tree.cluster_node(5)), 0);
  EXPECT_EQ(tree.used_processors(tree.cluster_node(5), 0), 1);
  EXPECT_EQ(tree.holder(5), 0);
  EXPECT_EQ(tree.holder(12), 1);
  EXPECT_EQ(tree.holder(7), -1);
  EXPECT_EQ(tree.free_clusters()[5], 0);
  EXPECT_THROW(tree.allocate(1, 6), std::logic_error) << "process 0 holds cluster 6";
  EXPECT_THROW(tree.release(1, 5), std::logic_error) << "process 1 does not hold cluster 5";

  tree.release(0, 5);
  EXPECT_EQ(tree.free_processors(ResourceTree::root()), 14);
  EXPECT_EQ(tree.free_processors(2), 3);
  EXPECT_EQ(tree.used_processors(2, 0), 1);
  EXPECT_EQ(tree.holder(5), -1);
  EXPECT_EQ(tree.free_clusters()[5], 1);

  tree.release_all();
  EXPECT_EQ(tree.free_processors(ResourceTree::root()), 16);
  EXPECT_EQ(tree.free_processors(2), 4);
  EXPECT_EQ(tree.used_processors(ResourceTree::root(), 0), 0);
  EXPECT_EQ(tree.used_processors(4, 1), 0);
  EXPECT_EQ(tree.holder(6), -1);
  EXPECT_EQ(tree.holder(12), -1);
}

TEST(NumaRmt, PageCountsAfterPagesMoveInAndOut) {
  ResourceTree tree(two_levels(), 3, 3);
  tree.page_in(0, 4);
  tree.page_in(0, 4);
  tree.page_in(2, 4);
  tree.page_in(0, 9);
  EXPECT_EQ(tree.free_pages(tree.cluster_node(4)), 0);
  EXPECT_THROW(tree.page_in(1, 4), std::logic_error) << "cluster 4's 3 frames are full";
  EXPECT_EQ(tree.free_pages(2), 9) << "12 frames under switch 2, 3 used";
  EXPECT_EQ(tree.used_pages(2, 0), 2);
  EXPECT_EQ(tree.used_pages(2, 2), 1);
  EXPECT_EQ(tree.used_pages(3, 0), 1);
  EXPECT_EQ(tree.used_pages(ResourceTree::root(), 0), 3);
  EXPECT_EQ(tree.free_pages(ResourceTree::root()), 44);
  EXPECT_EQ(tree.used_pages(tree.cluster_node(4), 0), 2);
  std::vector<int> expected(16, 0);
  expected[4] = 2;
  expected[9] = 1;
  const auto pages = tree.pages_by_cluster(0);
  EXPECT_EQ(std::vector<int>(pages.begin(), pages.end()), expected);
  EXPECT_EQ(tree.free_processors(ResourceTree::root()), 16) << "pages take no processor";

  tree.page_out(0, 4);
  EXPECT_EQ(tree.free_pages(tree.cluster_node(4)), 1);
  EXPECT_EQ(tree.used_pages(2, 0), 1);
  EXPECT_EQ(tree.free_pages(ResourceTree::root()), 45);
  EXPECT_EQ(tree.pages_by_cluster(0)[4], 1);
  EXPECT_THROW(tree.page_out(1, 4), std::logic_error) << "process 1 holds no page on cluster 4";
  tree.page_in(1, 4);
  EXPECT_EQ(tree.used_pages(ResourceTree::root(), 1), 1) << "the freed frame takes another process's page";
}

TEST(NumaRmt, HomeNodeIsTheLowestSwitchCoveringThePagesWithEnoughClusters) {
  ResourceTree tree(two_levels(), 3, 3);
  EXPECT_EQ(tree.home_node(1, 2), ResourceTree::root()) << "no page: the root";
  tree.page_in(2, 4);
  EXPECT_EQ(tree.home_node(2, 2), 2) << "pages on cluster 4 only: switch 2, 4 clusters";
  EXPECT_EQ(tree.home_node(2, 4), 2);
  EXPECT_EQ(tree.home_node(2, 5), ResourceTree::root()) << "switch 2 has 4 clusters, not 5";
  tree.page_in(0, 4);
  tree.page_in(0, 9);
  EXPECT_EQ(tree.home_node(0, 1), ResourceTree::root()) << "pages under switches 2 and 3";
  tree.page_out(0, 9);
  EXPECT_EQ(tree.home_node(0, 3), 2) << "its page on 9 gone, only cluster 4 remains";
}

TEST(NumaRmt, HomeNodeClimbsOnlyAsHighAsItMustInADeeperTree) {
  ResourceTree tree(three_levels(), 4, 1);
  tree.page_in(0, 4);
  tree.page_in(0, 6);
  EXPECT_EQ(tree.home_node(0, 2), 4) << "4 and 6 are under switch 4 (clusters 4..7)";
  EXPECT_EQ(tree.home_node(0, 5), 1) << "5 threads: switch 1 (clusters 0..7)";
  EXPECT_EQ(tree.home_node(0, 9), ResourceTree::root());
  tree.page_in(0, 1);
  EXPECT_EQ(tree.home_node(0, 2), 1) << "1 is under switch 3: the lowest common switch is 1";
  tree.page_in(0, 9);
  EXPECT_EQ(tree.home_node(0, 2), ResourceTree::root()) << "9 is under switch 2";
}

TEST(NumaRmt, RefusesATopologyThatIsNotATree) {
  auto topology = two_levels();
  topology.switches[3].first = 14;  // clusters 14..17: beyond the root's
  EXPECT_THROW(ResourceTree(topology, 3, 1), std::logic_error);
  topology = two_levels();
  topology.switches[2].first = 2;  // overlaps switch 1's clusters at the same level
  EXPECT_THROW(ResourceTree(topology, 3, 1), std::logic_error);
  EXPECT_THROW(ResourceTree(platform::NumaTopology{}, 3, 1), std::logic_error);
}

}  // namespace
}  // namespace cosched::numa
