// End to end: a sweep's `series:` (docs/sweeps.md, thesis 5.1.5) run by `cosched sweep`, and a scenario whose
// job profile is given by distributions (thesis 5.1.3) run by `cosched run`.

#include <gtest/gtest.h>

#include <set>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const char* const kBase =
    "base:\n  model: smp\n  platform: {cpus: 4}\n  scheduler: {quantum: 100, cs_in: 3%, cs_out: 3%}\n"
    "  workload:\n    nosync: 0\n    jobs:\n      - {name: J, threads: \"1:1, 3:1\", barriers: 5, compute: "
    "5%, "
    "wait: {algorithm: fixed-spin, spin: CS}}\n";

TEST(SeriesSweep, RunsEveryPrefixWithClassedJobColumns) {
  Sandbox box;
  write_text(
      box.work() / "s.yaml",
      std::string(kBase) + "series: {threads: 6, classify: threads, classes: [one, three]}\nseeds: 2\n");
  expect_success(box.run({"sweep", "s.yaml", "--out", "out", "--quiet", "--jobs", "2"}));
  const auto rows = read_csv(box.work() / "out" / "results.csv");
  ASSERT_GE(rows.size(), 1u + 2 * 3) << "at least 3 prefixes per seed (3 threads a job at most, N = 6)";
  const auto& header = rows[0];
  ASSERT_GE(header.size(), 3u);
  EXPECT_EQ(header[2], "series.threads") << "the prefix's thread count is the first axis column";
  std::map<std::string, std::vector<int>> totals;  // seed -> thread counts of its prefixes in order
  for (std::size_t i = 1; i < rows.size(); ++i) totals[rows[i][1]].push_back(std::stoi(rows[i][2]));
  ASSERT_EQ(totals.size(), 2u);
  for (const auto& [seed, counts] : totals) {
    EXPECT_GT(counts.back(), 6) << "the last prefix exceeds N, seed " << seed;
    for (std::size_t i = 0; i + 1 < counts.size(); ++i) {
      EXPECT_LE(counts[i], 6) << "only the last prefix exceeds N";
      const int added = counts[i + 1] - counts[i];
      EXPECT_TRUE(added == 1 || added == 3) << "each prefix adds one drawn job";
    }
  }
  // Job columns: job.<class>#<place>, the class from the entry the job's threads were drawn from.
  bool one = false, three = false;
  for (const auto& column : header) {
    if (column.rfind("job.one#", 0) == 0) one = true;
    if (column.rfind("job.three#", 0) == 0) three = true;
    EXPECT_EQ(column.find("job.J"), std::string::npos) << column;
  }
  EXPECT_TRUE(one && three) << "both classes drawn over 2 seeds and 6+ jobs";
  // The first run's summary holds one job with the drawn thread count.
  const auto summary = read_json(box.work() / "out" / "runs" / rows[1][0] / "summary.json");
  ASSERT_EQ(summary["resolved"]["workload"]["jobs"].size(), 1u);
  EXPECT_EQ(std::to_string(summary["resolved"]["workload"]["jobs"][0]["threads"].get<int>()), rows[1][2]);
}

TEST(SeriesSweep, BadSeriesKeyIsOneLocatedLine) {
  Sandbox box;
  write_text(box.work() / "s.yaml", std::string(kBase) + "series: {threads: 6, classify: size}\n");
  const auto line = expect_input_error(box.run({"sweep", "s.yaml", "--out", "out", "--dry-run"}));
  EXPECT_TRUE(contains(line, "s.yaml:9:")) << line;
  EXPECT_TRUE(contains(line, "series.classify: expected threads, compute or sigma")) << line;
}

TEST(DistributionScenario, DrawnValuesAreRecordedAndFollowTheSeed) {
  Sandbox box;
  write_text(box.work() / "d.yaml",
             "model: smp\nplatform: {cpus: 4}\nscheduler: {quantum: 100, cs_in: 3%, cs_out: 3%}\n"
             "workload:\n  jobs:\n    - {name: J, threads: \"2-6:1\", barriers: 5, compute: \"1-20%:1\", "
             "sigma: 90/15%, wait: {algorithm: block}}\n");
  std::set<int> threads;
  for (const char* seed : {"1", "2", "3", "4", "5"}) {
    expect_success(box.run({"run", "d.yaml", "--out", std::string("o") + seed, "--quiet", "--seed", seed}));
    const auto job =
        read_json(box.work() / (std::string("o") + seed) / "summary.json")["resolved"]["workload"]["jobs"][0];
    EXPECT_EQ(job["drawn_from"]["threads"], "2-6:1");
    EXPECT_EQ(job["drawn_from"]["compute"], "1-20%:1");
    const int t = job["threads"].get<int>();
    EXPECT_GE(t, 2);
    EXPECT_LE(t, 6);
    threads.insert(t);
  }
  EXPECT_GT(threads.size(), 1u) << "seeds 1..5 draw different sizes";
  // The same seed draws the same job again: an identical resolved scenario and result.
  expect_success(box.run({"run", "d.yaml", "--out", "again", "--quiet", "--seed", "1"}));
  const auto first = read_json(box.work() / "o1" / "summary.json");
  const auto again = read_json(box.work() / "again" / "summary.json");
  EXPECT_EQ(first["resolved"], again["resolved"]);
  EXPECT_EQ(first["makespan"], again["makespan"]);
  const auto line =
      expect_input_error(box.run({"validate", "d.yaml", "--set", "workload.jobs.0.threads=2-6:0"}));
  EXPECT_TRUE(contains(line, "workload.jobs[0].threads")) << line;
  EXPECT_TRUE(contains(line, "positive weight")) << line;
}

}  // namespace
