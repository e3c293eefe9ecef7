// End-to-end tests of timeline.csv (scenario key output.timeline, docs/scenario-format.md): hand-derived
// timelines of tiny runs of both models, the same summary with and without it, coverage of every process
// without gap or overlap, per-state sums equal to jobs.csv's time breakdown, and the bad-input cases.
// (Both NOW engines writing the same timeline.csv: tests/cli/now_engine_test.cpp.)

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// A CSV without quoted cells: the header's names to each row's cells.
std::vector<std::map<std::string, std::string>> read_rows(const fs::path& path) {
  const auto lines = split_lines(read_text(path));
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) {
    ADD_FAILURE() << "expected " << path << " to have a header";
    return rows;
  }
  const auto header = split(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i]);
    EXPECT_EQ(cells.size(), header.size()) << path << " line " << i + 1 << ": " << lines[i];
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size() && c < cells.size(); ++c) row[header[c]] = cells[c];
    rows.push_back(row);
  }
  return rows;
}

// An exact decimal number of seconds (at most nine fractional digits) in nanoseconds.
std::int64_t nanos(const std::string& text) {
  const auto dot = text.find('.');
  std::int64_t value = std::stoll(text.substr(0, dot)) * 1'000'000'000;
  if (dot != std::string::npos) {
    std::string fraction = text.substr(dot + 1);
    EXPECT_LE(fraction.size(), 9u) << text;
    EXPECT_NE(fraction.back(), '0') << "expected no trailing zero in " << text;
    fraction.resize(9, '0');
    value += std::stoll(fraction);
  }
  return value;
}

// summary.json without its wall_seconds line.
std::string summary_text_without_wall(const fs::path& dir) {
  std::string out;
  for (const auto& line : split_lines(read_text(dir / "summary.json")))
    if (!contains(line, "\"wall_seconds\"")) out += line + "\n";
  return out;
}

// Runs ARGS without and with output.timeline and checks that the summary (but wall_seconds) and every other
// result file are the same byte for byte. Returns the folder with the timeline.
fs::path run_with_and_without(Sandbox& box, std::vector<std::string> args) {
  run_summary(box, args, "off");
  args.insert(args.end(), {"--set", "output.timeline=true"});
  run_summary(box, args, "on");
  const auto off = box.work() / "off", on = box.work() / "on";
  EXPECT_FALSE(fs::exists(off / "timeline.csv")) << "off by default";
  EXPECT_TRUE(fs::exists(on / "timeline.csv"));
  EXPECT_EQ(summary_text_without_wall(off), summary_text_without_wall(on))
      << "expected the same summary.json with the timeline on";
  for (const char* file : {"jobs.csv", "workstations.csv", "barriers.csv"})
    EXPECT_EQ(read_text(off / file), read_text(on / file)) << "expected the same " << file;
  return on;
}

// ---------------------------------------------------------------------------------------------------
// SMP, hand-derived: one CPU, round robin, q = 100, cs_in 2, cs_out 3, one job of two threads with two
// barriers of mu = 10 (sigma 0) and a spin of 5 (tests/unit/smp/thread_timeline_test.cpp follows it cycle by
// cycle).

const char* const kSmpTiny = R"(model: smp
seed: 1
platform: {cpus: 1}
scheduler: {policy: rr, quantum: 100, cs_in: 2, cs_out: 3}
workload:
  nosync: 0
  jobs:
    - {name: J, threads: 2, barriers: 2, compute: 10, wait: {algorithm: fixed-spin, spin: 5}}
output: {timeline: true}
)";

