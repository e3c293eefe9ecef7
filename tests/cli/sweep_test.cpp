// End-to-end tests of `cosched sweep` (docs/sweeps.md): expansion (product, zip, ranges, seeds), stable run
// ids, results.csv, resuming an interrupted sweep without duplicate or missing rows, and failures recorded
// and retried.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <set>
#include <thread>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

// results.csv as rows of cells (no quoted commas in these sweeps), the header first.
std::vector<std::vector<std::string>> results(Sandbox& box, const std::string& dir = "out") {
  return read_csv(box.work() / dir / "results.csv");
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  auto it = std::find(header.begin(), header.end(), name);
  EXPECT_NE(it, header.end()) << "expected a column " << name;
  return static_cast<std::size_t>(it - header.begin());
}

void write_sweep(Sandbox& box, const std::string& name, const std::string& body) {
  write_text(box.work() / name, "base: " + kQuickstart.string() + "\n" + body);
}

// The run ids a dry run lists.
std::set<std::string> dry_run_ids(Sandbox& box, const std::string& sweep) {
  const auto r = box.run({"sweep", sweep, "--out", "out", "--dry-run"});
  expect_success(r);
  std::set<std::string> ids;
  for (const auto& line : split_lines(r.out))
    if (line.size() > 16 && line[16] == ' ' && line.find_first_not_of("0123456789abcdef") == 16)
      ids.insert(line.substr(0, 16));
  return ids;
}

TEST(Sweep, ProductOfARangeAListAndSeeds) {
  Sandbox box;
  write_sweep(box, "s.yaml",
              "axes:\n  workload.nosync: 0..40:20\n  workload.jobs.0.wait.spin: [CS, 2CS+]\nseeds: 2\n");
  const auto r = box.run({"sweep", "s.yaml", "--out", "out", "--jobs", "2", "--quiet"});
  expect_success(r);
  const auto rows = results(box);
  ASSERT_EQ(rows.size(), 1u + 3 * 2 * 2) << "expected a header and 3 x 2 x 2 runs";
  const auto& header = rows[0];
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + 4),
            (std::vector<std::string>{"run_id", "seed", "workload.nosync", "workload.jobs.0.wait.spin"}));
  std::set<std::string> combinations;
  for (std::size_t i = 1; i < rows.size(); ++i)
    combinations.insert(rows[i][2] + "/" + rows[i][3] + "/" + rows[i][1]);
  EXPECT_EQ(combinations.size(), 12u) << "expected every combination exactly once";
  EXPECT_TRUE(combinations.count("20/2CS+/2"));
  // The run's own results agree with its row, and the resolved scenario took the axis values.
  const auto nosync = column(header, "resolved.workload.nosync");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][nosync], rows[i][2]) << "expected the run to have run with its axis value";
    EXPECT_TRUE(fs::exists(box.work() / "out" / "runs" / rows[i][0] / "summary.json"));
  }
  EXPECT_GT(column(header, "job.fine.ssr"), 4u) << "expected job-level columns";
  EXPECT_EQ(column(header, "schema_version"), 4u) << "expected the schema version right after the axes";
}

TEST(Sweep, ZippedAxesVaryTogether) {
  Sandbox box;
  write_sweep(box, "z.yaml",
              "axes:\n  workload.nosync: [0, 10, 20]\n  workload.jobs.0.barriers: [5, 6, 7]\n"
              "  scheduler.quantum: [100, 200]\nzip:\n  - [workload.nosync, workload.jobs.0.barriers]\n");
  ASSERT_EQ(dry_run_ids(box, "z.yaml").size(), 6u) << "expected 3 zipped pairs x 2 quanta";
  expect_success(box.run({"sweep", "z.yaml", "--out", "out", "--quiet"}));
  const auto rows = results(box);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const int nosync = std::stoi(rows[i][2]), barriers = std::stoi(rows[i][3]);
    EXPECT_EQ(barriers, 5 + nosync / 10) << "expected zipped values to stay paired";
  }
}

