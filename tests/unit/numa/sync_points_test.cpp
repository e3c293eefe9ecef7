// A process's sync points (thesis 4.2.3, A6-A8; docs/models/numa.md section 6.5): the interval drawn once,
// who meets at each point (against a plain partial Fisher-Yates shuffle on the same stream), the release
// when the last member arrives, and which points are forgotten.

#include "numa/sync_points.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "numa/reference_stream.hpp"

namespace cosched::numa {
namespace {

using Members = SyncPoints::Members;

std::vector<int> members_of(SyncPoints& points, int k, int threads) {
  std::vector<int> out;
  for (int i = 0; i < threads; ++i)
    if (points.is_member(k, i)) out.push_back(i);
  return out;
}

TEST(NumaSyncPoints, TheIntervalIsDrawnOnceFromTheRangeAsTheStreamsFirstDraw) {
  EXPECT_EQ(SyncPoints(4, Members::All, 500, 500, 1).interval(), 500) << "a range of one value";
  std::mt19937_64 rng(77);
  EXPECT_EQ(SyncPoints(4, Members::All, 100, 199, 77).interval(), 100 + uniform_below(rng, 100));
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const Clock interval = SyncPoints(2, Members::All, 10, 12, seed).interval();
    ASSERT_GE(interval, 10);
    ASSERT_LE(interval, 12);
  }
}

TEST(NumaSyncPoints, EveryThreadMeetsAndTheLastArrivalReleases) {
  SyncPoints points(4, Members::All, 100, 100, 1);
  EXPECT_EQ(points.members(0), 4);
  EXPECT_EQ(members_of(points, 0, 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(points.coordinator(0), 0) << "the member with the lowest index";
  EXPECT_FALSE(points.arrive(0));
  EXPECT_FALSE(points.arrive(0));
  EXPECT_FALSE(points.arrive(0));
  EXPECT_TRUE(points.arrive(0)) << "the fourth of four members releases the point";
  EXPECT_FALSE(points.arrive(1)) << "the next point starts with no arrival";
}

// The plain rule of A6: the size (random-subset: 2 + a draw below n - 1; pair: 2; all: n), then that many
// members by a partial Fisher-Yates shuffle of 0..n-1, on the stream after the interval's draw.
std::vector<std::vector<int>> plain_points(Members kind, int n, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  uniform_below(rng, 1);  // the interval's draw (a range of one value still draws)
  std::vector<std::vector<int>> out;
  for (int k = 0; k < count; ++k) {
    int size = kind == Members::All ? n : kind == Members::Pair ? 2 : 2 + uniform_below(rng, n - 1);
    size = std::min(size, n);
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    for (int i = 0; i < size; ++i) std::swap(order[i], order[i + uniform_below(rng, n - i)]);
    std::vector<int> chosen(order.begin(), order.begin() + size);
    std::sort(chosen.begin(), chosen.end());
    out.push_back(chosen);
  }
  return out;
}

TEST(NumaSyncPoints, RandomSubsetsAndPairsAreThePlainShufflesDraws) {
  for (Members kind : {Members::RandomSubset, Members::Pair}) {
    const int n = 6;
    SyncPoints points(n, kind, 50, 50, 123);
    const auto expected = plain_points(kind, n, 40, 123);
    std::vector<int> sizes(n + 1, 0);
    for (int k = 0; k < 40; ++k) {
      const auto got = members_of(points, k, n);
      ASSERT_EQ(got, expected[k]) << "point " << k;
      EXPECT_EQ(points.members(k), static_cast<int>(got.size()));
      EXPECT_EQ(points.coordinator(k), got.front()) << "point " << k << ": the lowest member coordinates";
      ++sizes[got.size()];
    }
    if (kind == Members::Pair) {
      EXPECT_EQ(sizes[2], 40);
    }
    if (kind == Members::RandomSubset) {
      EXPECT_EQ(sizes[0] + sizes[1], 0) << "at least two meet";
      EXPECT_GT(sizes[n], 0) << "sizes up to n (40 points, P(never n) = (4/5)^40 < 1e-3)";
    }
  }
}

TEST(NumaSyncPoints, PointsAreDrawnInOrderWhicheverIsAskedFirst) {
  SyncPoints in_order(5, Members::RandomSubset, 10, 10, 9), jumping(5, Members::RandomSubset, 10, 10, 9);
  std::vector<std::vector<int>> a, b;
  for (int k = 0; k < 4; ++k) a.push_back(members_of(in_order, k, 5));
  EXPECT_EQ(jumping.members(3), static_cast<int>(a[3].size())) << "asking point 3 draws 0..3 first";
  for (int k = 0; k < 4; ++k) b.push_back(members_of(jumping, k, 5));
  EXPECT_EQ(a, b);
}

TEST(NumaSyncPoints, OnlyPassedAndCompletePointsAreForgotten) {
  SyncPoints points(2, Members::All, 10, 10, 1);
  for (int k = 0; k < 3; ++k) points.members(k);  // points 0, 1, 2 drawn
  EXPECT_EQ(points.held(), 3);
  points.arrive(0);
  points.arrive(0);  // point 0 complete
  points.arrive(1);  // point 1 waits for its second member
  points.forget_passed(3);
  EXPECT_EQ(points.held(), 2) << "point 0 forgotten; point 1 incomplete, and point 2 behind it, kept";
  points.arrive(1);
  points.forget_passed(1);
  EXPECT_EQ(points.held(), 2) << "point 1 is complete but a thread has yet to pass it";
  points.forget_passed(2);
  EXPECT_EQ(points.held(), 1);
  EXPECT_FALSE(points.arrive(2)) << "point 2 is still there";
  EXPECT_TRUE(points.arrive(2));
}

}  // namespace
}  // namespace cosched::numa
