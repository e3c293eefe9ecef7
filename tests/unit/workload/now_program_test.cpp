// What a NOW process does per phase: imbalance, the two interval bases, NEWS neighbours.

#include "workload/now_program.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "config/units.hpp"

namespace cosched::workload {
namespace {

TEST(NewsNeighbours, FormATorusReadInNorthEastWestSouthOrder) {
  // 32 processes: a 4 x 8 torus. Rank 9 is row 1, column 1.
  auto n = news_neighbours(9, 32);
  EXPECT_EQ(n[0], 1) << "north: row 0";
  EXPECT_EQ(n[1], 10) << "east";
  EXPECT_EQ(n[2], 8) << "west";
  EXPECT_EQ(n[3], 17) << "south: row 2";
  auto corner = news_neighbours(0, 32);
  EXPECT_EQ(corner[0], 24) << "north wraps to the last row";
  EXPECT_EQ(corner[2], 7) << "west wraps to the last column";
}

TEST(ImbalanceFactor, SpansVWithMeanOne) {
  std::mt19937_64 engine(3);
  double low = 10, high = 0, sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    double f = imbalance_factor(1.5, engine);
    low = std::min(low, f);
    high = std::max(high, f);
    sum += f;
  }
  EXPECT_NEAR(sum / n, 1.0, 0.002) << "a phase lasts sync_interval on average";
  EXPECT_NEAR(high / low, 1.5, 0.002) << "the slowest computes v times the fastest";
  EXPECT_GE(low, 0.8) << "2 / (1 + v)";
  EXPECT_LE(high, 1.2) << "2v / (1 + v)";
  EXPECT_DOUBLE_EQ(imbalance_spread(1.5), 0.4);
}

TEST(ProcessProgram, ComputeBasisCountsComputationOnly) {
  ProgramSpec spec{10'000, 150'000'000, 1.0, workload::Pattern::News, workload::IntervalBasis::Compute,
                   28'000, 32};
  ProcessProgram program(spec, 0, 1);
  auto phase = program.next_phase();
  EXPECT_EQ(phase.reads, 15000) << "150 ms / 10us";
  EXPECT_EQ(phase.compute(), 150'000'000);
}

TEST(ProcessProgram, DedicatedBasisFitsReadsAndRoundTripsInTheInterval) {
  ProgramSpec spec{10'000, 150'000'000, 1.0, workload::Pattern::News, workload::IntervalBasis::Dedicated,
                   28'000, 32};
  ProcessProgram program(spec, 0, 1);
  auto phase = program.next_phase();
  EXPECT_EQ(phase.reads, 3947) << "150 ms / (10us + 2L + 4o = 38us)";
  EXPECT_EQ(phase.chunk, 10'000);
  EXPECT_LT(phase.reads * (10'000 + 28'000) + phase.residual, 150'000'000 + 1) << "fits a dedicated 150 ms";
}

TEST(Units, DurationsAndBandwidthsNeedUnits) {
  EXPECT_EQ(config::parse_duration_ns("10us"), 10'000);
  EXPECT_EQ(config::parse_duration_ns("1.5ms"), 1'500'000);
  EXPECT_EQ(config::parse_duration_ns("2s"), 2'000'000'000);
  EXPECT_EQ(config::parse_duration_ns("0"), 0);
  EXPECT_EQ(config::parse_duration_ns("1e-3s"), 1'000'000) << "an exponent with a sign";
  EXPECT_EQ(config::parse_duration_ns("1e3us"), 1'000'000);
  EXPECT_FALSE(config::parse_duration_ns("10").has_value()) << "a unit is required";
  EXPECT_FALSE(config::parse_duration_ns("10 us").has_value());
  EXPECT_FALSE(config::parse_duration_ns("-1ms").has_value());
  EXPECT_DOUBLE_EQ(*config::parse_bandwidth_bytes_per_second("1Gbps"), 125e6);
  EXPECT_DOUBLE_EQ(*config::parse_bandwidth_bytes_per_second("125MBps"), 125e6);
  EXPECT_FALSE(config::parse_bandwidth_bytes_per_second("1Gb").has_value());
}

}  // namespace
}  // namespace cosched::workload
