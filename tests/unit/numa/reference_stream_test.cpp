// A thread's reference stream (docs/models/numa.md sections 6.1-6.2) on tiny tables with fixed seeds: the
// event probability by hand, and the draws (clocks to the next event, which event, one stepped clock) against
// an independent plain implementation of the rules fed the same random stream: a linear scan where the
// stream uses a Fenwick tree.

#include "numa/reference_stream.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "numa/reference_table.hpp"

namespace cosched::numa {
namespace {

constexpr std::int64_t kTotal = std::int64_t{1} << 40;  // build_reference_table's weights add up to 2^40

config::NumaTable entries(std::vector<config::NumaTableEntry> list) {
  config::NumaTable t;
  t.shape = "entries";
  t.entries = std::move(list);
  return t;
}

// Local space: page 0 read half the clocks, page 1 written a quarter, a quarter computing (no memory).
// Shared space: page 0 read 3/4, page 1 written 1/4.
struct Tables {
  ReferenceTable local = build_reference_table(entries({{1, 0.5, config::NumaAccess::Read},
                                                        {1, 0.25, config::NumaAccess::Write},
                                                        {1, 0.25, config::NumaAccess::Compute}}),
                                               3);
  ReferenceTable shared = build_reference_table(
      entries({{1, 0.75, config::NumaAccess::Read}, {1, 0.25, config::NumaAccess::Write}}), 2);
};

TEST(NumaReferenceStream, TheTablesWeighByTheirFrequencies) {
  const Tables t;
  EXPECT_EQ(t.local.total, kTotal);
  EXPECT_EQ(t.local.entry_weight, (std::vector<std::int64_t>{kTotal / 2, kTotal / 4}))
      << "the compute entry touches no memory: no entry, only its share of the total";
  EXPECT_EQ(t.shared.entry_weight, (std::vector<std::int64_t>{kTotal / 4 * 3, kTotal / 4}));
}

TEST(NumaReferenceStream, TheEventProbabilityIsEachSpacesShareOfItsEventWeights) {
  const Tables t;
  ReferenceStream stream(t.local, t.shared, 0.2, 1);
  stream.assign({kTotal / 2, kTotal / 4}, {kTotal / 4 * 3, kTotal / 4});
  EXPECT_DOUBLE_EQ(stream.event_probability(), 0.8 * 0.75 + 0.2 * 1.0) << "every memory entry an event";
  // Page 0 of the local space arrived here: its read is effective now.
  EXPECT_TRUE(stream.set(false, 0, 0));
  EXPECT_FALSE(stream.set(false, 0, 0)) << "no change";
  EXPECT_DOUBLE_EQ(stream.event_probability(), 0.8 * 0.25 + 0.2 * 1.0);
  // The shared write needs no update any more (its page has a single copy, here).
  EXPECT_TRUE(stream.set(true, 1, 0));
  EXPECT_DOUBLE_EQ(stream.event_probability(), 0.8 * 0.25 + 0.2 * 0.75);
  EXPECT_EQ(stream.weight(true, 0), kTotal / 4 * 3);
  EXPECT_EQ(stream.weight(true, 1), 0);
}

TEST(NumaReferenceStream, GeometricIsFloorOfLogUOverLogOneMinusP) {
  std::mt19937_64 rng(9), same(9);
  for (double p : {0.5, 0.01, 0.999}) {
    for (int i = 0; i < 50; ++i) {
      const Clock g = geometric(p, rng);
      const double u = util::uniform_open01(same);
      ASSERT_EQ(g, static_cast<Clock>(std::floor(std::log(u) / std::log1p(-p)))) << "p " << p;
    }
  }
  EXPECT_EQ(geometric(0, rng), kNever) << "no event ever";
  EXPECT_EQ(geometric(1, rng), 0) << "the very next clock";
  EXPECT_EQ(rng(), same()) << "neither edge draws";
  // Its mean is (1 - p) / p: 3 for p = 1/4 (standard error 3.46 / sqrt(20000) = 0.024).
  double sum = 0;
  for (int i = 0; i < 20000; ++i) sum += static_cast<double>(geometric(0.25, rng));
  EXPECT_NEAR(sum / 20000, 3.0, 0.1);
}

// The plain rules of section 6.2 on the same random stream: the space by U . (l + s) >= l, then the entry
// whose running sum of event weights passes a uniform draw below their total, by a linear scan.
struct PlainEvent {
  bool shared;
  int entry;
};
PlainEvent plain_event(std::mt19937_64& rng, double l, double s, const std::vector<std::int64_t>& local,
                       const std::vector<std::int64_t>& shared) {
  const bool is_shared = util::uniform_open01(rng) * (l + s) >= l;
  const auto& w = is_shared ? shared : local;
  std::int64_t total = 0;
  for (auto x : w) total += x;
  std::int64_t v = uniform_below(rng, total);
  int e = 0;
  while (v >= w[e]) v -= w[e++];
  return {is_shared, e};
}

TEST(NumaReferenceStream, TheNextEventIsDrawnAsThePlainRuleDrawsIt) {
  const Tables t;
  const std::vector<std::int64_t> local{kTotal / 2, kTotal / 4}, shared{kTotal / 4 * 3, kTotal / 4};
  ReferenceStream stream(t.local, t.shared, 0.2, 42);
  stream.assign(local, shared);
  std::mt19937_64 rng(42);
  const double l = 0.8 * 0.75, s = 0.2 * 1.0;
  std::vector<int> counts(4, 0);  // local 0, local 1, shared 0, shared 1
  const int n = 30000;
  for (int i = 0; i < n; ++i) {
    const Clock gap = stream.clocks_to_event();
    ASSERT_EQ(gap, geometric(l + s, rng)) << "draw " << i;
    const auto r = stream.draw_event();
    const auto expected = plain_event(rng, l, s, local, shared);
    ASSERT_EQ(r.shared, expected.shared) << "draw " << i;
    ASSERT_EQ(r.entry, expected.entry) << "draw " << i;
    ++counts[(r.shared ? 2 : 0) + r.entry];
  }
  // By hand: P(local 0) = 0.8 * 0.5 / 0.8 = 0.5, local 1: 0.25, shared 0: 0.2 * 0.75 / 0.8 = 0.1875, shared
  // 1: 0.0625 (3 standard errors at n = 30000 are under 0.009).
  EXPECT_NEAR(counts[0] / double(n), 0.5, 0.01);
  EXPECT_NEAR(counts[1] / double(n), 0.25, 0.01);
  EXPECT_NEAR(counts[2] / double(n), 0.1875, 0.01);
  EXPECT_NEAR(counts[3] / double(n), 0.0625, 0.01);
}

TEST(NumaReferenceStream, AnEntryThatIsNoEventIsNeverDrawnAsOne) {
  const Tables t;
  ReferenceStream stream(t.local, t.shared, 0.5, 3);
  stream.assign({0, kTotal / 4}, {0, 0});  // only the local write is an event
  EXPECT_DOUBLE_EQ(stream.event_probability(), 0.5 * 0.25);
  for (int i = 0; i < 1000; ++i) {
    const auto r = stream.draw_event();
    ASSERT_FALSE(r.shared);
    ASSERT_EQ(r.entry, 1);
  }
}

// Stepped execution: the space with probability r (A4), then the table's entry with probability f / sum f,
// compute included (entry -1): the plain rule on the same stream, and the frequencies by hand.
TEST(NumaReferenceStream, ASteppedClockDrawsTheSpaceThenTheEntryOfTheWholeTable) {
  const Tables t;
  ReferenceStream stream(t.local, t.shared, 0.2, 5);
  stream.assign({kTotal / 2, 0}, {0, kTotal / 4});  // local page 0 and the shared write are events
  std::mt19937_64 rng(5);
  std::vector<int> counts(5, 0);  // local 0, local 1, compute, shared 0, shared 1
  int events = 0;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    bool event = false;
    const auto r = stream.draw_clock(event);
    const bool shared = util::uniform_open01(rng) < 0.2;
    const ReferenceTable& table = shared ? t.shared : t.local;
    std::int64_t v = uniform_below(rng, table.total);
    int entry = -1;  // the first entry whose running sum of weights passes v; compute past the last
    for (std::size_t e = 0; e < table.entry_weight.size() && entry < 0; ++e) {
      if (v < table.entry_weight[e]) entry = static_cast<int>(e);
      v -= table.entry_weight[e];
    }
    ASSERT_EQ(r.shared, shared) << "clock " << i;
    ASSERT_EQ(r.entry, entry) << "clock " << i;
    ASSERT_EQ(event, (!shared && entry == 0) || (shared && entry == 1)) << "clock " << i;
    events += event;
    ++counts[r.shared ? 3 + r.entry : (r.entry < 0 ? 2 : r.entry)];
  }
  EXPECT_NEAR(counts[0] / double(n), 0.8 * 0.5, 0.01);
  EXPECT_NEAR(counts[1] / double(n), 0.8 * 0.25, 0.01);
  EXPECT_NEAR(counts[2] / double(n), 0.8 * 0.25, 0.01) << "computing: no memory entry";
  EXPECT_NEAR(counts[3] / double(n), 0.2 * 0.75, 0.01);
  EXPECT_NEAR(counts[4] / double(n), 0.2 * 0.25, 0.01);
  // A clock is an event with the probability the skipping draw uses: p = 0.8 * 0.5 + 0.2 * 0.25 = 0.45.
  EXPECT_NEAR(events / double(n), stream.event_probability(), 0.01);
  EXPECT_DOUBLE_EQ(stream.event_probability(), 0.45);
}

}  // namespace
}  // namespace cosched::numa
