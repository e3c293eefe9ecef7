// The seed's timing method (user-space-task-scheduling-exercise 1.2.1) on fake clocks: the subtraction of
// the loop without switches, the division by the number of switches, the repetitions' mean and sample
// standard deviation, and which row gives a figure. Every expected value is worked out by hand.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "calibrate/method.hpp"

namespace cosched::calibrate {
namespace {

// A clock that answers the readings it was given, in order, and counts them.
struct ScriptedClock {
  std::vector<std::int64_t> readings;
  std::size_t next = 0;
  std::int64_t operator()() { return readings.at(next++); }
};

TEST(CalibrateMethod, SubtractsTheLoopWithoutSwitchesAndDividesBySwitches) {
  ScriptedClock clock{{1000, 4000, 4500}};
  Counter counter = 0;
  int rounds_run = 0;
  const double ns = time_per_operation_ns(
      clock, 10, 2, [&] { ++rounds_run; }, counter);
  // 10 round trips of 2 switches: (4000 - 1000) - (4500 - 4000) = 2500 ns over 20 switches.
  EXPECT_DOUBLE_EQ(ns, 125.0);
  EXPECT_EQ(clock.next, 3u) << "three readings: start, end of the switches, end of the loop without them";
  EXPECT_EQ(rounds_run, 10);
  // One increment before each round, then the 20 increments of the loop without switches (the partner's
  // increments, one per round trip, are made by the real partner, absent here).
  EXPECT_EQ(static_cast<std::uint64_t>(counter), 10u + 20u);
}

TEST(CalibrateMethod, OneOperationPerRoundForDispatches) {
  ScriptedClock clock{{0, 7000, 8000}};
  Counter counter = 0;
  const double ns = time_per_operation_ns(
      clock, 1000, 1, [] {}, counter);
  EXPECT_DOUBLE_EQ(ns, 6.0) << "(7000 - 1000) / 1000 dispatches";
  EXPECT_EQ(static_cast<std::uint64_t>(counter), 2000u);
}

TEST(CalibrateMethod, ClockThatOnlySwitchesAdvanceGivesTheSwitchCost) {
  // Fake time moves 300 ns per round trip (two switches of 150 ns) and not at all in the loop without
  // switches: the method gives 150 ns per switch, whatever the number of rounds.
  std::int64_t now = 5'000;
  auto clock = [&now] { return now; };
  Counter counter = 0;
  for (const std::int64_t rounds : {1, 7, 1000}) {
    EXPECT_DOUBLE_EQ(time_per_operation_ns(
                         clock, rounds, 2, [&now] { now += 300; }, counter),
                     150.0)
        << rounds << " rounds";
  }
}

TEST(CalibrateMethod, ANoisierLoopWithoutSwitchesIsNotHidden) {
  // The loop without switches took longer than the one with them (the thread was preempted in it): the
  // method's figure is negative, and it is reported as it is, not replaced by a made-up one.
  ScriptedClock clock{{0, 100, 400}};
  Counter counter = 0;
  EXPECT_DOUBLE_EQ(time_per_operation_ns(
                       clock, 50, 2, [] {}, counter),
                   -2.0)
      << "(100 - 300) / 100";
}

TEST(CalibrateStatistics, MeanAndSampleStandardDeviation) {
  // mean 5; squares about it 9+1+1+1+0+0+4+16 = 32; sample variance 32/7 (population's would be 32/8 = 4).
  const Stats s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.std, std::sqrt(32.0 / 7.0), 1e-12);
  const Stats two = summarize({157.4, 157.6});
  EXPECT_DOUBLE_EQ(two.mean, 157.5);
  EXPECT_NEAR(two.std, std::sqrt(0.02), 1e-12) << "(0.01 + 0.01) / (2 - 1)";
  const Stats same = summarize({6.0, 6.0, 6.0});
  EXPECT_EQ(same.std, 0.0);
}

TEST(CalibrateStatistics, OneRepetitionHasNoSpread) {
  EXPECT_THROW(summarize({1.0}), std::invalid_argument);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(CalibrateDisturbances, APreemptedTrialIsRunAgain) {
  // The count of preemptions grows during the first two attempts only: the third is kept.
  long preemptions = 0;
  int attempts = 0;
  Disturbances seen{100};
  const double result = undisturbed(
      [&] {
        ++attempts;
        if (attempts <= 2) ++preemptions;
        return 10.0 * attempts;
      },
      [&] { return preemptions; }, 3, seen);
  EXPECT_EQ(attempts, 3);
  EXPECT_DOUBLE_EQ(result, 30.0) << "the undisturbed attempt's figure";
  EXPECT_EQ(seen.reruns, 2);
  EXPECT_EQ(seen.kept, 0);
}

TEST(CalibrateDisturbances, AnUndisturbedTrialRunsOnce) {
  int attempts = 0;
  Disturbances seen{100};
  EXPECT_DOUBLE_EQ(undisturbed([&] { return 1.5 + attempts++; }, [] { return 7L; }, 3, seen), 1.5);
  EXPECT_EQ(attempts, 1);
  EXPECT_EQ(seen.reruns, 0);
  EXPECT_EQ(seen.kept, 0);
}

TEST(CalibrateDisturbances, TheLastAttemptStandsWhenEveryOneIsPreempted) {
  long preemptions = 0;
  int attempts = 0;
  Disturbances seen{100};
  const double result = undisturbed(
      [&] {
        ++preemptions;
        return static_cast<double>(++attempts);
      },
      [&] { return preemptions; }, 3, seen);
  EXPECT_EQ(attempts, 3) << "at most 3 attempts";
  EXPECT_DOUBLE_EQ(result, 3.0);
  EXPECT_EQ(seen.reruns, 2);
  EXPECT_EQ(seen.kept, 1) << "kept, and counted as disturbed";
}

TEST(CalibrateDisturbances, NoMoreRerunsOnceTheFiguresBudgetIsSpent) {
  long preemptions = 0;
  int attempts = 0;
  Disturbances seen{3};  // a budget of 3 reruns for the figure
  const auto always_preempted = [&] {
    ++preemptions;
    return static_cast<double>(++attempts);
  };
  const auto count = [&] { return preemptions; };
  undisturbed(always_preempted, count, 3, seen);  // 2 reruns, kept
  EXPECT_EQ(attempts, 3);
  undisturbed(always_preempted, count, 3, seen);  // 1 rerun: the budget is spent
  EXPECT_EQ(attempts, 5);
  undisturbed(always_preempted, count, 3, seen);  // once
  EXPECT_EQ(attempts, 6);
  EXPECT_EQ(seen.reruns, 3);
  EXPECT_EQ(seen.kept, 3);
}

TEST(CalibrateTable, RowsOfRepetitionsAfterOneDiscardedWarmUp) {
  std::vector<std::int64_t> asked;
  // The warm-up answers 1000 (slow first touches): it must appear in no row.
  std::vector<double> answers = {1000, 10, 12, 14, 5, 7, 6};
  const auto rows = measure_rows({100, 500}, 3, [&](std::int64_t operations) {
    const double answer = answers.at(asked.size());
    asked.push_back(operations);
    return answer;
  });
  EXPECT_EQ(asked, (std::vector<std::int64_t>{100, 100, 100, 100, 500, 500, 500}))
      << "a warm-up of the smallest size, then 3 repetitions per row";
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].operations, 100);
  EXPECT_EQ(rows[0].samples_ns, (std::vector<double>{10, 12, 14}));
  EXPECT_DOUBLE_EQ(rows[0].ns.mean, 12.0);
  EXPECT_DOUBLE_EQ(rows[0].ns.std, 2.0) << "(4 + 0 + 4) / 2 = 4";
  EXPECT_EQ(rows[1].operations, 500);
  EXPECT_DOUBLE_EQ(rows[1].ns.mean, 6.0);
  EXPECT_DOUBLE_EQ(rows[1].ns.std, 1.0);
}

TEST(CalibrateTable, TheFigureIsTheRowWithTheMostOperations) {
  std::vector<Row> rows(3);
  rows[0].operations = 1'000'000;
  rows[0].ns = {157.465, 0.069};
  rows[1].operations = 10'000'000;  // the seed's table, out of order
  rows[1].ns = {156.551, 0.027};
  rows[2].operations = 5'000'000;
  rows[2].ns = {156.548, 0.04};
  const Stats figure = headline(rows);
  EXPECT_DOUBLE_EQ(figure.mean, 156.551);
  EXPECT_DOUBLE_EQ(figure.std, 0.027);
  EXPECT_THROW(headline({}), std::invalid_argument);
}

}  // namespace
}  // namespace cosched::calibrate