TEST(Sweep, ZipOfUnequalLengthsIsRefused) {
  Sandbox box;
  write_sweep(box, "z.yaml",
              "axes:\n  workload.nosync: [0, 10, 20]\n  scheduler.quantum: [100, 200]\nzip:\n"
              "  - [workload.nosync, scheduler.quantum]\n");
  const auto line = expect_input_error(box.run({"sweep", "z.yaml", "--out", "out"}));
  EXPECT_TRUE(contains(line, "z.yaml:6:23: zip[0][1]: has 2 values, but workload.nosync has 3")) << line;
  EXPECT_FALSE(fs::exists(box.work() / "out" / "results.csv"));
}

TEST(Sweep, BadRangeIsLocated) {
  Sandbox box;
  write_sweep(box, "r.yaml", "axes:\n  workload.nosync: 10..0\n");
  const auto line = expect_input_error(box.run({"sweep", "r.yaml", "--out", "out"}));
  EXPECT_TRUE(contains(line, "r.yaml:3:20: axes.workload.nosync: expected a range A..B")) << line;
}

TEST(Sweep, AnInvalidRunIsRefusedBeforeAnyRuns) {
  Sandbox box;
  write_sweep(box, "v.yaml", "axes:\n  workload.nosync: [1, -1]\n");
  const auto line = expect_input_error(box.run({"sweep", "v.yaml", "--out", "out"}));
  EXPECT_TRUE(contains(line, "v.yaml: run 1 workload.nosync=-1: --set workload.nosync=-1: workload.nosync:"))
      << line;
  EXPECT_FALSE(fs::exists(box.work() / "out" / "runs")) << "expected no run started";
}

TEST(Sweep, RunIdsAreStableWhenAxesAreReorderedOrExtended) {
  Sandbox box;
  write_sweep(box, "a.yaml", "axes:\n  workload.nosync: [0, 10]\n  scheduler.quantum: [100, 200]\n");
  write_sweep(box, "b.yaml", "axes:\n  scheduler.quantum: [200, 100]\n  workload.nosync: [10, 0]\n");
  write_sweep(box, "c.yaml", "axes:\n  scheduler.quantum: [100, 200]\n  workload.nosync: [0, 10, 20]\n");
  const auto a = dry_run_ids(box, "a.yaml");
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(dry_run_ids(box, "b.yaml"), a) << "expected the same ids in any order";
  const auto c = dry_run_ids(box, "c.yaml");
  EXPECT_EQ(c.size(), 6u);
  EXPECT_TRUE(std::includes(c.begin(), c.end(), a.begin(), a.end())) << "expected extending to keep ids";
}

TEST(Sweep, QuickVariantReplacesAxesAndSeeds) {
  Sandbox box;
  write_sweep(box, "q.yaml",
              "axes:\n  workload.nosync: 0..100:10\n  scheduler.quantum: [100, 200]\nseeds: 3\n"
              "quick:\n  axes:\n    workload.nosync: [0, 50]\n  seeds: [7]\n");
  EXPECT_EQ(dry_run_ids(box, "q.yaml").size(), 11u * 2 * 3);
  const auto r = box.run({"sweep", "q.yaml", "--out", "out", "--quick", "--dry-run"});
  expect_success(r);
  EXPECT_TRUE(contains(r.out, "cosched sweep: 4 runs")) << r.describe();
  EXPECT_TRUE(contains(r.out, "seed 7 --set 'workload.nosync=50' --set 'scheduler.quantum=200'"))
      << r.describe();
  write_sweep(box, "bad.yaml", "axes:\n  workload.nosync: [0]\nquick:\n  axes:\n    seed: [1]\n");
  const auto line = expect_input_error(box.run({"sweep", "bad.yaml", "--out", "out", "--quick"}));
  EXPECT_TRUE(contains(line, "bad.yaml:6:11: quick.axes.seed: not an axis of the sweep")) << line;
  // An axis over `seed` sets the runs' seeds: `seeds` beside it would undo it, so it is refused.
  write_sweep(box, "both.yaml", "axes:\n  seed: [1, 2]\nseeds: 3\n");
  const auto both = expect_input_error(box.run({"sweep", "both.yaml", "--out", "out"}));
  EXPECT_TRUE(contains(both, "both.yaml:4:8: seeds: the axis 'seed' already sets each run's seed")) << both;
}