TEST(TimelineSmp, OneCpuTwoThreadsHandDerived) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kSmpTiny);
  const auto summary = run_summary(box, {"tiny.yaml"});
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["jobs"][0]["completion_time"], 71);
  EXPECT_EQ(read_text(box.work() / "out" / "timeline.csv"),
            "job,copy,rank,state,start,end,place\n"
            "J,0,0,switching,0,2,0\n"
            "J,0,0,computing,2,13,0\n"
            "J,0,0,spinning,13,18,0\n"
            "J,0,0,switching,18,21,0\n"
            "J,0,0,blocked,21,34,\n"
            "J,0,0,ready,34,53,\n"
            "J,0,0,switching,53,55,0\n"
            "J,0,0,computing,55,66,0\n"
            "J,0,0,switching,66,69,0\n"
            "J,0,0,finished,69,71,\n"
            "J,0,1,ready,0,21,\n"
            "J,0,1,switching,21,23,0\n"
            "J,0,1,computing,23,45,0\n"
            "J,0,1,spinning,45,50,0\n"
            "J,0,1,switching,50,53,0\n"
            "J,0,1,blocked,53,66,\n"
            "J,0,1,ready,66,69,\n"
            "J,0,1,switching,69,71,0\n");
}

// ---------------------------------------------------------------------------------------------------
// NOW, hand-derived: two workstations, L = 10us, o = 2us, W = 100us and the default 1 Gbps (a message of
// one byte takes 8 ns more to arrive), one job of two processes with no reads, one root barrier after 1 ms
// of computation, processes that spin (never block).
//   Both are switched in from 0 to 100us and compute to 1.1 ms. Rank 1 sends its arrival (o, counted as
//   compute) to 1.102 ms and spins (synchronize); the root (rank 0) spins from 1.1 ms. The arrival reaches
//   the root at 1.102 + 0.010 + 0.000008 = 1.112008 ms: it handles it (o) and sends the notice (o) to
//   1.116008 ms, passes the barrier and is finished. The notice reaches rank 1 at 1.126016 ms: it handles
//   it (o) and finishes at 1.128016 ms, the job's completion, where both lanes end.
const char* const kNowTiny = R"(model: now
seed: 1
platform: {workstations: 2, latency: 10us, overhead: 2us}
scheduler: {policy: stride, quantum: 10ms, context_switch: 100us}
workload:
  jobs:
    - {name: pair, processes: 2, pattern: none, sync_interval: 1ms, imbalance: 1, barriers: 1,
       barrier: {kind: root}, wait: {algorithm: spin}}
output: {timeline: true}
)";

TEST(TimelineNow, TwoWorkstationsOneJobHandDerived) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kNowTiny);
  const auto summary = run_summary(box, {"tiny.yaml"});
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(read_text(box.work() / "out" / "timeline.csv"),
            "job,copy,rank,state,start,end,place\n"
            "pair,0,0,switch,0,0.0001,0\n"
            "pair,0,0,compute,0.0001,0.0011,0\n"
            "pair,0,0,synchronize,0.0011,0.001112008,0\n"
            "pair,0,0,compute,0.001112008,0.001116008,0\n"
            "pair,0,0,finished,0.001116008,0.001128016,0\n"
            "pair,0,1,switch,0,0.0001,1\n"
            "pair,0,1,compute,0.0001,0.001102,1\n"
            "pair,0,1,synchronize,0.001102,0.001126016,1\n"
            "pair,0,1,compute,0.001126016,0.001128016,1\n");
  // The job's breakdown in jobs.csv: the means of the two processes.
  EXPECT_DOUBLE_EQ(summary["jobs"][0]["time"]["synchronize"].get<double>(), (12.008e-6 + 24.016e-6) / 2);
  EXPECT_DOUBLE_EQ(summary["jobs"][0]["idle_detail"]["finished"].get<double>(), 12.008e-6 / 2);
}

// ---------------------------------------------------------------------------------------------------
// The same results with the timeline on, and timelines that cover every process and add up to jobs.csv.

