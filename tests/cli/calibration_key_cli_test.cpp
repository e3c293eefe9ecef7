// The top-level key `calibration: FILE` end to end (docs/calibration.md, section 6): bad calibration files
// and bad values of the key (exit 2, one line naming the calibration file's line and key, or the scenario's),
// and whole runs whose summary.json records the calibrated costs used. The fixture's scenario_keys
// (tests/data/calibration/calibration.yaml): NOW scheduler.context_switch 2166ns; SMP scheduler.cs_in 2812,
// cs_out 2812, loop.dispatch 17, tasks.switch 572; cpu_hz 2596098158.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const fs::path kCalibrationData = kData / "calibration";
const fs::path kFixture = kCalibrationData / "calibration.yaml";

std::string smp_scenario(const std::string& calibration) {
  return "model: smp\n"
         "calibration: " +
         calibration +
         "\n"
         "platform: {cpus: 1}\n"
         "scheduler: {quantum: 100000}\n"
         "workload:\n"
         "  jobs:\n"
         "    - {name: T, threads: 1, barriers: 2, wait: {algorithm: block}, tasks: {tree: fib(3), leaf: "
         "10}}\n";
}

std::string now_scenario(const std::string& calibration) {
  return "model: now\n"
         "calibration: " +
         calibration +
         "\n"
         "platform: {workstations: 4}\n"
         "scheduler: {policy: stride, quantum: 10ms}\n"
         "workload:\n"
         "  jobs:\n"
         "    - {name: news, processes: 4, barriers: 3, pattern: news, comm_interval: 10us, sync_interval: "
         "1ms,\n"
         "       wait: {algorithm: pairwise}}\n";
}

// ---------------------------------------------------------------------------------------------------
// Bad calibration files: located at the calibration file's line and key.

struct BadFile {
  const char* file;   // under tests/data/calibration/
  const char* model;  // smp or now: which keys are read
  const char* where;  // LINE:COLUMN in the calibration file
  const char* key;    // the key path in the calibration file, or ""
  const char* fragment;
};

const BadFile kBadFiles[] = {
    {"bad-cs-in-negative.yaml", "smp", "9:22", "scenario_keys.smp.scheduler.cs_in", "got \"-3\""},
    {"bad-context-switch-negative.yaml", "now", "6:31", "scenario_keys.now.scheduler.context_switch",
     "got \"-2166ns\""},
    {"bad-dispatch-missing.yaml", "smp", "11:5", "scenario_keys.smp_job",
     "missing required key 'loop.dispatch'"},
    {"bad-cpu-hz-zero.yaml", "now", "3:9", "cpu_hz", "expected a positive clock rate in Hz, got \"0\""},
    {"bad-not-calibration.yaml", "smp", "2:1", "", "not a calibration file (no scenario_keys)"},
    {"bad-not-positive-list.yaml", "smp", "14:17", "scenario_keys.not_positive",
     "expected a mapping of scenario keys to the figures at or below 0 that fed them"},
};

void PrintTo(const BadFile& c, std::ostream* os) {
  *os << c.file;
}

class BadCalibrationFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadCalibrationFile, RunAndValidateFailWithTheFilesLineAndKey) {
  const auto& c = GetParam();
  Sandbox box;
  const std::string calibration = (kCalibrationData / c.file).string();
  write_text(box.work() / "scenario.yaml",
             std::string(c.model) == "smp" ? smp_scenario(calibration) : now_scenario(calibration));
  for (const char* command : {"run", "validate"}) {
    const auto r = command == std::string("run") ? box.run({"run", "scenario.yaml", "--out", "out"})
                                                 : box.run({"validate", "scenario.yaml"});
    const auto line = expect_input_error(r);
    const std::string located = fmt::format("{}:{}: ", calibration, c.where);
    EXPECT_TRUE(contains(line, located)) << "expected '" << located << "'" << r.describe();
    if (*c.key) {
      EXPECT_TRUE(contains(line, fmt::format(": {}: ", c.key)))
          << "expected the key " << c.key << r.describe();
    }
    EXPECT_TRUE(contains(line, c.fragment)) << "expected '" << c.fragment << "'" << r.describe();
    EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no results after bad input";
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BadCalibrationFile, ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile>& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(BadCalibrationFile, EveryBadFixtureIsListed) {
  std::set<std::string> listed, present;
  for (const auto& c : kBadFiles) listed.insert(c.file);
  for (const auto& entry : fs::directory_iterator(kCalibrationData))
    if (entry.path().filename().string().rfind("bad-", 0) == 0)
      present.insert(entry.path().filename().string());
  EXPECT_EQ(listed, present) << "expected every tests/data/calibration/bad-* file in kBadFiles";
}

TEST(BadCalibrationFile, EmptyFileIsRefused) {
  Sandbox box;
  write_text(box.work() / "empty.yaml", "# nothing\n");
  write_text(box.work() / "scenario.yaml", smp_scenario("empty.yaml"));
  const auto line = expect_input_error(box.run({"validate", "scenario.yaml"}));
  EXPECT_TRUE(contains(line,
                       "empty.yaml: the calibration file is empty; expected a mapping with cpu_hz and "
                       "scenario_keys"))
      << line;
}

TEST(BadCalibrationFile, OnlyTheKeysOfTheScenariosModelAreRead) {
  // Choice (docs/calibration.md, section 6): a NOW scenario reads scenario_keys.now only, so a fault in the
  // SMP keys does not concern it.
  Sandbox box;
  write_text(box.work() / "scenario.yaml",
             now_scenario((kCalibrationData / "bad-cs-in-negative.yaml").string()));
  const auto r = box.run({"validate", "scenario.yaml"});
  expect_success(r);
  EXPECT_EQ(r.out, "scenario.yaml: valid now scenario 'scenario'\n") << r.describe();
}

// ---------------------------------------------------------------------------------------------------
// Bad values of the key: located in the scenario.

TEST(BadCalibrationKey, MissingFileIsLocatedAtTheKey) {
  Sandbox box;
  write_text(box.work() / "scenario.yaml", smp_scenario("no-such-calibration.yaml"));
  const auto line = expect_input_error(box.run({"run", "scenario.yaml", "--out", "out"}));
  EXPECT_TRUE(contains(line,
                       "scenario.yaml:2:14: calibration: expected a calibration file written by cosched "
                       "calibrate that exists"))
      << line;
  EXPECT_TRUE(contains(line, "got \"no-such-calibration.yaml\"")) << line;
  EXPECT_FALSE(fs::exists(box.work() / "out"));
}

TEST(BadCalibrationKey, AListIsNoFileName) {
  Sandbox box;
  write_text(box.work() / "scenario.yaml", smp_scenario("[a.yaml, b.yaml]"));
  const auto line = expect_input_error(box.run({"validate", "scenario.yaml"}));
  EXPECT_TRUE(contains(line, "scenario.yaml:2:14: calibration: ")) << line;
  EXPECT_TRUE(contains(line, "got a list")) << line;
}

TEST(BadCalibrationKey, NumaRefusesTheKeyAndSaysWhy) {
  Sandbox box;
  // Refused before the numa sections are read: nothing else is needed to see it.
  write_text(box.work() / "scenario.yaml", "model: numa\ncalibration: " + kFixture.string() + "\n");
  const auto line = expect_input_error(box.run({"validate", "scenario.yaml"}));
  EXPECT_TRUE(
      contains(line, "scenario.yaml:2:14: calibration: the numa model has no key a calibration feeds"))
      << line;
}

// ---------------------------------------------------------------------------------------------------
// Whole runs.

TEST(CalibratedRun, LoopExampleUsesTheFilesCostsAndRecordsThem) {
  Sandbox box;
  const auto summary = run_summary(box, {(kRoot / "scenarios" / "loops" / "calibrated.yaml").string()});
  ASSERT_FALSE(summary.is_null());
  const auto& resolved = summary["resolved"];
  EXPECT_EQ(resolved["scheduler"]["cs_in"], 2812);
  EXPECT_EQ(resolved["scheduler"]["cs_out"], 2812);
  EXPECT_EQ(resolved["workload"]["jobs"][0]["loop"]["dispatch"], 17);
  const auto& record = resolved["calibration"];
  EXPECT_EQ(record["cpu_hz"], 2596098158.0);
  EXPECT_EQ(record["taken"].size(), 3u) << record.dump();
  EXPECT_EQ(record["taken"][2]["key"], "workload.jobs[0].loop.dispatch");
  EXPECT_EQ(record["taken"][2]["from"], "scenario_keys.smp_job.loop.dispatch");
  EXPECT_EQ(record["written"], json::array());
  // 10 phases of 20000 iterations in dynamic chunks of 1: 200000 dispatches of 17 cycles.
  const auto& user_level = summary["jobs"][0]["user_level"];
  EXPECT_EQ(user_level["dispatches"], 200000);
  EXPECT_EQ(user_level["dispatch_cycles"], 200000 * 17);
}

TEST(CalibratedRun, TaskSwitchesCostTheFilesSwitchAndSetWins) {
  // fib(3) on one thread under the central queue makes 20 user-level switches a phase (docs/models/smp.md,
  // section 21.3, the fib(3) trace; one thread's order does not depend on the costs): 2 phases of 20
  // switches at the file's 572 cycles, or at the 3 that --set writes.
  Sandbox box;
  write_text(box.work() / "scenario.yaml", smp_scenario(kFixture.string()));
  const auto calibrated = run_summary(box, {"scenario.yaml"}, "calibrated");
  const auto set = run_summary(box, {"scenario.yaml", "--set", "workload.jobs.0.tasks.switch=3"}, "set");
  ASSERT_FALSE(calibrated.is_null());
  ASSERT_FALSE(set.is_null());
  EXPECT_EQ(calibrated["jobs"][0]["user_level"]["switch_cycles"], 2 * 20 * 572);
  EXPECT_EQ(calibrated["resolved"]["workload"]["jobs"][0]["tasks"]["switch"], 572);
  EXPECT_EQ(set["jobs"][0]["user_level"]["switch_cycles"], 2 * 20 * 3);
  EXPECT_EQ(set["resolved"]["workload"]["jobs"][0]["tasks"]["switch"], 3);
  EXPECT_EQ(set["resolved"]["calibration"]["written"], json::array({"workload.jobs[0].tasks.switch"}));
}

TEST(CalibratedRun, NowContextSwitchIsTheKernelSwitchUnlessWritten) {
  Sandbox box;
  write_text(box.work() / "scenario.yaml", now_scenario(kFixture.string()));
  const auto calibrated = run_summary(box, {"scenario.yaml"}, "calibrated");
  ASSERT_FALSE(calibrated.is_null());
  EXPECT_DOUBLE_EQ(calibrated["resolved"]["scheduler"]["context_switch_s"].get<double>(), 2166e-9);
  // The quick start writes 100us: it stands, with or without the calibration.
  const auto quickstart = (kRoot / "scenarios" / "now-quickstart.yaml").string();
  const auto written = run_summary(box, {quickstart, "--set", "calibration=" + kFixture.string()}, "written");
  ASSERT_FALSE(written.is_null());
  EXPECT_DOUBLE_EQ(written["resolved"]["scheduler"]["context_switch_s"].get<double>(), 100e-6);
  EXPECT_EQ(written["resolved"]["calibration"]["written"], json::array({"scheduler.context_switch"}));
  const auto plain = run_summary(box, {quickstart}, "plain");
  ASSERT_FALSE(plain.is_null());
  EXPECT_EQ(without(written, {"/wall_seconds"_json_pointer, "/resolved/calibration"_json_pointer}),
            without(plain, {"/wall_seconds"_json_pointer}))
      << "a calibration whose only cost is written changes nothing but the record";
}

}  // namespace