TEST(Sweep, ShippedSweepsExpand) {
  for (const auto& entry : fs::directory_iterator(kRoot / "sweeps")) {
    Sandbox box;
    for (const char* quick : {"--quick", "--dry-run"}) {
      const auto r = box.run({"sweep", entry.path().string(), "--out", "out", "--dry-run", quick});
      expect_success(r);
      EXPECT_TRUE(contains(r.out, " runs (0 complete")) << entry.path() << r.describe();
    }
  }
}

TEST(Sweep, InlineBaseScenario) {
  Sandbox box;
  write_text(
      box.work() / "inline.yaml",
      "base:\n  model: smp\n  platform: {cpus: 4}\n  scheduler: {quantum: 100, cs_in: 3, cs_out: 3}\n"
      "  workload: {jobs: [{name: j, threads: 4, barriers: 5, compute: 10, wait: {algorithm: block}}]}\n"
      "axes:\n  platform.cpus: [2, 4]\n");
  expect_success(box.run({"sweep", "inline.yaml", "--out", "out", "--quiet"}));
  EXPECT_EQ(results(box).size(), 3u);
  EXPECT_TRUE(fs::exists(box.work() / "out" / "base.yaml")) << "expected the inline base kept with the sweep";
}

// Starts a sweep, sends SIGTERM once `after` runs are complete, waits; returns its exit status.
int terminate_after(Sandbox& box, const std::string& sweep, std::size_t after) {
  const pid_t child = ::fork();
  if (child == 0) {
    if (::chdir(box.work().c_str()) != 0) ::_exit(99);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execl(kBinary.c_str(), kBinary.c_str(), "sweep", sweep.c_str(), "--out", "out", "--jobs", "2", nullptr);
    ::_exit(98);
  }
  for (int i = 0; i < 6000; ++i) {
    std::size_t done = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(box.work() / "out" / "runs", ec))
      if (fs::exists(entry.path() / "summary.json")) ++done;
    if (done >= after) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(Sweep, InterruptedSweepResumesWithoutDuplicateOrMissingRows) {
  Sandbox box;
  // 30 runs of a few tenths of a second each.
  write_text(box.work() / "long.yaml",
             "base: " + (kRoot / "scenarios" / "now-quickstart.yaml").string() + "\naxes:\n  seed: 1..30\n");
  EXPECT_EQ(terminate_after(box, "long.yaml", 3), 143) << "expected exit 143 after SIGTERM";
  const auto partial = results(box);
  ASSERT_GE(partial.size(), 4u) << "expected the completed runs in results.csv after the interruption";
  EXPECT_LT(partial.size(), 31u) << "expected the sweep to stop before it was done";
  for (const auto& entry : fs::recursive_directory_iterator(box.work() / "out")) {
    const auto name = entry.path().filename().string();
    EXPECT_EQ(name.find(".partial"), std::string::npos) << "expected no partial file left: " << entry.path();
  }
  const auto r = box.run({"sweep", "long.yaml", "--out", "out", "--quiet"}, 120);
  expect_success(r);
  const auto rows = results(box);
  ASSERT_EQ(rows.size(), 31u) << "expected all 30 runs after resuming";
  // The axis over `seed` is the runs' seed: one column for both.
  EXPECT_EQ(std::count(rows[0].begin(), rows[0].end(), "seed"), 1) << "expected one seed column";
  ASSERT_EQ(rows[0][1], "seed");
  std::set<std::string> ids, seeds;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ids.insert(rows[i][0]);
    seeds.insert(rows[i][1]);
  }
  EXPECT_EQ(ids.size(), 30u) << "expected no duplicate run";
  EXPECT_EQ(seeds.size(), 30u) << "expected every seed once";
  EXPECT_TRUE(contains(read_text(box.work() / "out" / "failures.csv"), "run_id,status"));
  EXPECT_EQ(split_lines(read_text(box.work() / "out" / "failures.csv")).size(), 1u) << "expected no failure";
}