// Every process's rows: contiguous from 0 to its job's completion, no zero length, no two adjacent alike.
// Returns per (job, copy) and state the summed duration (in the file's unit, via `parse`).
template <typename Parse>
std::map<std::pair<std::string, std::string>, std::map<std::string, std::int64_t>> check_lanes(
    const fs::path& dir, Parse parse, const json& summary) {
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::int64_t>> sums;
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::int64_t, std::string>> last;
  std::map<std::pair<std::string, std::string>, json> completion;
  for (const auto& job : summary["jobs"])
    completion[{job["name"].get<std::string>(), std::to_string(job["copy"].get<int>())}] =
        job["completion_time"];
  for (const auto& row : read_rows(dir / "timeline.csv")) {
    const auto key = std::make_tuple(row.at("job"), row.at("copy"), row.at("rank"));
    const auto start = parse(row.at("start")), end = parse(row.at("end"));
    EXPECT_LT(start, end) << "zero or negative length";
    const std::string state_place = row.at("state") + "@" + row.at("place");
    auto found = last.find(key);
    if (found == last.end()) {
      EXPECT_EQ(start, 0) << "a process's first interval starts at 0";
    } else {
      EXPECT_EQ(start, found->second.first) << "gap or overlap";
      EXPECT_NE(state_place, found->second.second) << "adjacent intervals alike";
    }
    last[key] = {end, state_place};
    sums[{row.at("job"), row.at("copy")}][row.at("state")] += end - start;
  }
  EXPECT_FALSE(last.empty());
  // The summary's completion time: cycles, or seconds computed from nanoseconds as ns * 1e-9.
  const bool seconds = summary["time_unit"] == "s";
  for (const auto& [key, value] : last) {
    const json& done = completion.at({std::get<0>(key), std::get<1>(key)});
    if (seconds) {
      EXPECT_EQ(static_cast<double>(value.first) * 1e-9, done.get<double>())
          << "a process's last interval ends at its job's completion";
    } else {
      EXPECT_EQ(value.first, done.get<std::int64_t>())
          << "a process's last interval ends at its job's completion";
    }
  }
  return sums;
}

