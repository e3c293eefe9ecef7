// `cosched tree`: prints a notification tree as text or DOT; bad arguments are one line and exit 2.

#include <gtest/gtest.h>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

TEST(TreeCommand, SkewedOf16AsText) {
  Sandbox box;
  const auto r = box.run({"tree", "--kind", "skewed", "--processes", "16"});
  expect_success(r);
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 17u) << "a header and one line per process" << r.describe();
  EXPECT_TRUE(contains(lines[0], "skewed tree, 16 processes, L = 10us, o = 2us")) << r.describe();
  // Depth first in send order: 0, then 1 and its child 9 (B&M Figure 2 with L = 10us, o = 2us).
  EXPECT_EQ(lines[1], "0  notified 0us");
  EXPECT_EQ(lines[2], "  1  notified 14us");
  EXPECT_EQ(lines[3], "    9  notified 28us");
  EXPECT_EQ(lines[16], "  8  notified 28us") << "the root's 8th send, its first of the broadcast part";
}

TEST(TreeCommand, LatencyOverheadAndArrivalOrderChangeTheTree) {
  Sandbox box;
  // (L + 2o)/o = (4 + 2)/1 = 6 sends alone, more than the 3 other processes: flat, latest arrival first.
  const auto r = box.run({"tree", "--kind", "order-aware-skewed", "--processes", "4", "--latency", "4us",
                          "--overhead", "1us", "--arrival-order", "3,1,2"});
  expect_success(r);
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.describe();
  EXPECT_EQ(lines[2], "  2  notified 6us") << "last to arrive, first notified: o + L + o";
  EXPECT_EQ(lines[3], "  1  notified 7us");
  EXPECT_EQ(lines[4], "  3  notified 8us");
}

TEST(TreeCommand, DotThroughGraphviz) {
  Sandbox box;
  const auto r = box.run({"tree", "--kind", "binomial", "--processes", "3", "--format", "dot"});
  expect_success(r);
  EXPECT_EQ(r.out,
            "digraph G {\n0[label=\"0\\n0us\"];\n1[label=\"1\\n14us\"];\n2[label=\"2\\n16us\"];\n"
            "0->1 [label=\"1\"];\n0->2 [label=\"2\"];\n}\n");
}

struct BadTree {
  std::vector<std::string> args;
  const char* fragment;
};

TEST(TreeCommand, BadArgumentsAreOneLineAndExit2) {
  const BadTree cases[] = {
      {{"tree", "--kind", "fanout", "--processes", "4"},
       "--kind fanout: expected one of flat, binary, binomial, skewed, order-aware-skewed"},
      {{"tree", "--kind", "flat", "--processes", "0"}, "--processes 0: expected a process count from 1"},
      {{"tree", "--kind", "flat", "--processes", "many"}, "--processes many: expected a process count"},
      {{"tree", "--kind", "flat", "--processes", "100001"}, "--processes 100001"},
      {{"tree", "--kind", "flat", "--processes", "4", "--latency", "10"},
       "--latency 10: expected a non-negative duration"},
      {{"tree", "--kind", "flat", "--processes", "4", "--overhead", "-2us"}, "--overhead -2us"},
      {{"tree", "--kind", "flat", "--processes", "4", "--format", "svg"},
       "--format svg: expected text or dot"},
      {{"tree", "--kind", "flat", "--processes", "4", "--arrival-order", "1,2,3"},
       "--arrival-order: applies to --kind order-aware-skewed only"},
      {{"tree", "--kind", "order-aware-skewed", "--processes", "4", "--arrival-order", "1,2"},
       "expected all 3 ranks 1..3 once each, got 2"},
      {{"tree", "--kind", "order-aware-skewed", "--processes", "4", "--arrival-order", "1,1,2"},
       "rank 1 given twice"},
      {{"tree", "--kind", "order-aware-skewed", "--processes", "4", "--arrival-order", "0,1,2"},
       "--arrival-order 0: expected a rank from 1 to 3"},
      {{"tree", "--kind", "order-aware-skewed", "--processes", "4", "--arrival-order", "1,2,4"},
       "--arrival-order 4: expected a rank from 1 to 3"},
      {{"tree", "--kind", "flat", "--processes", "100000", "--overhead", "1000000s"},
       "--latency 10us --overhead 1000000s: expected --processes x (L + 2o) of at most 1e15 ns"},
      {{"tree", "--kind", "flat", "--processes", "4", "--latency", "9000000000s"},
       "the largest simulated time"},
      {{"tree", "--processes", "4"}, "--kind"},
      {{"tree", "--kind", "flat"}, "--processes"},
  };
  for (const auto& c : cases) {
    Sandbox box;
    const auto r = box.run(c.args);
    const auto line = expect_input_error(r);
    EXPECT_TRUE(contains(line, c.fragment)) << "expected '" << c.fragment << "'" << r.describe();
  }
}

}  // namespace