TEST(Sweep, FailedRunsAreRecordedAndRetried) {
  Sandbox box;
  write_text(box.work() / "slow.yaml",
             "base: " + (kRoot / "scenarios" / "now-quickstart.yaml").string() + "\naxes:\n  seed: [1, 2]\n");
  // A run timeout far too short for any run: both fail, are recorded, and the sweep exits 1.
  const auto failed = box.run({"sweep", "slow.yaml", "--out", "out", "--run-timeout", "0.001", "--quiet"});
  EXPECT_EQ(failed.status, 1) << failed.describe();
  const auto failures = read_text(box.work() / "out" / "failures.csv");
  EXPECT_EQ(split_lines(failures).size(), 3u) << failures;
  EXPECT_TRUE(contains(failures, "killed after the run timeout of 0.001 s")) << failures;
  EXPECT_EQ(results(box).size(), 1u) << "expected only the header in results.csv";
  auto status = box.run({"sweep", "status", "out"});
  EXPECT_TRUE(contains(status.out, "2 runs: 0 complete, 2 failed, 0 pending")) << status.describe();
  // Retried by the same command without the timeout.
  expect_success(box.run({"sweep", "slow.yaml", "--out", "out", "--quiet"}, 120));
  EXPECT_EQ(results(box).size(), 3u);
  EXPECT_EQ(split_lines(read_text(box.work() / "out" / "failures.csv")).size(), 1u);
  status = box.run({"sweep", "status", "out"});
  EXPECT_TRUE(contains(status.out, "2 runs: 2 complete, 0 failed, 0 pending")) << status.describe();
}

TEST(Sweep, CollectRebuildsResults) {
  Sandbox box;
  write_sweep(box, "s.yaml", "axes:\n  workload.nosync: [0, 5]\n");
  expect_success(box.run({"sweep", "s.yaml", "--out", "out", "--quiet"}));
  const auto before = read_text(box.work() / "out" / "results.csv");
  fs::remove(box.work() / "out" / "results.csv");
  const auto r = box.run({"sweep", "collect", "out"});
  expect_success(r);
  EXPECT_EQ(read_text(box.work() / "out" / "results.csv"), before);
}

TEST(Sweep, CollectRefusesAnUnknownSchemaVersion) {
  Sandbox box;
  write_sweep(box, "s.yaml", "axes:\n  workload.nosync: [0]\n");
  expect_success(box.run({"sweep", "s.yaml", "--out", "out", "--quiet"}));
  const auto id = results(box)[1][0];
  const auto summary = box.work() / "out" / "runs" / id / "summary.json";
  auto text = read_text(summary);
  text.replace(text.find("\"schema_version\": 1"), 19, "\"schema_version\": 9");
  write_text(summary, text);
  const auto line = expect_input_error(box.run({"sweep", "collect", "out"}));
  EXPECT_TRUE(contains(line, "summary.json: schema_version 9; expected 1")) << line;
}

TEST(Sweep, StatusOfAFolderWithoutASweep) {
  Sandbox box;
  const auto line = expect_input_error(box.run({"sweep", "status", "nowhere"}));
  EXPECT_TRUE(contains(line, "nowhere: no sweep here")) << line;
}

}  // namespace
