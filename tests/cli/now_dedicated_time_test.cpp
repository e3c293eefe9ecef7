// The dedicated-time closed form (now/dedicated_time.hpp; docs/models/now-streams.md section 4.4) against
// simulation: an open workload of one job, alone on as many workstations as it has processes, must end its
// scaled SWF run time after its start. A table of cases over patterns, barrier trees, load imbalance and
// waiting algorithms, each with the tolerance its rules allow and why (the "Exactness, measured" table of
// now-streams.md 4.4). The quantum is 1000 s, longer than every job: the quantum's end during a spin is
// the one effect the closed form leaves out on purpose (now-streams.md 4.4), measured there apart.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

struct DedicatedCase {
  std::string name;
  int processes;
  int run_seconds;           // the SWF record's run time; x time_scale 0.001: the target in ms
  std::string job_class;     // the class's keys, YAML flow style (else sync_interval 10ms, wait pairwise)
  std::vector<int> seeds;    // the run's seeds; the mean of end - start over them is compared
  double tolerance_seconds;  // |mean - target| at most this
};

const std::vector<int> kTwentySeeds = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};

// L 10us, o 2us, 1 Gbps: d = 10 008 ns, a read's round trip 2d + 4o = 28 016 ns, W 100us.
const std::vector<DedicatedCase> kCases = {
    // Exact: every term is a rule of the model followed to the nanosecond; 1 us covers the csv's decimals.
    {"NoneFlat", 4, 50, "pattern: none", {1}, 1e-6},
    {"NoneBinomialNotices", 8, 50, "pattern: none, barrier: {kind: root, notify: binomial}", {1}, 1e-6},
    {"NoneBinomialBothTrees",
     8,
     50,
     "pattern: none, barrier: {kind: root, notify: binomial, arrive: binomial}",
     {1},
     1e-6},
    {"NoneSkewedNotices", 16, 50, "pattern: none, barrier: {kind: root, notify: skewed}", {1}, 1e-6},
    {"NoneOrderAwareSkewed",
     8,
     50,
     "pattern: none, barrier: {kind: root, notify: order-aware-skewed}",
     {1},
     1e-6},
    // Read granularity: the phase is sized to the nearer whole read, half a round trip (14 us) per phase.
    {"NewsCompute", 4, 20, "pattern: news, comm_interval: 10us", {1}, 2 * 14e-6},
    {"NewsDedicatedBasisLocalReads",
     2,
     30,
     "pattern: news, comm_interval: 10us, interval_basis: dedicated",
     {1},
     3 * 14e-6},
    {"NewsCoarse", 8, 1000, "pattern: news, comm_interval: 1ms, sync_interval: 100ms", {1}, 10 * 14e-6},
    // A tree's notices stagger the starts beyond what the read waits absorb, 14 us per round at 8
    // processes (measured +67 us), besides the read granularity: 4 x (14 + 14) us.
    {"NewsBinomialNotices",
     8,
     40,
     "pattern: news, comm_interval: 10us, barrier: {kind: root, notify: binomial}",
     {1},
     4 * 28e-6},
    // Approximation: 2(P-1)o + d per barrier is 8 us too long at P = 8 (measured -40 us over 5).
    {"NoneAllToAll", 8, 50, "pattern: none, barrier: {kind: all-to-all}", {1}, 5 * 10e-6},
    // Not counted: colliding requests under random make the processes drift (measured +0.58%): 1%.
    {"RandomFour", 4, 20, "pattern: random, comm_interval: 10us", {1}, 0.01 * 20e-3},
    // Imbalance 1.5: the expected slowest of P phases, exact only on average; the sum of 5 maxima varies by
    // +-1.3 ms a run at P 4 (now-streams.md 4.4), so +-0.29 ms for the mean of 20 seeds: 4 of those, 1.2 ms
    // (the measured mean over seeds 1-200 is 0.36 ms under its target).
    {"ImbalancePairwise", 4, 50, "pattern: none, imbalance: 1.5", kTwentySeeds, 1.2e-3},
    {"ImbalanceSpin", 4, 50, "pattern: none, imbalance: 1.5, wait: {algorithm: spin}", kTwentySeeds, 1.2e-3},
    // block-immediately: about 7 wake-ups of W counted, the rest as under pairwise.
    {"ImbalanceBlockImmediately", 4, 50,
     "pattern: none, imbalance: 1.5, wait: {algorithm: block-immediately}", kTwentySeeds, 1.2e-3},
};

std::string scenario_text(const DedicatedCase& c, int seed) {
  return "name: dedicated-" + c.name + "\nmodel: now\nseed: " + std::to_string(seed) +
         "\nplatform:\n  workstations: " + std::to_string(c.processes) +
         "\n  latency: 10us\n  overhead: 2us\n  bandwidth: 1Gbps\nscheduler:\n  policy: stride\n"
         "  quantum: 1000s\n  context_switch: 100us\njob_scheduler:\n  policy: fcfs\nworkload:\n  stream:\n"
         "    swf: one.swf\n    time_scale: 0.001\n    classes:\n      - {name: c, " +
         (contains(c.job_class, "sync_interval") ? "" : "sync_interval: 10ms, ") +
         (contains(c.job_class, "wait") ? "" : "wait: {algorithm: pairwise}, ") + c.job_class + "}\n";
}

std::string swf_text(const DedicatedCase& c) {
  const std::string p = std::to_string(c.processes);
  return "; Version: 2.2\n; MaxProcs: " + p + "\n  1  0  -1  " + std::to_string(c.run_seconds) + "  " + p +
         "  -1  -1  " + p + "  1000  -1  1  1  1  1  1  1  -1  -1\n";
}

void PrintTo(const DedicatedCase& c, std::ostream* os) {
  *os << c.name;
}

class DedicatedTime : public ::testing::TestWithParam<DedicatedCase> {};

TEST_P(DedicatedTime, AJobAloneRunsItsClosedFormTime) {
  const DedicatedCase& c = GetParam();
  Sandbox box;
  write_text(box.work() / "one.swf", swf_text(c));
  double sum = 0;
  for (int seed : c.seeds) {
    write_text(box.work() / "job.yaml", scenario_text(c, seed));
    const auto summary = run_summary(box, {"job.yaml"});
    ASSERT_FALSE(summary.is_null()) << "expected seed " << seed << " to run";
    const auto rows = read_csv(box.work() / "out" / "jobs.csv");
    ASSERT_EQ(rows.size(), 2u) << "expected one job in jobs.csv";
    std::map<std::string, std::string> job;
    for (std::size_t k = 0; k < rows[0].size(); ++k) job[rows[0][k]] = rows[1][k];
    EXPECT_DOUBLE_EQ(std::stod(job.at("run_time")), c.run_seconds * 1e-3);
    sum += std::stod(job.at("end")) - std::stod(job.at("start"));
  }
  const double mean = sum / static_cast<double>(c.seeds.size());
  RecordProperty("error_ns", std::to_string(std::llround((mean - c.run_seconds * 1e-3) * 1e9)));
  EXPECT_NEAR(mean, c.run_seconds * 1e-3, c.tolerance_seconds)
      << "expected the job alone to run its dedicated time, mean over " << c.seeds.size() << " seed(s)";
}

INSTANTIATE_TEST_SUITE_P(Cases, DedicatedTime, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

}  // namespace
