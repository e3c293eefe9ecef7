// End-to-end tests of the NOW model (model: now) through the command line: implicit coscheduling
// against gang scheduling, the result files, determinism, platform files, the bad-input corpus of
// tests/data/bad-now/, and one run of every waiting algorithm and local scheduler.
//
// Every run is small: scenarios/now-quickstart.yaml (8 workstations, 3 jobs of 8 processes, 5 barriers
// every 10ms) simulates in well under a second.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const fs::path kNowQuickstart = kRoot / "scenarios" / "now-quickstart.yaml";
const fs::path kBadNow = kData / "bad-now";
const fs::path kNowPlatform = kData / "now-platform";

// now-quickstart.yaml: 5 barriers every 10ms of dedicated time, so a job needs at least 50ms.
constexpr double kQuickstartDedicatedSeconds = 5 * 0.010;

// Runs the NOW quick start with extra options (--set, --seed) and returns its summary (null on failure).
json run_quickstart(Sandbox& box, const std::string& out, std::vector<std::string> options = {}) {
  options.insert(options.begin(), kNowQuickstart.string());
  return run_summary(box, options, out);
}

// The makespan of a summary, or NaN (with a failure) when there is none.
double makespan_of(const json& summary, const std::string& what) {
  if (!summary.is_object() || !summary.contains("makespan") || !summary["makespan"].is_number()) {
    ADD_FAILURE() << "expected a numeric makespan in the summary of " << what << "; got " << summary.dump();
    return std::numeric_limits<double>::quiet_NaN();
  }
  return summary["makespan"].get<double>();
}

// A measured ratio: recorded in the test's XML properties and printed, so that it shows in every run.
void report_ratio(const std::string& name, double ratio) {
  ::testing::Test::RecordProperty(name, fmt::format("{:.4f}", ratio));
  std::cout << "[ measured ] " << name << " = " << fmt::format("{:.4f}", ratio) << std::endl;
}

// ---------------------------------------------------------------------------------------------------
// a. Implicit coscheduling works (the acceptance test of the NOW model): on a small NOW, pairwise
// (conditional two-phase) waiting under a local scheduler comes within 35% of gang scheduling, while
// blocking at once is at least 1.5 times slower than pairwise.

const std::vector<std::string> kGang{"--set", "scheduler.policy=gang"};  // keeps the quantum: 10ms
const std::vector<std::string> kTs{"--set", "scheduler={policy: ts}"};   // ts refuses scheduler.quantum
const std::vector<std::string> kBlock{"--set", "workload.jobs.0.wait={algorithm: block}"};

std::vector<std::string> join(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

void check_implicit_coscheduling(int copies) {
  Sandbox box;
  const std::vector<std::string> jobs{"--set", fmt::format("workload.jobs.0.copies={}", copies)};
  const double gang = makespan_of(run_quickstart(box, "gang", join({jobs, kGang})), "gang");
  const double pairwise_stride = makespan_of(run_quickstart(box, "pairwise-stride", jobs), "pairwise/stride");
  const double block_stride =
      makespan_of(run_quickstart(box, "block-stride", join({jobs, kBlock})), "block/stride");
  const double pairwise_ts =
      makespan_of(run_quickstart(box, "pairwise-ts", join({jobs, kTs})), "pairwise/ts");
  const double block_ts = makespan_of(run_quickstart(box, "block-ts", join({jobs, kTs, kBlock})), "block/ts");

  const std::string prefix = fmt::format("{}jobs_", copies);
  report_ratio(prefix + "pairwise_stride_over_gang", pairwise_stride / gang);
  report_ratio(prefix + "pairwise_ts_over_gang", pairwise_ts / gang);
  report_ratio(prefix + "block_over_pairwise_stride", block_stride / pairwise_stride);
  report_ratio(prefix + "block_over_pairwise_ts", block_ts / pairwise_ts);

  const auto seconds = [](double s) { return fmt::format("{:.6f} s", s); };
  EXPECT_LE(pairwise_stride / gang, 1.35)
      << "expected pairwise under stride to finish within 35% of gang with " << copies << " jobs: makespan "
      << seconds(pairwise_stride) << " vs gang " << seconds(gang) << ", ratio " << pairwise_stride / gang;
  EXPECT_LE(pairwise_ts / gang, 1.35)
      << "expected pairwise under ts to finish within 35% of gang with " << copies << " jobs: makespan "
      << seconds(pairwise_ts) << " vs gang " << seconds(gang) << ", ratio " << pairwise_ts / gang;
  EXPECT_GE(block_stride / pairwise_stride, 1.5)
      << "expected block to be at least 1.5 times slower than pairwise under stride with " << copies
      << " jobs: makespan " << seconds(block_stride) << " vs " << seconds(pairwise_stride) << ", ratio "
      << block_stride / pairwise_stride;
  EXPECT_GE(block_ts / pairwise_ts, 1.5)
      << "expected block to be at least 1.5 times slower than pairwise under ts with " << copies
      << " jobs: makespan " << seconds(block_ts) << " vs " << seconds(pairwise_ts) << ", ratio "
      << block_ts / pairwise_ts;
}

TEST(NowImplicitCoscheduling, ThreeJobsPairwiseNearGangAndBlockFarBehind) {
  check_implicit_coscheduling(3);
}

TEST(NowImplicitCoscheduling, TwoJobsPairwiseNearGangAndBlockFarBehind) {
  check_implicit_coscheduling(2);
}

// ---------------------------------------------------------------------------------------------------
// b. Result files of a NOW run: summary.json, jobs.csv, workstations.csv.

const char* const kTimeParts[] = {"compute", "communicate", "synchronize", "idle", "switch"};

// The checks every NOW summary must pass: times in seconds, a time breakdown per job that adds up to
// its completion time, spin counts that make sense.
void expect_now_summary_consistent(json summary, std::size_t jobs, const std::string& what) {
  ASSERT_TRUE(summary.is_object()) << "expected a summary for " << what;
  EXPECT_EQ(summary.value("model", ""), "now") << "expected model now for " << what;
  EXPECT_EQ(summary.value("time_unit", ""), "s") << "expected times in seconds for " << what;
  EXPECT_TRUE(summary["messages"].is_number_integer() && summary["messages"].get<long long>() > 0)
      << "expected a positive message count for " << what << "; got " << summary["messages"].dump();
  ASSERT_TRUE(summary["jobs"].is_array()) << "expected a list of jobs for " << what;
  ASSERT_EQ(summary["jobs"].size(), jobs) << "expected " << jobs << " job instances for " << what;
  const double makespan = makespan_of(summary, what);
  double latest = 0;
  for (auto& job : summary["jobs"]) {
    ASSERT_TRUE(job["completion_time"].is_number()) << "expected a completion time in " << job.dump();
    const double completion = job["completion_time"].get<double>();
    latest = std::max(latest, completion);
    EXPECT_GT(completion, 0) << "expected a positive completion time for " << what << " in " << job.dump();
    ASSERT_TRUE(job["time"].is_object()) << "expected a time object per job in " << job.dump();
    EXPECT_EQ(job["time"].size(), 5u)
        << "expected time to hold exactly compute, communicate, synchronize, idle, switch: " << job.dump();
    double sum = 0;
    for (const char* part : kTimeParts) {
      ASSERT_TRUE(job["time"].contains(part) && job["time"][part].is_number())
          << "expected time." << part << " in seconds in " << job.dump();
      const double value = job["time"][part].get<double>();
      EXPECT_GE(value, 0) << "expected a non-negative time." << part << " in " << job.dump();
      sum += value;
    }
    EXPECT_NEAR(sum, completion, 1e-9 + 1e-9 * completion)
        << "expected compute + communicate + synchronize + idle + switch = completion_time for " << what
        << " in " << job.dump();
    for (const char* counts : {"spins", "read_spins"}) {
      ASSERT_TRUE(job[counts].is_object()) << "expected " << counts << " in " << job.dump();
      const auto successful = job[counts].value("successful", -1LL);
      const auto total = job[counts].value("total", -1LL);
      EXPECT_TRUE(successful >= 0 && successful <= total)
          << "expected 0 <= " << counts << ".successful <= " << counts << ".total in " << job.dump();
    }
  }
  EXPECT_DOUBLE_EQ(makespan, latest) << "expected the makespan to be the latest completion time for " << what;
}

TEST(NowResults, SummaryHasTheNowFields) {
  Sandbox box;
  auto summary = run_quickstart(box, "out");
  ASSERT_TRUE(summary.is_object()) << "expected the quick start to succeed";
  for (const char* key : {"scenario", "model", "seed", "makespan", "ssr", "spins", "jobs", "messages",
                          "events", "time_unit", "platform", "wall_seconds", "resolved"})
    EXPECT_TRUE(summary.contains(key))
        << "expected summary.json key '" << key << "'; got " << summary.dump(2);
  EXPECT_EQ(summary.value("scenario", ""), "now-quickstart") << "expected the scenario's name";
  EXPECT_EQ(summary["platform"]["workstations"], 8) << "expected 8 workstations in the platform object";
  expect_now_summary_consistent(summary, 3, "the quick start");
  for (auto& job : summary["jobs"]) {
    EXPECT_EQ(job.value("name", ""), "news") << "expected the job's name in " << job.dump();
    for (const char* key : {"copy", "completion_time", "ssr", "spins", "time", "read_spins"})
      EXPECT_TRUE(job.contains(key)) << "expected job key '" << key << "' in " << job.dump();
    // Three jobs share the NOW: none can finish before its own 5 barriers x 10ms of dedicated time.
    EXPECT_GT(job["completion_time"].get<double>(), kQuickstartDedicatedSeconds)
        << "expected every job to take more than barriers x sync_interval = 50ms; got " << job.dump();
  }
}

TEST(NowResults, DiagnosticsCountEveryReadAndEveryBarrier) {
  Sandbox box;
  auto summary = run_quickstart(box, "out");
  ASSERT_TRUE(summary.is_object()) << "expected the quick start to succeed";
  const auto& resolved = summary["resolved"];
  EXPECT_EQ(resolved["scheduler"].value("wake_preempt", ""), "none") << "stride's default (now.md section 6)";
  const auto& wait = resolved["workload"]["jobs"][0]["wait"];
  EXPECT_EQ(wait.value("resume", ""), "block") << wait.dump();
  EXPECT_EQ(wait.value("conditional", ""), "extend") << wait.dump();
  EXPECT_EQ(wait.value("after_wake", ""), "window") << wait.dump();
  int barriers_total = 0;
  for (const auto& job : summary["jobs"]) {
    std::int64_t reads = 0;
    for (const char* state : {"partner_running", "partner_ready", "partner_blocked"}) {
      ASSERT_TRUE(job["reads"].contains(state)) << job.dump();
      reads += job["reads"][state].value("count", -1LL);
    }
    // 8 processes x 5 phases x floor(10ms / (10us + 2L + 4o = 38us)) = 263 reads, all remote on a 2 x 4
    // torus (interval_basis dedicated, docs/models/now.md section 4.1).
    EXPECT_EQ(reads, 8 * 5 * 263) << job.dump();
    EXPECT_LE(job["read_spins"].value("total", -2LL), reads) << "a read whose reply came first never spun";
    EXPECT_TRUE(job["wake_to_dispatch"].contains("count")) << job.dump();
    EXPECT_GT(job["barriers"].value("mean_length_s", -1.0), 0) << job.dump();
    barriers_total += 5;
  }
  std::ifstream csv(box.work() / "out" / "barriers.csv");
  ASSERT_TRUE(csv.good()) << "expected barriers.csv";
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, barriers_total + 1) << "a header and one line per job instance and barrier";
}

