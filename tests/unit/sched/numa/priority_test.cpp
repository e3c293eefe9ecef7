// Priorities of the NUMA model (thesis 3.1.3, reading A10; docs/models/numa.md section 4.3): the aging
// formula slice by slice on four processes of 8, 4, 4 and 2 threads, each value worked out by hand.

#include "sched/numa/priority.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace cosched::sched {
namespace {

ProcessSlice ran(int used) {
  return {true, used, false};
}
ProcessSlice waited() {
  return {false, 0, false};
}
ProcessSlice finished() {
  return {false, 0, true};
}

double sum(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

TEST(NumaPriority, ThreeSlicesWithoutAgingCoefficientConserveTheSum) {
  std::vector<double> priority(4, 0.0);
  // Slice 1: processes 0 (8) and 1 (4) ran, 2 and 3 waited: +8 and +4; their sum 12 shared, -6 each.
  std::vector<ProcessSlice> slice = {ran(8), ran(4), waited(), waited()};
  age(priority, slice, 0);
  EXPECT_EQ(priority, (std::vector<double>{8, 4, -6, -6}));
  EXPECT_EQ(sum(priority), 0);
  EXPECT_EQ(priority_order(priority, slice), (std::vector<int>{2, 3, 1, 0})) << "2 and 3 tie: lower ID";

  // Slice 2: 1 (4), 2 (4) and 3 (2) ran, 0 waited and takes all of -10.
  slice = {waited(), ran(4), ran(4), ran(2)};
  age(priority, slice, 0);
  EXPECT_EQ(priority, (std::vector<double>{-2, 8, -2, -4}));
  EXPECT_EQ(sum(priority), 0);
  EXPECT_EQ(priority_order(priority, slice), (std::vector<int>{3, 0, 2, 1}));

  // Slice 3: 3 has finished and takes no part; 0 (8) and 2 (4) ran, 1 waited: -12.
  slice = {ran(8), waited(), ran(4), finished()};
  age(priority, slice, 0);
  EXPECT_EQ(priority, (std::vector<double>{6, -4, 2, -4})) << "the finished process keeps its value";
  EXPECT_EQ(priority_order(priority, slice), (std::vector<int>{1, 2, 0})) << "finished ones left out";
}

TEST(NumaPriority, TheAgingCoefficientRaisesEveryWaitingProcess) {
  // The same three slices with C_r = 2: a waiting process also gets -C_r (1 - t) = -2.
  std::vector<double> priority(4, 0.0);
  age(priority, std::vector<ProcessSlice>{ran(8), ran(4), waited(), waited()}, 2);
  EXPECT_EQ(priority, (std::vector<double>{8, 4, -8, -8}));
  age(priority, std::vector<ProcessSlice>{waited(), ran(4), ran(4), ran(2)}, 2);
  EXPECT_EQ(priority, (std::vector<double>{-4, 8, -4, -6}));
  age(priority, std::vector<ProcessSlice>{ran(8), waited(), ran(4), finished()}, 2);
  EXPECT_EQ(priority, (std::vector<double>{4, -6, 0, -6}));
}

TEST(NumaPriority, NoWaitingProcessMeansNoAging) {
  // f_w = 0: nobody waited, so the running processes' aging is 0 and nothing moves.
  std::vector<double> priority = {3, -3, 1};
  age(priority, std::vector<ProcessSlice>{ran(8), ran(4), finished()}, 5);
  EXPECT_EQ(priority, (std::vector<double>{3, -3, 1}));
}

TEST(NumaPriority, UnequalSharesAndMismatchedSizes) {
  // 3 waiting processes share the 6 processors' aging of one running process: -2 each.
  std::vector<double> priority(4, 0.0);
  age(priority, std::vector<ProcessSlice>{waited(), ran(6), waited(), waited()}, 0);
  EXPECT_EQ(priority, (std::vector<double>{-2, 6, -2, -2}));
  EXPECT_EQ(priority_order(priority, std::vector<ProcessSlice>(4)), (std::vector<int>{0, 2, 3, 1}));
  EXPECT_THROW(age(priority, std::vector<ProcessSlice>(3), 0), std::logic_error);
  EXPECT_THROW(priority_order(priority, std::vector<ProcessSlice>(5)), std::logic_error);
}

}  // namespace
}  // namespace cosched::sched
