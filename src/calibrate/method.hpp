#pragma once
// The seed's timing method (user-space-task-scheduling-exercise.txt, 1.2.1), kept apart from what it
// times so that it can be checked on a fake clock (tests/unit/calibrate/method_test.cpp):
//
//   t_switch = (total execution time - execution time without switches) / number of switches
//
// "a volatile int counter variable is incremented between each 2 consecutive jumps": the timed loop
// increments a volatile counter before each operation, and the loop "without switches" makes the same
// increments alone. docs/calibration.md describes the method and the choices below.

#include <cstdint>
#include <vector>

namespace cosched::calibrate {

// The seed's counter. Volatile, so that neither loop can be folded away.
using Counter = volatile std::uint64_t;

// ++ on a volatile is deprecated in C++20; this is the same load and store.
inline void bump(Counter& counter) {
  counter = counter + 1;
}

// Mean and standard deviation of the repetitions of one measurement, in ns per operation. `std` is the
// sample standard deviation (n - 1 in the denominator): the repetitions are a sample of the runs this
// machine could give, and the seed does not say which it used.
struct Stats {
  double mean = 0;
  double std = 0;
};

// Needs at least two samples: one repetition has no spread.
Stats summarize(const std::vector<double>& samples);

// One row of the seed's table: a trial of `operations` operations (switches or dispatches), repeated.
struct Row {
  std::int64_t operations = 0;
  std::vector<double> samples_ns;  // ns per operation, one per repetition
  Stats ns;                        // their mean and standard deviation
};

// One trial of the seed's method, in ns per operation: `rounds` calls of `round`, each preceded by an
// increment of `counter`, against `rounds` x `operations_per_round` increments alone. A round is one
// operation (a dispatch) or a round trip to another context and back (two switches), the other context
// making the increment that precedes its own switch, so that both loops make the same increments.
// `clock()` returns nanoseconds.
template <class Clock, class Round>
double time_per_operation_ns(Clock&& clock, std::int64_t rounds, int operations_per_round, Round&& round,
                             Counter& counter) {
  const std::int64_t start = clock();
  for (std::int64_t i = 0; i < rounds; ++i) {
    bump(counter);
    round();
  }
  const std::int64_t switched = clock();
  const std::int64_t operations = rounds * operations_per_round;
  for (std::int64_t i = 0; i < operations; ++i) bump(counter);
  const std::int64_t end = clock();
  return static_cast<double>((switched - start) - (end - switched)) / static_cast<double>(operations);
}

// Trials the kernel disturbed: run again, or kept.
struct Disturbances {
  std::int64_t max_reruns = 0;  // the figure's budget of trials run again
  std::int64_t reruns = 0;      // trials run again
  std::int64_t kept = 0;        // trials kept though disturbed (every attempt was, or the budget was spent)
};

// The seed says nothing of preemption (its tiny standard deviations suggest a quiet machine). On a busy
// machine, a trial during which the kernel preempted the measuring thread timed another thread's work too,
// in one loop and not the other, so it is run again (a choice, docs/calibration.md): `trial()` is attempted
// until `disturbance()`, a count that only grows (the thread's involuntary context switches), is the same
// after it as before, at most `attempts` times and while `seen.reruns` is below `seen.max_reruns` (on a
// machine so busy that every trial is preempted, running them again only lengthens the run); the last
// attempt stands. Counts what it did in `seen`.
template <class Trial, class Disturbance>
double undisturbed(Trial&& trial, Disturbance&& disturbance, int attempts, Disturbances& seen) {
  for (int attempt = 1;; ++attempt) {
    const auto before = disturbance();
    const double result = trial();
    if (disturbance() == before) return result;
    if (attempt >= attempts || seen.reruns >= seen.max_reruns) {
      ++seen.kept;
      return result;
    }
    ++seen.reruns;
  }
}

// The seed's table: for each row size, `repetitions` trials of `trial(operations)` (ns per operation).
// One trial of the smallest size runs first and is discarded: it takes the first touches of the stacks
// and caches, which belong to no row (a choice; the seed does not say).
template <class Trial>
std::vector<Row> measure_rows(const std::vector<std::int64_t>& sizes, int repetitions, Trial&& trial) {
  std::vector<Row> rows;
  if (sizes.empty()) return rows;
  trial(sizes.front());
  for (const std::int64_t operations : sizes) {
    Row row;
    row.operations = operations;
    for (int r = 0; r < repetitions; ++r) row.samples_ns.push_back(trial(operations));
    row.ns = summarize(row.samples_ns);
    rows.push_back(std::move(row));
  }
  return rows;
}

// A figure's value: the row with the most operations, where the clock readings and the loops' start weigh
// least (the seed's standard deviations shrink down its table: 0.069, 0.04, 0.027 ns). Needs a row.
Stats headline(const std::vector<Row>& rows);

}  // namespace cosched::calibrate
