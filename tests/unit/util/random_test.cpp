// The portable uniform draws: bounds, every value reachable, the rejection threshold, and the very values the
// four copies it replaced drew (the run digests depend on them).

#include "util/random.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace cosched::util {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// The copies' rule restated: draw until below max - max % bound, return the draw modulo bound.
std::uint64_t reference_rejection(std::mt19937_64& engine, std::uint64_t bound) {
  for (;;) {
    const std::uint64_t value = engine();
    if (value < kMax - kMax % bound) return value % bound;
  }
}

TEST(RejectionLimit, IsTheLargestMultipleOfTheBoundNotAboveTheMaximum) {
  EXPECT_EQ(rejection_limit(1), kMax) << "bound 1: max % 1 = 0";
  EXPECT_EQ(rejection_limit(3), kMax) << "2^64 - 1 is divisible by 3";
  EXPECT_EQ(rejection_limit(2), kMax - 1) << "2^64 - 1 is odd: its last value is rejected";
  EXPECT_EQ(rejection_limit(10), kMax - 5) << "2^64 - 1 = ...615, 615 % 10 = 5";
  EXPECT_EQ(rejection_limit(std::uint64_t{1} << 63), std::uint64_t{1} << 63);
  for (std::uint64_t bound : {2ull, 7ull, 10ull, 1000ull, 4294967311ull}) {
    EXPECT_EQ(rejection_limit(bound) % bound, 0u) << "bound " << bound << ": every residue equally often";
    EXPECT_LE(kMax - rejection_limit(bound), bound) << "bound " << bound << ": fewer than bound+1 rejected";
  }
}

TEST(UniformBelow, RejectsDrawsAtOrAboveTheLimit) {
  // Bound 2^63 + 1: the limit is 2^63 + 1, so about half the draws are rejected; the accepted ones are below
  // it and equal the draw itself (the draw modulo the bound).
  const std::uint64_t bound = (std::uint64_t{1} << 63) + 1;
  std::mt19937_64 raw(7), engine(7);
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t value = uniform_below(engine, bound);
    std::uint64_t draw = raw();
    while (draw >= rejection_limit(bound)) draw = raw(), ++rejected;
    ASSERT_EQ(value, draw) << "draw " << i << ": the first draw below the limit, unchanged";
  }
  EXPECT_GT(rejected, 400) << "about half of the draws are at or above 2^63 + 1";
  EXPECT_LT(rejected, 1600);
}

TEST(UniformBelow, StaysInBoundsAndReachesEveryValue) {
  std::mt19937_64 engine(1);
  for (std::uint64_t bound : {1u, 2u, 3u, 5u, 17u}) {
    std::vector<int> seen(bound, 0);
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t v = uniform_below(engine, bound);
      ASSERT_LT(v, bound);
      ++seen[v];
    }
    for (std::uint64_t v = 0; v < bound; ++v)
      EXPECT_GT(seen[v], 2000 / static_cast<int>(bound) / 2) << "value " << v << " of bound " << bound;
  }
}

TEST(UniformBelow, DrawsTheSameSequenceAsTheRuleItReplaced) {
  std::mt19937_64 engine(20240601), reference(20240601);
  for (std::uint64_t bound = 1; bound < 400; ++bound)
    ASSERT_EQ(uniform_below(engine, bound), reference_rejection(reference, bound)) << "bound " << bound;
  // The first values for seed 1, bound 6, written out: std::mt19937_64(1)'s first draws are
  // 2469588189546311528, 2516265689700432462, 8323445853463659930, ... (all far below the limit), modulo 6.
  std::mt19937_64 seeded(1);
  std::vector<std::uint64_t> first;
  for (int i = 0; i < 8; ++i) first.push_back(uniform_below(seeded, 6));
  EXPECT_EQ(first, (std::vector<std::uint64_t>{2, 0, 0, 0, 0, 3, 2, 3})) << "seed 1, bound 6";
}

TEST(UniformBetween, CoversTheClosedRangeAndCollapsesAnEmptyOne) {
  std::mt19937_64 engine(3), reference(3);
  std::vector<int> seen(5, 0);
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t v = uniform_between(engine, -2, 2);
    ASSERT_GE(v, -2);
    ASSERT_LE(v, 2);
    ASSERT_EQ(v, -2 + static_cast<std::int64_t>(reference_rejection(reference, 5)));
    ++seen[v + 2];
  }
  for (int k = 0; k < 5; ++k) EXPECT_GT(seen[k], 100) << "value " << k - 2;
  std::mt19937_64 untouched(3), compare(3);
  EXPECT_EQ(uniform_between(untouched, 4, 4), 4);
  EXPECT_EQ(uniform_between(untouched, 4, 1), 4) << "hi < lo gives lo";
  EXPECT_EQ(untouched(), compare()) << "a range of one value draws nothing";
}

TEST(UniformBelowMultiplyHigh, IsTheHighWordOfTheProduct) {
  std::mt19937_64 engine(11), raw(11);
  for (std::uint64_t bound : {1u, 2u, 3u, 1000u, 123456789u}) {
    for (int i = 0; i < 100; ++i) {
      const std::uint64_t x = raw();
      __extension__ using Wide = unsigned __int128;
      const auto expected = static_cast<std::uint64_t>((static_cast<Wide>(x) * bound) >> 64);
      ASSERT_EQ(uniform_below_multiply_high(engine, bound), expected);
      ASSERT_LT(expected, bound);
    }
  }
  // Its edges by hand: draw 0 gives 0, draw 2^64 - 1 gives bound - 1, draw 2^63 gives floor(bound / 2).
  const std::uint64_t bound = 7;
  __extension__ using Wide = unsigned __int128;
  EXPECT_EQ(static_cast<std::uint64_t>((static_cast<Wide>(kMax) * bound) >> 64), bound - 1);
  EXPECT_EQ(static_cast<std::uint64_t>((static_cast<Wide>(std::uint64_t{1} << 63) * bound) >> 64), 3u);
}

TEST(UniformBelowMultiplyHigh, ReachesEveryValueAboutEquallyOften) {
  std::mt19937_64 engine(5);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 6000; ++i) ++seen[uniform_below_multiply_high(engine, 6)];
  for (int v = 0; v < 6; ++v) EXPECT_NEAR(seen[v], 1000, 150) << "value " << v;
}

}  // namespace
}  // namespace cosched::util