TEST(NowResults, OneJobAloneTakesAtLeastItsDedicatedTime) {
  Sandbox box;
  auto summary = run_quickstart(box, "out", {"--set", "workload.jobs.0.copies=1"});
  expect_now_summary_consistent(summary, 1, "one job alone");
  ASSERT_TRUE(summary.is_object() && summary["jobs"].size() == 1) << "expected one job";
  const double completion = summary["jobs"][0]["completion_time"].get<double>();
  EXPECT_GT(completion, kQuickstartDedicatedSeconds)
      << "expected one job alone to take more than barriers x sync_interval = 50ms; got " << completion;
  // Alone on the NOW the job is never descheduled: it should take its dedicated time plus messaging.
  EXPECT_LT(completion, 2 * kQuickstartDedicatedSeconds)
      << "expected one job alone to take less than twice its dedicated time; got " << completion;
}

TEST(NowResults, TimeBreakdownAddsUpUnderEveryScheduler) {
  Sandbox box;
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs{
      {"gang", kGang},
      {"ts", kTs},
      {"block", kBlock},
      {"credit", {"--set", "scheduler.policy=stride-credit"}}};
  for (const auto& [name, options] : runs)
    expect_now_summary_consistent(run_quickstart(box, name, options), 3, name);
}

TEST(NowResults, WorkstationsCsvHasOneRowPerWorkstation) {
  Sandbox box;
  auto summary = run_quickstart(box, "out");
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  const auto path = box.work() / "out" / "workstations.csv";
  ASSERT_TRUE(fs::exists(path)) << "expected out/workstations.csv";
  const auto rows = read_csv(path);
  ASSERT_EQ(rows.size(), 9u) << "expected a header and one row per workstation (8):\n" << read_text(path);
  const std::vector<std::string> header{"workstation", "host", "busy_s", "utilisation"};
  ASSERT_GE(rows[0].size(), header.size()) << "expected at least " << header.size() << " columns";
  EXPECT_EQ(std::vector<std::string>(rows[0].begin(), rows[0].begin() + header.size()), header)
      << "expected the header to start workstation,host,busy_s,utilisation:\n"
      << read_text(path);
  const double makespan = summary["makespan"].get<double>();
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), rows[0].size()) << "expected as many cells as the header in row " << i;
    EXPECT_EQ(rows[i][0], std::to_string(i - 1)) << "expected workstation " << i - 1 << " in row " << i;
    const double busy = std::stod(rows[i][2]);
    const double utilisation = std::stod(rows[i][3]);
    EXPECT_TRUE(utilisation >= 0 && utilisation <= 1)
        << "expected a utilisation within [0, 1] in row " << i << "; got " << rows[i][3];
    EXPECT_TRUE(busy >= 0 && busy <= makespan + 1e-9)
        << "expected busy_s within [0, makespan " << makespan << "] in row " << i << "; got " << rows[i][2];
  }
}

