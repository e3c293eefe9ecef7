// The timeline recorder and writer (src/metrics/timeline.*): canonical intervals and exact times.

#include "metrics/timeline.hpp"

#include <gtest/gtest.h>

namespace cosched::metrics {
namespace {

using I = TimelineInterval;

TEST(TimelineRecorder, ClosesEachIntervalWhereTheNextBegins) {
  TimelineRecorder r(1);
  r.enter(0, 0, 1, 3);
  r.enter(0, 5, 2, -1);
  r.enter(0, 9, 1, 3);
  EXPECT_EQ(r.closed(0, 12), (std::vector<I>{{0, 5, 1, 3}, {5, 9, 2, -1}, {9, 12, 1, 3}}));
}

TEST(TimelineRecorder, TheSameStateAndPlaceAgainIsNoNewInterval) {
  TimelineRecorder r(1);
  r.enter(0, 0, 1, 3);
  r.enter(0, 4, 1, 3);
  EXPECT_EQ(r.closed(0, 10), (std::vector<I>{{0, 10, 1, 3}}));
}

TEST(TimelineRecorder, TheSameStateElsewhereIsANewInterval) {
  TimelineRecorder r(1);
  r.enter(0, 0, 1, 3);
  r.enter(0, 4, 1, 2);
  EXPECT_EQ(r.closed(0, 10), (std::vector<I>{{0, 4, 1, 3}, {4, 10, 1, 2}}));
}

TEST(TimelineRecorder, AStateOfNoDurationLeavesNoTraceAndItsNeighboursMerge) {
  // 1 from 0, 2 at 5, back to 1 at 5 (the same instant): one interval of 1 from 0.
  TimelineRecorder r(1);
  r.enter(0, 0, 1, 3);
  r.enter(0, 5, 2, 3);
  r.enter(0, 5, 1, 3);
  r.enter(0, 7, 4, -1);
  EXPECT_EQ(r.closed(0, 9), (std::vector<I>{{0, 7, 1, 3}, {7, 9, 4, -1}}));
  // A chain of states at one instant keeps only the last.
  TimelineRecorder chain(1);
  chain.enter(0, 0, 1, 0);
  chain.enter(0, 3, 2, 0);
  chain.enter(0, 3, 3, 0);
  chain.enter(0, 3, 4, 0);
  EXPECT_EQ(chain.closed(0, 6), (std::vector<I>{{0, 3, 1, 0}, {3, 6, 4, 0}}));
  // Replaced at its first instant: the first state is the later one.
  TimelineRecorder first(1);
  first.enter(0, 0, 1, 0);
  first.enter(0, 0, 2, 0);
  EXPECT_EQ(first.closed(0, 4), (std::vector<I>{{0, 4, 2, 0}}));
}

TEST(TimelineRecorder, ClosingCutsWhatStartsAtOrAfterTheEnd) {
  TimelineRecorder r(2);
  r.enter(0, 0, 1, 0);
  r.enter(0, 5, 2, 0);
  r.enter(0, 8, 3, 0);
  EXPECT_EQ(r.closed(0, 8), (std::vector<I>{{0, 5, 1, 0}, {5, 8, 2, 0}}));
  EXPECT_EQ(r.closed(0, 6), (std::vector<I>{{0, 5, 1, 0}, {5, 6, 2, 0}}));
  EXPECT_TRUE(r.closed(1, 6).empty()) << "a process that never entered a state has no interval";
}

TEST(TimelineRecorder, RefusesTimeGoingBack) {
  TimelineRecorder r(1);
  r.enter(0, 5, 1, 0);
  EXPECT_THROW(r.enter(0, 4, 2, 0), std::logic_error);
}

TEST(TimelineFormat, NanosecondsPrintAsExactDecimalSeconds) {
  EXPECT_EQ(format_time(0, TimelineTime::NanosAsSeconds), "0");
  EXPECT_EQ(format_time(1'000'000'000, TimelineTime::NanosAsSeconds), "1");
  EXPECT_EQ(format_time(1'500'000, TimelineTime::NanosAsSeconds), "0.0015");
  EXPECT_EQ(format_time(1, TimelineTime::NanosAsSeconds), "0.000000001");
  EXPECT_EQ(format_time(12'345'678'901, TimelineTime::NanosAsSeconds), "12.345678901");
  EXPECT_EQ(format_time(100'000, TimelineTime::NanosAsSeconds), "0.0001");
  EXPECT_EQ(format_time(-2'000, TimelineTime::NanosAsSeconds), "-0.000002");
  EXPECT_EQ(format_time(864, TimelineTime::Integer), "864");
}

TEST(TimelineFormat, CsvHasOneRowPerIntervalAndAnEmptyPlaceOffTheCpu) {
  std::vector<TimelineLane> lanes = {{"fine", 0, 0, {{0, 3, 0, 0}, {3, 9, 1, -1}}},
                                     {"a,b", 2, 1, {{0, 1500, 1, 4}}}};
  EXPECT_EQ(timeline_csv(lanes, {"computing", "ready"}, TimelineTime::Integer),
            "job,copy,rank,state,start,end,place\n"
            "fine,0,0,computing,0,3,0\n"
            "fine,0,0,ready,3,9,\n"
            "\"a,b\",2,1,ready,0,1500,4\n");
  EXPECT_EQ(timeline_csv(lanes, {"computing", "ready"}, TimelineTime::NanosAsSeconds),
            "job,copy,rank,state,start,end,place\n"
            "fine,0,0,computing,0,0.000000003,0\n"
            "fine,0,0,ready,0.000000003,0.000000009,\n"
            "\"a,b\",2,1,ready,0,0.0000015,4\n");
}

}  // namespace
}  // namespace cosched::metrics
