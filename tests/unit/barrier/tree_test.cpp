// Barrier notification trees (docs/models/now.md section 4.4): shape (edges in send order, depth, the
// root's fan-out) and the time each process is notified on an idle network. Expectations are derived by
// hand from the rules: at each sender the j-th send ends j*o after it was notified, its child is notified
// L + o later; with B&M 3.1's L = 10us and o = 2us a hop costs 12us after the send.

#include <gtest/gtest.h>

#include <sstream>

#include "barrier/tree.hpp"

namespace cosched::barrier {
namespace {

constexpr std::int64_t kUs = 1000;

TreeGraph tree16(TreeKind kind, std::vector<int> arrival_order = {}) {
  return build_tree(TreeSpec{kind, 16, std::move(arrival_order), 10 * kUs, 2 * kUs});
}

std::vector<std::int64_t> notified_us(const TreeGraph& tree) {
  std::vector<std::int64_t> out;
  for (std::size_t v = 0; v < boost::num_vertices(tree); ++v) out.push_back(tree[v].notified / kUs);
  return out;
}

using Kids = std::vector<int>;

TEST(BarrierTree, KindsAreNamedOnce) {
  EXPECT_EQ(tree_kind_names(), "flat, binary, binomial, skewed, order-aware-skewed");
  EXPECT_EQ(tree_kind_named("order-aware-skewed"), TreeKind::OrderAwareSkewed);
  EXPECT_FALSE(tree_kind_named("Binomial").has_value()) << "names are case-sensitive";
  EXPECT_EQ(tree_kind_name(TreeKind::Skewed), "skewed");
}

TEST(BarrierTree, FlatRootNotifiesEveryProcessInRankOrder) {
  const auto t = tree16(TreeKind::Flat);
  Kids all;
  for (int r = 1; r < 16; ++r) all.push_back(r);
  EXPECT_EQ(tree_children(t, 0), all);
  EXPECT_EQ(tree_depth(t), 1);
  EXPECT_EQ(boost::num_edges(t), 15u);
  // Rank k: the root's k-th send ends at 2k us, then L + o = 12us.
  for (int r = 1; r < 16; ++r) EXPECT_EQ(t[r].notified, (2 * r + 12) * kUs) << "rank " << r;
  EXPECT_EQ(t[15].notified, 42 * kUs);
}

// B&M Figure 1, derived from 3.2.1: at step s every holder r < 2^(s-1) sends to r + 2^(s-1).
// step 1: 0->1; step 2: 0->2 1->3; step 3: 0->4 1->5 2->6 3->7; step 4: 0->8 1->9 ... 7->15.
TEST(BarrierTree, BinomialOf16IsFigure1) {
  const auto t = tree16(TreeKind::Binomial);
  EXPECT_EQ(tree_children(t, 0), (Kids{1, 2, 4, 8}));
  EXPECT_EQ(tree_children(t, 1), (Kids{3, 5, 9}));
  EXPECT_EQ(tree_children(t, 2), (Kids{6, 10}));
  EXPECT_EQ(tree_children(t, 3), (Kids{7, 11}));
  EXPECT_EQ(tree_children(t, 4), (Kids{12}));
  EXPECT_EQ(tree_children(t, 5), (Kids{13}));
  EXPECT_EQ(tree_children(t, 6), (Kids{14}));
  EXPECT_EQ(tree_children(t, 7), (Kids{15}));
  for (int r = 8; r < 16; ++r) EXPECT_TRUE(tree_children(t, r).empty()) << "rank " << r << " is a leaf";
  EXPECT_EQ(boost::num_edges(t), 15u);
  EXPECT_EQ(tree_depth(t), 4) << "log2(16) steps (B&M 3.2.1)";
  EXPECT_EQ(tree_parent(t, 15), 7);
  EXPECT_EQ(tree_parent(t, 0), -1);
  EXPECT_EQ(t[15].depth, 4);
  // Root: 1 at 2+12, 2 at 4+12, 4 at 6+12, 8 at 8+12. Rank 1 (14): 3 at 28, 5 at 30, 9 at 32.
  // Rank 2 (16): 6 at 30, 10 at 32. Rank 3 (28): 7 at 42, 11 at 44. 4 (18): 12 at 32. 5 (30): 13 at 44.
  // 6 (30): 14 at 44. 7 (42): 15 at 56, later than the flat tree's last (42): B&M's slowdown.
  EXPECT_EQ(notified_us(t),
            (std::vector<std::int64_t>{0, 14, 16, 28, 18, 30, 30, 42, 20, 32, 32, 44, 32, 44, 44, 56}));
}

TEST(BarrierTree, BinomialOfANonPowerOfTwoStopsAtTheLastRank) {
  const auto t = build_tree({TreeKind::Binomial, 6, {}, 10 * kUs, 2 * kUs});
  EXPECT_EQ(tree_children(t, 0), (Kids{1, 2, 4}));
  EXPECT_EQ(tree_children(t, 1), (Kids{3, 5}));
  EXPECT_TRUE(tree_children(t, 2).empty()) << "2 + 4 = 6 is past the last rank";
  EXPECT_EQ(tree_depth(t), 2) << "3 and 5, children of 1, are the deepest";
}

TEST(BarrierTree, BinaryIsAHeap) {
  const auto t = tree16(TreeKind::Binary);
  EXPECT_EQ(tree_children(t, 0), (Kids{1, 2}));
  EXPECT_EQ(tree_children(t, 6), (Kids{13, 14}));
  EXPECT_EQ(tree_children(t, 7), (Kids{15}));
  EXPECT_EQ(tree_depth(t), 4);
  // 1 at 14, 2 at 16; 3, 4 at 28, 30 (from 1); 7 at 42 (from 3, first send); 15 at 56 (from 7).
  EXPECT_EQ(t[4].notified, 30 * kUs);
  EXPECT_EQ(t[15].notified, 56 * kUs);
}

TEST(BarrierTree, SkewSendsAreTheSendsThatEndBeforeTheFirstMessageIsHandled) {
  EXPECT_EQ(skew_sends(10 * kUs, 2 * kUs), 7) << "(10 + 4) / 2: the 7th send ends at 14us = L + 2o";
  EXPECT_EQ(skew_sends(10 * kUs, 3 * kUs), 5) << "floor(16 / 3)";
  EXPECT_EQ(skew_sends(0, 2 * kUs), 2);
  EXPECT_EQ(skew_sends(1, 1'000'000), 2) << "never below 2 when o > 0: 2o/o";
}

// B&M Figure 2, derived from 3.2.2 with L = 10us, o = 2us: the root sends alone to 1..7 (the 7th send
// ends at 14us, when rank 1 handles the first); then the broadcast part: its 8 holders, the root first,
// each send to one more: 0->8, 1->9, ..., 7->15. 16 = 8 holders doubled: one broadcast step.
TEST(BarrierTree, SkewedOf16IsFigure2) {
  const auto t = tree16(TreeKind::Skewed);
  EXPECT_EQ(tree_children(t, 0), (Kids{1, 2, 3, 4, 5, 6, 7, 8}));
  for (int r = 1; r <= 7; ++r) EXPECT_EQ(tree_children(t, r), (Kids{r + 8})) << "rank " << r;
  for (int r = 8; r < 16; ++r) EXPECT_TRUE(tree_children(t, r).empty()) << "rank " << r;
  EXPECT_EQ(boost::out_degree(0, t), 8u);
  EXPECT_EQ(tree_depth(t), 2);
  // 1..8: 2r + 12 (14..28); 8 + j from rank j (2j + 12): 2j + 26, so 9 at 28 ... 15 at 40, before flat's 42.
  EXPECT_EQ(notified_us(t),
            (std::vector<std::int64_t>{0, 14, 16, 18, 20, 22, 24, 26, 28, 28, 30, 32, 34, 36, 38, 40}));
}

TEST(BarrierTree, SkewedWithFewProcessesIsFlat) {
  const auto t = build_tree({TreeKind::Skewed, 6, {}, 10 * kUs, 2 * kUs});
  EXPECT_EQ(tree_children(t, 0), (Kids{1, 2, 3, 4, 5}));
  const auto zero_overhead = build_tree({TreeKind::Skewed, 20, {}, 10 * kUs, 0});
  EXPECT_EQ(boost::out_degree(0, zero_overhead), 19u) << "o = 0: every send fits before the first arrives";
}

// 3.2.3: the skewed tree's interior nodes are the last to arrive. Arrivals: the even ranks, then the odd
// ones; latest first: 15 13 11 9 7 5 3 1 14 12 10 8 6 4 2 on the positions 1..15 of the skewed tree.
TEST(BarrierTree, OrderAwareSkewedPutsTheLastArrivalsInside) {
  const auto t = tree16(TreeKind::OrderAwareSkewed, {2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15});
  EXPECT_EQ(tree_children(t, 0), (Kids{15, 13, 11, 9, 7, 5, 3, 1}));
  EXPECT_EQ(tree_children(t, 15), (Kids{14}));
  EXPECT_EQ(tree_children(t, 13), (Kids{12}));
  EXPECT_EQ(tree_children(t, 3), (Kids{2}));
  for (int r : {1, 2, 4, 6, 8, 10, 12, 14}) EXPECT_TRUE(tree_children(t, r).empty()) << "rank " << r;
  EXPECT_EQ(tree_depth(t), 2);
  EXPECT_EQ(t[15].notified, 14 * kUs) << "the last to arrive is notified first";
  EXPECT_EQ(t[3].notified, 26 * kUs);
  EXPECT_EQ(t[1].notified, 28 * kUs);
  EXPECT_EQ(t[14].notified, 28 * kUs) << "from 15 (14us): 14 + 2 + 12";
  EXPECT_EQ(t[2].notified, 40 * kUs) << "from 3 (26us)";
}

TEST(BarrierTree, OrderAwareSkewedWithoutAnOrderTakesRankOrder) {
  const auto t = tree16(TreeKind::OrderAwareSkewed);
  EXPECT_EQ(tree_children(t, 0), (Kids{15, 14, 13, 12, 11, 10, 9, 8}));
  EXPECT_EQ(tree_children(t, 15), (Kids{7}));
  EXPECT_EQ(tree_children(t, 9), (Kids{1}));
}

TEST(BarrierTree, OneProcessIsARootAlone) {
  for (const auto& entry : tree_kinds()) {
    const auto t = build_tree({entry.kind, 1, {}, 10 * kUs, 2 * kUs});
    EXPECT_EQ(boost::num_vertices(t), 1u) << entry.name;
    EXPECT_EQ(boost::num_edges(t), 0u) << entry.name;
  }
}

TEST(BarrierTree, RefusesABadArrivalOrderOrProcessCount) {
  EXPECT_THROW(build_tree({TreeKind::OrderAwareSkewed, 4, {1, 2}, 10, 2}), std::invalid_argument);
  EXPECT_THROW(build_tree({TreeKind::OrderAwareSkewed, 4, {1, 2, 2}, 10, 2}), std::invalid_argument);
  EXPECT_THROW(build_tree({TreeKind::OrderAwareSkewed, 4, {0, 1, 2}, 10, 2}), std::invalid_argument);
  EXPECT_THROW(build_tree({TreeKind::Flat, 0, {}, 10, 2}), std::invalid_argument);
  EXPECT_THROW(build_tree({TreeKind::Flat, 3, {}, -1, 2}), std::invalid_argument);
}

TEST(BarrierTree, WritesDotAndText) {
  const auto t = build_tree({TreeKind::Binomial, 4, {}, 10 * kUs, 2 * kUs});
  std::ostringstream dot;
  write_tree_dot(dot, t);
  EXPECT_EQ(dot.str(),
            "digraph G {\n"
            "0[label=\"0\\n0us\"];\n"
            "1[label=\"1\\n14us\"];\n"
            "2[label=\"2\\n16us\"];\n"
            "3[label=\"3\\n28us\"];\n"
            "0->1 [label=\"1\"];\n"
            "0->2 [label=\"2\"];\n"
            "1->3 [label=\"1\"];\n"
            "}\n");
  std::ostringstream text;
  write_tree_text(text, t);
  EXPECT_EQ(text.str(), "0  notified 0us\n  1  notified 14us\n    3  notified 28us\n  2  notified 16us\n");
}

}  // namespace
}  // namespace cosched::barrier