TEST(NowResults, JobsCsvHasTheTimeColumns) {
  Sandbox box;
  auto summary = run_quickstart(box, "out");
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  const auto path = box.work() / "out" / "jobs.csv";
  const auto rows = read_csv(path);
  ASSERT_EQ(rows.size(), 4u) << "expected a header and 3 rows in jobs.csv:\n" << read_text(path);
  const auto& header = rows[0];
  const std::vector<std::string> times{"time_compute", "time_communicate", "time_synchronize", "time_idle",
                                       "time_switch"};
  auto first = std::find(header.begin(), header.end(), times[0]);
  ASSERT_TRUE(first != header.end()) << "expected a time_compute column:\n" << read_text(path);
  ASSERT_GE(static_cast<std::size_t>(header.end() - first), times.size())
      << "expected the five time columns after time_compute";
  EXPECT_EQ(std::vector<std::string>(first, first + times.size()), times)
      << "expected the columns time_compute,time_communicate,time_synchronize,time_idle,time_switch:\n"
      << read_text(path);
  const auto column = static_cast<std::size_t>(first - header.begin());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size()) << "expected as many cells as the header in row " << i;
    for (std::size_t t = 0; t < times.size(); ++t) {
      EXPECT_DOUBLE_EQ(std::stod(rows[i][column + t]),
                       summary["jobs"][i - 1]["time"][kTimeParts[t]].get<double>())
          << "expected " << times[t] << " of row " << i << " to match summary.json";
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// c. Determinism and seeds.

TEST(NowDeterminism, SameSeedSameSummary) {
  Sandbox box;
  const auto imbalanced = std::vector<std::string>{"--set", "workload.jobs.0.imbalance=1.5", "--seed", "7"};
  auto first = run_quickstart(box, "first", imbalanced);
  auto second = run_quickstart(box, "second", imbalanced);
  ASSERT_TRUE(first.is_object() && second.is_object()) << "expected both runs to succeed";
  EXPECT_EQ(without(first, {"/wall_seconds"_json_pointer}), without(second, {"/wall_seconds"_json_pointer}))
      << "expected identical summaries (except wall_seconds) for the same scenario and seed";
  EXPECT_EQ(read_text(box.work() / "first" / "workstations.csv"),
            read_text(box.work() / "second" / "workstations.csv"))
      << "expected identical workstations.csv for the same scenario and seed";
}

TEST(NowDeterminism, ImbalancedRunsDependOnTheSeed) {
  Sandbox box;
  auto a = run_quickstart(box, "a", {"--set", "workload.jobs.0.imbalance=1.5", "--seed", "1"});
  auto b = run_quickstart(box, "b", {"--set", "workload.jobs.0.imbalance=1.5", "--seed", "2"});
  ASSERT_TRUE(a.is_object() && b.is_object()) << "expected both runs to succeed";
  EXPECT_NE(makespan_of(a, "seed 1"), makespan_of(b, "seed 2"))
      << "expected seeds 1 and 2 to give different makespans with load imbalance 1.5";
}

TEST(NowDeterminism, SeedOptionShowsInTheSummary) {
  Sandbox box;
  auto summary = run_quickstart(box, "out", {"--seed", "777"});
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  EXPECT_EQ(summary["seed"], 777) << "expected --seed 777 in summary.json 'seed'";
  EXPECT_EQ(summary["resolved"]["seed"], 777) << "expected --seed 777 in summary.json 'resolved.seed'";
}

// The actors run the node ahead to the delivery horizon and wake only for sends and arrivals
// (docs/models/now.md, section 3); waking at every event instead must give the very same results.
TEST(NowDeterminism, LookaheadGivesTheSameResultsAsWakingAtEveryEvent) {
  for (const char* scheduler :
       {"{policy: stride}", "{policy: ts}", "{policy: gang}", "{policy: stride-credit}"}) {
    Sandbox box;
    const std::vector<std::string> options{"--set", std::string("scheduler=") + scheduler, "--set",
                                           "workload.jobs.0.imbalance=1.5"};
    auto ahead = run_quickstart(box, "ahead", join({options, {"--engine", "simgrid"}}));
    auto every = run_quickstart(box, "every", join({options, {"--engine", "simgrid", "--no-lookahead"}}));
    ASSERT_TRUE(ahead.is_object() && every.is_object()) << "expected both runs to succeed";
    EXPECT_EQ(without(ahead, {"/wall_seconds"_json_pointer}), without(every, {"/wall_seconds"_json_pointer}))
        << "expected identical results with and without lookahead under " << scheduler;
  }
}

// The two engines (docs/models/now.md section 3) must write the very same result files: summary.json but
// for wall_seconds and the engine's name, jobs.csv and workstations.csv byte for byte.
void expect_same_results_whatever_the_engine(Sandbox& box, const std::string& sequential,
                                             const std::string& simgrid, const std::string& what) {
  const auto a = read_json(box.work() / sequential / "summary.json");
  const auto b = read_json(box.work() / simgrid / "summary.json");
  EXPECT_EQ(a["engine"], "sequential") << "expected summary.json to name the engine, for " << what;
  EXPECT_EQ(b["engine"], "simgrid") << "expected summary.json to name the engine, for " << what;
  const auto varying = {"/wall_seconds"_json_pointer, "/engine"_json_pointer};
  EXPECT_EQ(without(a, varying), without(b, varying))
      << "expected identical summaries from the sequential and simgrid engines for\n"
      << what;
  for (const char* file : {"jobs.csv", "workstations.csv"}) {
    EXPECT_EQ(read_text(box.work() / sequential / file), read_text(box.work() / simgrid / file))
        << "expected identical " << file << " from the sequential and simgrid engines for\n"
        << what;
  }
}

// Small random NOW scenarios (every scheduler, waiting algorithm, pattern and barrier kind, several
// placements, latencies and overheads): running ahead must match waking at every event, one mailbox per
// receiver must match one per pair, and every job's time breakdown must be non-negative and add up to
// its completion time.
std::string random_scenario(std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  auto pick = [&](std::initializer_list<const char*> options) {
    return std::string(*(options.begin() + engine() % options.size()));
  };
  const int workstations = 2 + static_cast<int>(engine() % 4);
  const std::string policy = pick({"ts", "stride", "stride-credit", "gang"});
  std::string yaml = fmt::format(
      "model: now\nseed: {}\nplatform: {{workstations: {}, latency: {}, overhead: {}}}\n"
      "scheduler: {{policy: {}, context_switch: {}{}}}\nworkload:\n  jobs:\n",
      seed, workstations, pick({"1us", "10us"}), pick({"1us", "2us", "13us"}), policy,
      pick({"20us", "100us"}), policy == "ts" ? "" : ", quantum: " + pick({"200us", "1ms", "3ms"}));
  const int jobs = 1 + static_cast<int>(engine() % 3);
  for (int j = 0; j < jobs; ++j) {
    const int processes = 1 + static_cast<int>(engine() % workstations);
    std::vector<int> hosts(workstations);
    std::iota(hosts.begin(), hosts.end(), 0);
    std::shuffle(hosts.begin(), hosts.end(), engine);
    hosts.resize(processes);
    std::string wait =
        pick({"block", "spin-fixed", "pairwise", "block-immediately", "spin", "large-initial-spin"});
    std::string wait_keys;
    if (wait == "spin-fixed") wait_keys = ", spin: " + pick({"0", "5us", "50us"});
    if (wait == "large-initial-spin") wait_keys = ", initial_spin: " + pick({"500us", "V+L+2o"});
    yaml += fmt::format(
        "    - {{name: j{}, processes: {}, placement: [{}], pattern: {}, comm_interval: {}, sync_interval: "
        "{}, "
        "imbalance: {}, barriers: {}, barrier: {{kind: {}}}, wait: {{algorithm: {}{}}}}}\n",
        j, processes, fmt::join(hosts, ", "), pick({"news", "none", "random"}), pick({"1us", "10us", "37us"}),
        pick({"100us", "500us", "1ms"}), pick({"1", "1.5", "3"}), 1 + engine() % 4,
        pick({"root", "all-to-all"}), wait, wait_keys);
  }
  // Every notification tree under a root barrier, taken from the seed without drawing from the engine so
  // that the scenarios' other draws stay as they were.
  static const char* const kTrees[] = {"flat", "binary", "binomial", "skewed", "order-aware-skewed"};
  // Keep-alives (docs/models/now.md 4.6) on every other seed of two in three, also from the seed alone;
  // they count every arrival at the root, so they go with flat arrivals.
  static const char* const kKeepAlives[] = {
      "", ", keepalive: {start: 1/2}", ", keepalive: {period: 150us, after: 50us, targets: not-arrived}"};
  const std::string keepalive = seed % 2 == 0 ? kKeepAlives[(seed / 5) % 3] : "";
  // The registration trees likewise (section 4.5), with the notification trees they may go with: flat
  // arrivals under order-aware-skewed notices and with keep-alives, the four kinds in turn otherwise.
  static const char* const kArrive[] = {"flat", "binary", "binomial", "skewed"};
  const std::string arrive = seed % 5 == 4 || !keepalive.empty() ? "flat" : kArrive[(seed / 5 + seed) % 4];
  const std::string tree =
      fmt::format("barrier: {{kind: root, notify: {}, arrive: {}{}}}", kTrees[seed % 5], arrive, keepalive);
  for (std::size_t at = 0; (at = yaml.find("barrier: {kind: root}", at)) != std::string::npos;
       at += tree.size())
    yaml.replace(at, std::string("barrier: {kind: root}").size(), tree);
  return yaml;
}

TEST(NowDeterminism, RandomScenariosGiveTheSameResultsWhateverTheDeliveryPath) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Sandbox box;
    const auto yaml = random_scenario(seed);
    write_text(box.work() / "random.yaml", yaml);
    auto sequential = run_summary(box, {"random.yaml", "--engine", "sequential"}, "sequential");
    auto ahead = run_summary(box, {"random.yaml", "--engine", "simgrid"}, "ahead");
    auto every = run_summary(box, {"random.yaml", "--engine", "simgrid", "--no-lookahead"}, "every");
    auto per_pair =
        run_summary(box, {"random.yaml", "--engine", "simgrid", "--mailbox-per-pair"}, "per-pair");
    ASSERT_TRUE(sequential.is_object() && ahead.is_object() && every.is_object() && per_pair.is_object())
        << "expected the four runs to succeed for\n"
        << yaml;
    expect_same_results_whatever_the_engine(box, "sequential", "ahead", yaml);
    const auto varying = {"/wall_seconds"_json_pointer, "/engine"_json_pointer};
    EXPECT_EQ(without(ahead, varying), without(every, varying))
        << "expected identical results with and without lookahead for\n"
        << yaml;
    EXPECT_EQ(without(ahead, varying), without(per_pair, varying))
        << "expected identical results with one mailbox per receiver and one per pair for\n"
        << yaml;
    for (const auto& job : ahead["jobs"]) {
      double sum = 0;
      for (const auto& [state, seconds] : job["time"].items()) {
        EXPECT_GE(seconds.get<double>(), 0.0) << "expected no negative " << state << " time for\n" << yaml;
        sum += seconds.get<double>();
      }
      EXPECT_NEAR(sum, job["completion_time"].get<double>(), 1e-9)
          << "expected the breakdown to add up to the completion time for\n"
          << yaml;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// d. A SimGrid platform file instead of workstations, latency and bandwidth.

// workstations.csv without its host column: the platform file names its hosts ws-0.., cosched ws-00000..
std::vector<std::vector<std::string>> without_hosts(std::vector<std::vector<std::string>> rows) {
  for (auto& row : rows)
    if (row.size() > 1) row.erase(row.begin() + 1);
  return rows;
}

TEST(NowPlatformFile, SameResultsAsWorkstationsLatencyBandwidth) {
  Sandbox box;
  auto file = run_summary(box, {(kNowPlatform / "now-file.yaml").string()}, "file");
  auto built = run_summary(box, {(kNowPlatform / "now-workstations.yaml").string()}, "built");
  ASSERT_TRUE(file.is_object() && built.is_object()) << "expected both runs to succeed";
  EXPECT_EQ(file["resolved"]["platform"]["workstations"], 32)
      << "expected 32 workstations read from platforms/now-32.xml";
  ASSERT_TRUE(file["resolved"]["platform"].contains("file")) << "expected the resolved platform file";
  EXPECT_TRUE(fs::equivalent(file["resolved"]["platform"]["file"].get<std::string>(),
                             kRoot / "platforms" / "now-32.xml"))
      << "expected platform.file to resolve relative to the scenario file";
  const std::initializer_list<json::json_pointer> ignored{
      "/wall_seconds"_json_pointer, "/resolved/platform"_json_pointer, "/platform"_json_pointer};
  EXPECT_EQ(without(file, ignored), without(built, ignored))
      << "expected platforms/now-32.xml and 'workstations: 32, latency: 10us, bandwidth: 1Gbps' to give "
         "identical summaries";
  EXPECT_EQ(read_text(box.work() / "file" / "jobs.csv"), read_text(box.work() / "built" / "jobs.csv"))
      << "expected identical jobs.csv";
  EXPECT_EQ(without_hosts(read_csv(box.work() / "file" / "workstations.csv")),
            without_hosts(read_csv(box.work() / "built" / "workstations.csv")))
      << "expected identical workstations.csv but for the host names";
}

TEST(NowPlatformFile, ValidateLoadsIt) {
  Sandbox box;
  const auto r = box.run({"validate", (kNowPlatform / "now-file.yaml").string()});
  expect_success(r);
  EXPECT_TRUE(contains(r.out, "valid now scenario")) << "expected validate to accept it" << r.describe();
}

// More processes than the platform file has hosts, or a placement beyond them, is bad input known only
// once the platform is loaded. validate loads the platform, so it must refuse what run refuses, and the
// message must name the scenario file and the key, as every other validation error does.
void expect_rejected_by_platform(const std::string& scenario, const std::string& key) {
  Sandbox box;
  const std::string file = (kNowPlatform / scenario).string();
  const auto run = box.run({"run", file, "--out", "out"});
  const auto validate = box.run({"validate", file});
  for (const auto* r : {&run, &validate}) {
    const auto line = expect_input_error(*r);
    EXPECT_TRUE(contains(line, file + ":"))
        << "expected the message to name the scenario file" << r->describe();
    EXPECT_TRUE(contains(line, ": " + key + ": "))
        << "expected the message to name the key " << key << r->describe();
  }
}

TEST(NowPlatformFile, MoreProcessesThanHostsIsRejectedByValidateAndRun) {
  expect_rejected_by_platform("processes-over-hosts.yaml", "workload.jobs[0].processes");
}

TEST(NowPlatformFile, PlacementBeyondTheHostsIsRejectedByValidateAndRun) {
  expect_rejected_by_platform("placement-over-hosts.yaml", "workload.jobs[0].placement[1]");
}

TEST(NowPlatformFile, BadRunLeavesEarlierResultsAlone) {
  // Documented (scenario-format.md, section 8): a scenario that fails validation leaves earlier results.
  Sandbox box;
  ASSERT_TRUE(run_summary(box, {(kNowPlatform / "now-file.yaml").string()}).is_object())
      << "expected the first, good run to succeed";
  const auto before = read_text(box.work() / "out" / "summary.json");
  const auto r = box.run({"run", (kNowPlatform / "processes-over-hosts.yaml").string(), "--out", "out"});
  expect_input_error(r);
  ASSERT_TRUE(fs::exists(box.work() / "out" / "summary.json"))
      << "expected a run rejected for bad input (33 processes on 32 hosts) not to delete the earlier "
         "out/summary.json";
  EXPECT_EQ(read_text(box.work() / "out" / "summary.json"), before)
      << "expected a run rejected for bad input (33 processes on 32 hosts) to leave summary.json as it was";
}

// ---------------------------------------------------------------------------------------------------
// e. Bad NOW scenarios: exit 2, one located line, no results; with run and with validate.

struct BadNowCase {
  const char* file;      // under tests/data/bad-now/
  const char* where;     // "LINE:COLUMN" of the offending key or value
  const char* key;       // the key path in display form
  const char* fragment;  // a part of the message that says what is wrong
};

const BadNowCase kBadNowCases[] = {
    {"policy-unknown.yaml", "10:11", "scheduler.policy", "got \"rr\""},
    {"ts-with-quantum.yaml", "11:12", "scheduler.quantum", "dispatch table"},
    {"latency-without-unit.yaml", "6:12", "platform.latency", "got \"10\""},
    {"latency-unit-after-space.yaml", "6:12", "platform.latency", "got \"10 us\""},
    {"latency-unknown-unit.yaml", "6:12", "platform.latency", "got \"10parsecs\""},
    {"bandwidth-bad-unit.yaml", "8:14", "platform.bandwidth", "got \"1GHz\""},
    {"imbalance-below-one.yaml", "21:18", "workload.jobs[0].imbalance", "got \"0.5\""},
    {"placement-wrong-length.yaml", "18:18", "workload.jobs[0].placement", "one per process"},
    {"placement-duplicate.yaml", "18:31", "workload.jobs[0].placement[4]", "same workstation"},
    {"placement-out-of-range.yaml", "18:40", "workload.jobs[0].placement[7]", "got \"8\""},
    {"processes-over-workstations.yaml", "16:18", "workload.jobs[0].processes",
     "do not fit on 8 workstations"},
    {"spin-fixed-without-spin.yaml", "24:13", "workload.jobs[0].wait", "missing required key 'spin'"},
    {"initial-spin-on-pairwise.yaml", "24:49", "workload.jobs[0].wait.initial_spin",
     "only large-initial-spin takes 'initial_spin'"},
    {"large-initial-spin-without-initial-spin.yaml", "24:13", "workload.jobs[0].wait",
     "missing required key 'initial_spin'"},
    {"end-first-finish.yaml", "3:6", "end", "all-jobs only"},
    {"workstations-and-file.yaml", "6:9", "platform.file", "not both"},
    {"latency-with-file.yaml", "6:12", "platform.latency", "comes from the platform file"},
    {"bandwidth-with-file.yaml", "7:14", "platform.bandwidth", "comes from the platform file"},
    {"context-switch-negative.yaml", "12:19", "scheduler.context_switch", "got \"-100us\""},
    {"pattern-unknown.yaml", "18:16", "workload.jobs[0].pattern", "got \"ring\""},
    {"barrier-kind-unknown.yaml", "23:23", "workload.jobs[0].barrier.kind", "got \"butterfly\""},
    {"notify-unknown.yaml", "23:37", "workload.jobs[0].barrier.notify",
     "expected one of flat, binary, binomial, skewed, order-aware-skewed, got \"butterfly\""},
    {"notify-on-all-to-all.yaml", "23:43", "workload.jobs[0].barrier.notify", "only kind root"},
    {"arrive-unknown.yaml", "23:37", "workload.jobs[0].barrier.arrive",
     "expected one of flat, binary, binomial, skewed, got \"binomail\""},
    {"arrive-order-aware.yaml", "23:37", "workload.jobs[0].barrier.arrive",
     "expected one of flat, binary, binomial, skewed, got \"order-aware-skewed\""},
    {"arrive-on-all-to-all.yaml", "23:43", "workload.jobs[0].barrier.arrive", "only kind root"},
    {"arrive-tree-with-order-aware-notify.yaml", "23:65", "workload.jobs[0].barrier.arrive",
     "needs every arrival at the root"},
    {"sleep-return-on-stride.yaml", "13:17", "scheduler.sleep_return", "policy ts only"},
    {"credit-cap-on-ts.yaml", "11:15", "scheduler.credit_cap", "policy stride-credit only"},
    {"unknown-job-key.yaml", "23:7", "workload.jobs[0].priority", "unknown key"},
    {"jobs-empty.yaml", "14:9", "workload.jobs", "at least one parallel job"},
    {"network-misspelt.yaml", "9:12", "platform.network", "one of logp, shared"},
    {"wake-preempt-on-ts.yaml", "11:17", "scheduler.wake_preempt", "policies stride and stride-credit only"},
    {"wake-preempt-unknown.yaml", "11:17", "scheduler.wake_preempt", "got \"sometimes\""},
    {"resume-unknown.yaml", "23:43", "workload.jobs[0].wait.resume", "got \"later\""},
    {"resume-on-block.yaml", "23:40", "workload.jobs[0].wait.resume", "block never spins"},
    {"conditional-on-spin.yaml", "23:44", "workload.jobs[0].wait.conditional",
     "only the two-phase algorithms"},
    {"after-wake-on-spin.yaml", "23:43", "workload.jobs[0].wait.after_wake", "only the two-phase algorithms"},
    {"read-window-on-pairwise.yaml", "23:48", "workload.jobs[0].wait.read_window",
     "only block-immediately takes"},
    {"wait-algorithm-misspelt.yaml", "23:25", "workload.jobs[0].wait.algorithm",
     "variance-guess, variance-with-proc-count, avg-proc-delay, got \"variance-gues\""},
    {"threshold-negative.yaml", "23:52", "workload.jobs[0].wait.threshold", "got \"-1ms\""},
    {"threshold-on-pairwise.yaml", "23:46", "workload.jobs[0].wait.threshold",
     "only variance-guess, variance-with-proc-count and avg-proc-delay take 'threshold'"},
    {"barrier-spin-on-variance-guess.yaml", "23:55", "workload.jobs[0].wait.barrier_spin",
     "variance-guess sets the barrier spin itself"},
    {"prefetch-not-boolean.yaml", "23:45", "workload.jobs[0].wait.prefetch", "got \"sometimes\""},
    {"prefetch-lead-without-prefetch.yaml", "23:50", "workload.jobs[0].wait.prefetch_lead",
     "only with prefetch: true"},
    {"prefetch-lead-negative.yaml", "23:66", "workload.jobs[0].wait.prefetch_lead", "got \"-5us\""},
    {"prefetch-with-random-pattern.yaml", "23:45", "workload.jobs[0].wait.prefetch",
     "only under pattern news"},
    {"kernel-unknown.yaml", "11:11", "scheduler.kernel",
     "expected one of 6.6, 6.12, 6.15 or 6.18 for scheduler.policy eevdf, got \"6.7\""},
    {"kernel-of-cfs-on-eevdf.yaml", "11:11", "scheduler.kernel", "(6.1 runs cfs), got \"6.1\""},
    {"hz-unknown.yaml", "11:7", "scheduler.hz", "one of 100, 250, 300 or 1000, got \"500\""},
    {"feature-unknown.yaml", "11:28", "scheduler.features.RUN_TO_PARTY", "unknown feature"},
    {"feature-of-later-version.yaml", "12:29", "scheduler.features.DELAY_DEQUEUE",
     "a feature of Linux 6.6: WAKEUP_PREEMPTION, PLACE_LAG, RUN_TO_PARITY or HRTICK"},
    {"feature-rel-deadline-on-now.yaml", "11:34", "scheduler.features.PLACE_REL_DEADLINE", "never migrate"},
    {"feature-not-boolean.yaml", "11:22", "scheduler.features.HRTICK", "got \"sometimes\""},
    {"features-not-mapping.yaml", "11:13", "scheduler.features", "a mapping of feature names"},
    {"base-slice-on-cfs.yaml", "11:15", "scheduler.base_slice", "policy eevdf only"},
    {"latency-zero-on-cfs.yaml", "11:12", "scheduler.latency", "got \"0ms\""},
    {"tunable-scaling-unknown.yaml", "11:20", "scheduler.tunable_scaling", "got \"quadratic\""},
    {"nice-out-of-range.yaml", "23:13", "workload.jobs[0].nice", "from -20 to 19, got \"20\""},
    {"nice-on-stride.yaml", "23:13", "workload.jobs[0].nice", "cfs and eevdf only"},
    {"proc-count-with-all-to-all.yaml", "23:25", "workload.jobs[0].wait.algorithm",
     "needs the root's replies to arrivals: barrier kind root"},
    {"proc-count-with-arrive-tree.yaml", "23:25", "workload.jobs[0].wait.algorithm",
     "needs the root's replies to every arrival: barrier arrive flat, not binomial"},
    {"keepalive-start-above-one.yaml", "23:48", "workload.jobs[0].barrier.keepalive.start",
     "a fraction of the job's processes in (0, 1]"},
    {"keepalive-start-misspelt.yaml", "23:48", "workload.jobs[0].barrier.keepalive.start",
     "got \"three-quarters\""},
    {"keepalive-unknown-key.yaml", "23:41", "workload.jobs[0].barrier.keepalive.strat", "unknown key"},
    {"keepalive-period-zero.yaml", "23:49", "workload.jobs[0].barrier.keepalive.period", "got \"0us\""},
    {"keepalive-after-without-unit.yaml", "23:60", "workload.jobs[0].barrier.keepalive.after", "got \"5\""},
    {"keepalive-targets-unknown.yaml", "23:62", "workload.jobs[0].barrier.keepalive.targets",
     "one of all, not-arrived, arrived"},
    {"keepalive-on-all-to-all.yaml", "23:46", "workload.jobs[0].barrier.keepalive", "only kind root"},
    {"keepalive-with-arrive-tree.yaml", "23:58", "workload.jobs[0].barrier.keepalive",
     "keep-alives count every arrival at the root: barrier arrive flat, not binomial"},
    // Noise (issue 34; docs/models/now.md section 8).
    {"noise-as-unknown.yaml", "16:56", "noise[0].as", "expected detour or daemon, got \"demon\""},
    {"noise-duration-distribution-bad.yaml", "16:42", "noise[0].duration", "got \"10us-40us:3, 1ms\""},
    {"noise-duration-without-unit.yaml", "16:42", "noise[0].duration", "got \"25\""},
    {"noise-key-misspelt.yaml", "16:22", "noise[0].perod", "did you mean 'period'?"},
    {"noise-kind-unknown.yaml", "16:12", "noise[0].kind", "got \"jitter\""},
    {"noise-net-100-percent.yaml", "16:3", "noise", "less than 100% of a workstation's CPU, got 100%"},
    {"noise-not-a-list.yaml", "16:3", "noise", "a list of noise sources"},
    {"noise-period-missing.yaml", "16:5", "noise[0]", "missing required key 'period'"},
    {"noise-period-zero.yaml", "16:30", "noise[0].period", "got \"0ms\""},
    {"noise-phase-file-short.yaml", "16:59", "noise[0].phase", "has 2 phases, expected one per workstation"},
    {"noise-phase-unknown.yaml", "16:59", "noise[0].phase", "got \"synchronized\""},
    {"noise-rate-negative.yaml", "16:27", "noise[0].rate", "got \"-5\""},
    {"noise-rate-on-periodic.yaml", "16:42", "noise[0].rate", "a periodic source takes no 'rate'"},
    {"noise-trace-with-duration.yaml", "16:58", "noise[0].duration", "a trace source takes no 'duration'"},
    {"noise-workstations-absent.yaml", "16:66", "noise[0].workstations", "below 8 (platform.workstations)"},
    {"noise-workstations-malformed.yaml", "16:66", "noise[0].workstations", "got \"7-2\""},
    {"noise-trace-cpu-full.yaml", "16:3", "noise", "got 105% on every workstation"},
};

// Names the case by its file in test output and ctest names.
void PrintTo(const BadNowCase& c, std::ostream* os) {
  *os << c.file;
}

class NowBadScenario : public ::testing::TestWithParam<BadNowCase> {};

void check_bad_now_scenario(const BadNowCase& c, const std::string& command) {
  Sandbox box;
  const std::string file = (kBadNow / c.file).string();
  const auto r = command == "run" ? box.run({"run", file, "--out", "out"}) : box.run({"validate", file});
  const std::string line = expect_input_error(r);
  const std::string located = fmt::format("{}:{}: {}: ", file, c.where, c.key);
  EXPECT_TRUE(contains(line, located)) << "expected the message to locate the problem as '" << located
                                       << "' (file:LINE:COL: key path)" << r.describe();
  EXPECT_TRUE(contains(line, c.fragment))
      << "expected the message to say '" << c.fragment << "'" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
  EXPECT_FALSE(fs::exists(box.work() / "results")) << "expected no results/ directory after bad input";
}

TEST_P(NowBadScenario, RunFailsWithOneLocatedLine) {
  check_bad_now_scenario(GetParam(), "run");
}

TEST_P(NowBadScenario, ValidateFailsWithOneLocatedLine) {
  check_bad_now_scenario(GetParam(), "validate");
}

INSTANTIATE_TEST_SUITE_P(NowCorpus, NowBadScenario, ::testing::ValuesIn(kBadNowCases),
                         [](const ::testing::TestParamInfo<BadNowCase>& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// A noise trace or phase file that is malformed is located at its own file:line (issue 34 section 4).
TEST(NowNoiseFiles, AMalformedOrEmptyTraceIsLocatedAtItsLine) {
  for (const auto& [trace, where, fragment] :
       {std::tuple{"malformed.csv", ":6: ", "not overlapping: 5010000 starts before the previous ends"},
        std::tuple{"empty.csv", ":3: ", "expected at least one detour after the header"}}) {
    Sandbox box;
    fs::copy_file(kData / "noise" / trace, box.work() / trace);
    const std::string yaml = fmt::format(
        "model: now\nplatform: {{workstations: 4}}\nscheduler: {{policy: stride}}\nworkload:\n  jobs:\n"
        "    - {{processes: 4, pattern: none, barriers: 2, wait: {{algorithm: spin}}}}\n"
        "noise:\n  - {{kind: trace, file: {}}}\n",
        trace);
    std::ofstream(box.work() / "s.yaml") << yaml;
    const auto r = box.run({"run", "s.yaml", "--out", "out"});
    const std::string line = expect_input_error(r);
    EXPECT_TRUE(contains(line, std::string(trace) + where)) << "expected " << trace << where << r.describe();
    EXPECT_TRUE(contains(line, fragment)) << r.describe();
    EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
  }
}

// A trace of two CPUs: each workstation replays one; the run records what its detours took.
TEST(NowNoiseFiles, ATraceRunsAndTheRunRecordsTheNoise) {
  Sandbox box;
  fs::copy_file(kData / "noise" / "two-cpus.csv", box.work() / "two-cpus.csv");
  std::ofstream(box.work() / "s.yaml")
      << "model: now\nplatform: {workstations: 4, latency: 10us, overhead: 2us}\n"
         "scheduler: {policy: stride, quantum: 10ms, context_switch: 100us}\nworkload:\n  jobs:\n"
         "    - {processes: 4, pattern: none, sync_interval: 1ms, barriers: 50, wait: {algorithm: "
         "pairwise}}\n"
         "noise:\n  - {kind: trace, file: two-cpus.csv, phase: random}\n";
  const auto r = box.run({"run", "s.yaml", "--out", "out"});
  ASSERT_EQ(r.status, 0) << r.describe();
  const auto summary = read_json(box.work() / "out" / "summary.json");
  const auto& noise = summary["noise"];
  EXPECT_NEAR(noise["net_configured"].get<double>(), 75e3 / 2e7, 1e-12) << "75us over two CPUs' 10 ms";
  EXPECT_GT(noise["net_injected_mean"].get<double>(), 0);
  EXPECT_GE(noise["slowdown"].get<double>(), 1.0);
  EXPECT_EQ(noise["iterations"], 50);
  EXPECT_EQ(summary["resolved"]["noise"][0]["kind"], "trace");
  EXPECT_TRUE(contains(read_text(box.work() / "out" / "workstations.csv"), ",noise_s\n"));
  EXPECT_TRUE(contains(r.out, "  noise        ")) << r.describe();
}

// as: daemon (docs/models/now.md section 8.2.1): the same BSP on 16 workstations, its 2.5% of Poisson noise
// (500us at 50/s) as detours or as a daemon's work under the workstations' local scheduler. One run per
// process: through the command line.
json daemon_run(Sandbox& box, const std::string& scheduler, const std::string& wait, const std::string& as) {
  std::ofstream(box.work() / (as + ".yaml"))
      << "model: now\nseed: 7\nplatform: {workstations: 16, latency: 0us, overhead: 1ns}\nscheduler: "
      << scheduler
      << "\nworkload:\n  jobs:\n    - {name: bsp, processes: 16, pattern: none, sync_interval: 1ms, "
         "imbalance: 1,"
         " barriers: 300, barrier: {kind: root}, wait: {algorithm: "
      << wait << "}}\nnoise:\n  - {kind: poisson, rate: 50, duration: 500us, phase: random, as: " << as
      << "}\n";
  const auto r = box.run({"run", as + ".yaml", "--out", as});
  EXPECT_EQ(r.status, 0) << r.describe();
  return read_json(box.work() / as / "summary.json");
}

// Under gang a daemon outranks the slot's job and runs its work out at once; with no context-switch cost it
// is then exactly a detour.
TEST(NowNoiseDaemon, UnderGangWithoutSwitchCostADaemonIsADetour) {
  Sandbox box;
  const std::string gang = "{policy: gang, quantum: 10ms, context_switch: 0us}";
  const auto detour = daemon_run(box, gang, "spin", "detour");
  const auto daemon = daemon_run(box, gang, "spin", "daemon");
  EXPECT_GT(detour["noise"]["slowdown"].get<double>(), 1.05) << "the noise slows the program";
  EXPECT_EQ(daemon["makespan"], detour["makespan"]);
  EXPECT_NEAR(daemon["noise"]["daemon_ran_s"].get<double>(), daemon["noise"]["daemon_work_s"].get<double>(),
              1e-3)
      << "the daemons ran (nearly) all their work: what remains was given after the program ended";
  EXPECT_EQ(daemon["noise"]["net_injected_mean"], detour["noise"]["net_injected_mean"]);
  EXPECT_EQ(daemon["resolved"]["noise"][0]["as"], "daemon");
}

// Under stride without wake-up preemption (its default) a woken daemon waits for the running process's
// quantum to end. A process that blocks at the barrier after its 1 ms gives the daemon the CPU then: the
// daemon's work no longer delays a computation on the critical path but fills the wait, so the same work
// costs the program less than detours do.
TEST(NowNoiseDaemon, UnderStrideADaemonWaitsForTheQuantumAndFillsTheWait) {
  Sandbox box;
  const std::string stride = "{policy: stride, quantum: 10ms, context_switch: 0us}";
  const auto detour = daemon_run(box, stride, "block", "detour");
  const auto daemon = daemon_run(box, stride, "block", "daemon");
  const double with_detours = detour["noise"]["slowdown"].get<double>();
  const double with_daemons = daemon["noise"]["slowdown"].get<double>();
  EXPECT_GT(with_detours, 1.05);
  EXPECT_LT(with_daemons, with_detours);
  EXPECT_GT(daemon["noise"]["daemon_ran_s"].get<double>(),
            0.5 * daemon["noise"]["daemon_work_s"].get<double>());
}

TEST(NowBadScenarioCorpus, EveryFileIsListedAndThereAreEnough) {
  std::set<std::string> listed;
  for (const auto& c : kBadNowCases) listed.insert(c.file);
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kBadNow)) present.insert(entry.path().filename().string());
  EXPECT_EQ(listed, present) << "expected tests/data/bad-now/ to hold exactly the files of kBadNowCases";
  EXPECT_GE(present.size(), 16u) << "expected a corpus of at least 16 bad NOW scenarios";
}

// ---------------------------------------------------------------------------------------------------
// f. Every waiting algorithm runs to completion on the quick start under stride.

struct WaitCase {
  const char* name;  // for the test name
  const char* wait;  // the flow mapping given to workload.jobs.0.wait
};

const WaitCase kWaitCases[] = {
    {"block", "{algorithm: block}"},
    {"spin_fixed_300us", "{algorithm: spin-fixed, spin: 300us}"},
    {"pairwise", "{algorithm: pairwise}"},
    {"block_immediately", "{algorithm: block-immediately}"},
    {"spin", "{algorithm: spin}"},
    {"large_initial_spin_600us", "{algorithm: large-initial-spin, initial_spin: 600us}"},
    {"large_initial_spin_V_L_2o", "{algorithm: large-initial-spin, initial_spin: V+L+2o}"},
    {"variance_guess", "{algorithm: variance-guess}"},
    {"variance_with_proc_count", "{algorithm: variance-with-proc-count}"},
    {"avg_proc_delay", "{algorithm: avg-proc-delay}"},
    {"pairwise_prefetch", "{algorithm: pairwise, prefetch: true}"},
};

void PrintTo(const WaitCase& c, std::ostream* os) {
  *os << c.wait;
}

class NowWaitingAlgorithm : public ::testing::TestWithParam<WaitCase> {};

TEST_P(NowWaitingAlgorithm, RunsToCompletionUnderStride) {
  const auto& c = GetParam();
  Sandbox box;
  auto summary = run_quickstart(box, "out", {"--set", std::string("workload.jobs.0.wait=") + c.wait});
  expect_now_summary_consistent(summary, 3, c.wait);
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  const std::string algorithm = summary["resolved"]["workload"]["jobs"][0]["wait"].value("algorithm", "");
  EXPECT_TRUE(contains(c.wait, "algorithm: " + algorithm + ",") ||
              contains(c.wait, "algorithm: " + algorithm + "}"))
      << "expected the resolved wait algorithm to be the one given, " << c.wait << "; got " << algorithm;
  for (auto& job : summary["jobs"]) {
    EXPECT_GT(job["completion_time"].get<double>(), kQuickstartDedicatedSeconds)
        << "expected every job to take more than its 50ms of dedicated time; got " << job.dump();
    if (algorithm == "block") {
      EXPECT_EQ(job["spins"]["total"], 0) << "expected block never to spin at a barrier: " << job.dump();
      EXPECT_EQ(job["read_spins"]["total"], 0) << "expected block never to spin on a read: " << job.dump();
      EXPECT_TRUE(job["ssr"].is_null()) << "expected no SSR without spins: " << job.dump();
    }
    if (algorithm == "spin") {
      EXPECT_EQ(job["blocks"], 0) << "expected spin never to block: " << job.dump();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(NowQuickstart, NowWaitingAlgorithm, ::testing::ValuesIn(kWaitCases),
                         [](const ::testing::TestParamInfo<WaitCase>& info) { return info.param.name; });

TEST(NowWaitingAlgorithms, SpinIsSlowerThanPairwise) {
  Sandbox box;
  const double pairwise = makespan_of(run_quickstart(box, "pairwise"), "pairwise");
  const double spin =
      makespan_of(run_quickstart(box, "spin", {"--set", "workload.jobs.0.wait={algorithm: spin}"}), "spin");
  report_ratio("spin_over_pairwise_stride", spin / pairwise);
  EXPECT_GT(spin, pairwise) << "expected always-spin to be slower than pairwise under stride: makespan "
                            << spin << " s vs " << pairwise << " s";
}

// ---------------------------------------------------------------------------------------------------
// g. Every local scheduler runs, and so do the all-to-all barrier and the random pattern.

struct SchedulerCase {
  const char* name;
  std::vector<std::string> options;
  const char* policy;  // expected in resolved.scheduler.policy
  json resolved;       // other settings expected in resolved.scheduler
};

void PrintTo(const SchedulerCase& c, std::ostream* os) {
  *os << c.name;
}

class NowScheduler : public ::testing::TestWithParam<SchedulerCase> {};

TEST_P(NowScheduler, RunsToCompletion) {
  const auto& c = GetParam();
  Sandbox box;
  auto summary = run_quickstart(box, "out", c.options);
  expect_now_summary_consistent(summary, 3, c.name);
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  auto& scheduler = summary["resolved"]["scheduler"];
  EXPECT_EQ(scheduler.value("policy", ""), c.policy)
      << "expected resolved scheduler.policy " << c.policy << "; got " << scheduler.dump();
  for (const auto& [key, value] : c.resolved.items())
    EXPECT_EQ(scheduler.value(key, json()), value)
        << "expected resolved scheduler." << key << " = " << value.dump() << "; got " << scheduler.dump();
}

INSTANTIATE_TEST_SUITE_P(
    NowQuickstart, NowScheduler,
    ::testing::Values(
        SchedulerCase{"gang", {"--set", "scheduler.policy=gang"}, "gang", json::object()},
        SchedulerCase{"ts", {"--set", "scheduler={policy: ts}"}, "ts", json::object()},
        SchedulerCase{"ts_sleep_return_maxwait",
                      {"--set", "scheduler={policy: ts, sleep_return: maxwait}"},
                      "ts",
                      {{"sleep_return", "maxwait"}}},
        SchedulerCase{"stride", {}, "stride", json::object()},
        SchedulerCase{
            "stride_credit", {"--set", "scheduler.policy=stride-credit"}, "stride-credit", json::object()},
        SchedulerCase{"stride_credit_cap_5ms",
                      {"--set", "scheduler.policy=stride-credit", "--set", "scheduler.credit_cap=5ms"},
                      "stride-credit",
                      {{"credit_cap_s", 0.005}}}),
    [](const ::testing::TestParamInfo<SchedulerCase>& info) { return std::string(info.param.name); });

// A job setting that must take effect: the run completes, records the setting and differs from the
// quick start's own (root barrier, NEWS pattern).
void expect_setting_changes_the_run(const std::string& set, const std::string& pointer,
                                    const std::string& value) {
  Sandbox box;
  auto base = run_quickstart(box, "base");
  auto changed = run_quickstart(box, "changed", {"--set", set});
  expect_now_summary_consistent(changed, 3, set);
  ASSERT_TRUE(base.is_object() && changed.is_object()) << "expected both runs to succeed";
  EXPECT_EQ(changed["resolved"][json::json_pointer(pointer)], value)
      << "expected resolved " << pointer << " = " << value << " after --set " << set;
  EXPECT_NE(base["jobs"], changed["jobs"]) << "expected --set " << set << " to change the per-job results";
}

TEST(NowWorkload, AllToAllBarrierRuns) {
  expect_setting_changes_the_run("workload.jobs.0.barrier={kind: all-to-all}",
                                 "/workload/jobs/0/barrier/kind", "all-to-all");
}

TEST(NowWorkload, NotificationTreesRun) {
  expect_setting_changes_the_run("workload.jobs.0.barrier={kind: root, notify: binomial}",
                                 "/workload/jobs/0/barrier/notify", "binomial");
  expect_setting_changes_the_run("workload.jobs.0.barrier.notify=order-aware-skewed",
                                 "/workload/jobs/0/barrier/notify", "order-aware-skewed");
}

TEST(NowWorkload, RegistrationTreesRun) {
  expect_setting_changes_the_run("workload.jobs.0.barrier={kind: root, arrive: binomial}",
                                 "/workload/jobs/0/barrier/arrive", "binomial");
  // (skewed would not: with the quick start's 8 processes and skew_sends(10us, 2us) = 7 it is flat.)
  expect_setting_changes_the_run("workload.jobs.0.barrier.arrive=binary", "/workload/jobs/0/barrier/arrive",
                                 "binary");
}

TEST(NowWorkload, RandomPatternRuns) {
  expect_setting_changes_the_run("workload.jobs.0.pattern=random", "/workload/jobs/0/pattern", "random");
}

}  // namespace