class TimelineSmpRuns : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(TimelineSmpRuns, SameSummaryFullCoverageAndSpinCyclesAsJobsCsv) {
  Sandbox box;
  const auto dir = run_with_and_without(box, GetParam());
  const auto summary = read_json(dir / "summary.json");
  const auto sums = check_lanes(
      dir, [](const std::string& t) { return std::stoll(t); }, summary);
  for (const auto& job : read_rows(dir / "jobs.csv")) {
    const auto found = sums.find({job.at("name"), job.at("copy")});
    ASSERT_NE(found, sums.end());
    auto spinning = found->second.find("spinning");
    EXPECT_EQ(spinning == found->second.end() ? 0 : spinning->second, std::stoll(job.at("spin_cycles")))
        << "the spinning intervals of job " << job.at("name") << " add up to its spin_cycles";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, TimelineSmpRuns,
    ::testing::Values(std::vector<std::string>{kQuickstart.string(), "--set", "workload.jobs.0.barriers=100"},
                      std::vector<std::string>{(kRoot / "scenarios/tsafrir/ch7-linux-nonsync.yaml").string(),
                                               "--set", "workload.jobs.0.barriers=200"},
                      std::vector<std::string>{
                          (kRoot / "scenarios/kontothanassis/synthetic-partitioned.yaml").string(), "--set",
                          "workload.jobs.0.barriers=100"}));

// jobs.csv gives each NOW job's breakdown as the mean over its processes, in seconds: seconds(sum) / n.
class TimelineNowRuns : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(TimelineNowRuns, SameSummaryFullCoverageAndBreakdownAsJobsCsv) {
  Sandbox box;
  const auto dir = run_with_and_without(box, GetParam());
  const auto summary = read_json(dir / "summary.json");
  const auto sums = check_lanes(dir, nanos, summary);
  const auto resolved_jobs = summary["resolved"]["workload"]["jobs"];
  const std::map<std::string, std::string> columns = {{"compute", "time_compute"},
                                                      {"communicate", "time_communicate"},
                                                      {"synchronize", "time_synchronize"},
                                                      {"switch", "time_switch"},
                                                      {"ready", "idle_detail_ready"},
                                                      {"blocked_read", "idle_detail_blocked_read"},
                                                      {"blocked_barrier", "idle_detail_blocked_barrier"},
                                                      {"finished", "idle_detail_finished"}};
  for (const auto& job : read_rows(dir / "jobs.csv")) {
    int processes = 0;
    for (const auto& profile : resolved_jobs)
      if (profile["name"] == job.at("name")) processes = profile["processes"];
    ASSERT_GT(processes, 0);
    const auto found = sums.find({job.at("name"), job.at("copy")});
    ASSERT_NE(found, sums.end());
    std::int64_t idle = 0;
    for (const auto& [state, column] : columns) {
      const auto in = found->second.find(state);
      const std::int64_t total = in == found->second.end() ? 0 : in->second;
      if (state == "ready" || state.rfind("blocked", 0) == 0 || state == "finished") idle += total;
      EXPECT_EQ(static_cast<double>(total) * 1e-9 / processes, std::stod(job.at(column)))
          << "state " << state << " of job " << job.at("name") << "#" << job.at("copy") << " against "
          << column;
    }
    EXPECT_EQ(static_cast<double>(idle) * 1e-9 / processes, std::stod(job.at("time_idle")));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, TimelineNowRuns,
    ::testing::Values(std::vector<std::string>{(kRoot / "scenarios/now-quickstart.yaml").string(), "--set",
                                               "workload.jobs.0.barriers=3"},
                      std::vector<std::string>{(kRoot / "scenarios/brim-miller/short.yaml").string(), "--set",
                                               "workload.jobs.0.barriers=3", "--set",
                                               "workload.jobs.0.sync_interval=2ms", "--set",
                                               "workload.jobs.0.wait={algorithm: block}"},
                      std::vector<std::string>{(kRoot / "scenarios/brim-miller/medium.yaml").string(),
                                               "--set", "workload.jobs.0.barriers=2", "--set",
                                               "workload.jobs.0.sync_interval=2ms", "--set",
                                               "scheduler={policy: ts}"}));

// A run without the timeline into a folder that has one from an earlier run removes it: the folder never
// mixes two runs' files.
TEST(TimelineFiles, AnEarlierRunsTimelineDoesNotSurviveARunWithout) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kSmpTiny);
  run_summary(box, {"tiny.yaml"});
  ASSERT_TRUE(fs::exists(box.work() / "out" / "timeline.csv"));
  run_summary(box, {"tiny.yaml", "--set", "output.timeline=false"});
  EXPECT_FALSE(fs::exists(box.work() / "out" / "timeline.csv"));
}

// ---------------------------------------------------------------------------------------------------
// Bad values: one located line, exit 2, for both models.

TEST(TimelineBadInput, LocatedErrors) {
  Sandbox box;
  write_text(box.work() / "smp.yaml", kSmpTiny);
  write_text(box.work() / "now.yaml", kNowTiny);
  for (const char* file : {"smp.yaml", "now.yaml"}) {
    auto line = expect_input_error(box.run({"run", file, "--set", "output.timeline=3"}));
    EXPECT_TRUE(contains(line, "output.timeline") && contains(line, "expected true or false")) << line;
    line = expect_input_error(box.run({"run", file, "--set", "output=yes"}));
    EXPECT_TRUE(contains(line, "output") && contains(line, "expected a mapping with timeline")) << line;
    line = expect_input_error(box.run({"run", file, "--set", "output.timelines=true"}));
    EXPECT_TRUE(contains(line, "timelines")) << line;
    EXPECT_FALSE(fs::exists(box.work() / "results")) << "nothing written for bad input";
  }
  // In the file itself the error names its line.
  std::string yaml = kSmpTiny;
  yaml.replace(yaml.find("{timeline: true}"), 16, "{timeline: maybe}");
  write_text(box.work() / "bad.yaml", yaml);
  const auto line = expect_input_error(box.run({"run", "bad.yaml"}));
  EXPECT_TRUE(contains(line, "bad.yaml:9:")) << line;
}

}  // namespace
