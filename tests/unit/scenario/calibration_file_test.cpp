// The top-level key `calibration: FILE` (docs/calibration.md, section 6): the costs of a calibration file
// are the defaults of the keys they feed; a value the scenario or --set writes wins. The expected values are
// the fixture's scenario_keys (tests/data/calibration/calibration.yaml): NOW scheduler.context_switch 2166ns,
// SMP scheduler.cs_in 2812 and cs_out 2812, loop.dispatch 17 and tasks.switch 572, at cpu_hz 2596098158.
// Bad files are covered end to end in tests/cli/calibration_key_cli_test.cpp.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "calibrate/report.hpp"
#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::config {
namespace {

namespace fs = std::filesystem;

const fs::path kFixture = fs::path(COSCHED_SOURCE_DIR) / "tests/data/calibration/calibration.yaml";

// A scenario file in a folder of its own, removed after the test.
class CalibratedScenario : public ::testing::Test {
 protected:
  std::string write(const std::string& text, const std::string& name = "scenario.yaml") {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("cosched-calibration-key-" + std::to_string(::getpid()) + "-" +
                                        info->test_suite_name() + "-" + info->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

// An SMP scenario naming `calibration` (none when empty), with neither cs_in nor cs_out, a loop job without
// dispatch and a task job without switch: every cost the file feeds is left out.
std::string smp_scenario(const std::string& calibration, const std::string& scheduler = "quantum: 1000") {
  return "model: smp\n" + (calibration.empty() ? std::string() : "calibration: " + calibration + "\n") +
         "platform: {cpus: 4}\n"
         "scheduler: {" +
         scheduler +
         "}\n"
         "workload:\n"
         "  jobs:\n"
         "    - {name: L, threads: 2, barriers: 2, wait: {algorithm: fixed-spin, spin: CS},\n"
         "       loop: {iterations: 100, cost: 50, schedule: dynamic}}\n"
         "    - {name: T, threads: 2, barriers: 2, wait: {algorithm: block}, tasks: {tree: fib(4), leaf: "
         "10}}\n";
}

std::string now_scenario(const std::string& calibration, const std::string& scheduler = "policy: stride") {
  return "model: now\ncalibration: " + calibration +
         "\n"
         "platform: {workstations: 2}\n"
         "scheduler: {" +
         scheduler +
         "}\n"
         "workload:\n"
         "  jobs:\n"
         "    - {processes: 2, barriers: 2, pattern: news, wait: {algorithm: pairwise}}\n";
}

std::vector<std::string> taken_keys(const CalibrationRecord& record) {
  std::vector<std::string> keys;
  for (const auto& t : record.taken) keys.push_back(t.key);
  return keys;
}

TEST_F(CalibratedScenario, SmpCostsLeftOutTakeTheFilesValues) {
  const auto scenario = load_scenario(write(smp_scenario(kFixture.string())));
  const auto& smp = std::get<SmpConfig>(scenario.model_config);
  EXPECT_EQ(smp.cs_in, 2812) << "scenario_keys.smp.scheduler.cs_in";
  EXPECT_EQ(smp.cs_out, 2812) << "scenario_keys.smp.scheduler.cs_out";
  ASSERT_TRUE(smp.jobs[0].loop);
  EXPECT_EQ(smp.jobs[0].loop->dispatch, 17) << "scenario_keys.smp_job.loop.dispatch";
  ASSERT_TRUE(smp.jobs[1].tasks);
  EXPECT_EQ(smp.jobs[1].tasks->switch_cost, 572) << "scenario_keys.smp_job.tasks.switch";
  EXPECT_EQ(smp.jobs[0].wait.as<wait::SpinParams>().spin, 2812 + 2812)
      << "spin: CS is cs_in + cs_out, the calibrated ones";

  ASSERT_TRUE(scenario.calibration);
  const auto& record = *scenario.calibration;
  EXPECT_EQ(record.file, kFixture.string()) << "an absolute path is kept as given";
  EXPECT_DOUBLE_EQ(record.cpu_hz, 2596098158.0);
  EXPECT_FALSE(record.quick) << "the fixture is a full run";
  EXPECT_EQ(taken_keys(record),
            (std::vector<std::string>{"scheduler.cs_in", "scheduler.cs_out", "workload.jobs[0].loop.dispatch",
                                      "workload.jobs[1].tasks.switch"}));
  ASSERT_EQ(record.taken.size(), 4u);
  EXPECT_EQ(record.taken[2].value, "17");
  EXPECT_EQ(record.taken[2].from, "scenario_keys.smp_job.loop.dispatch");
  EXPECT_EQ(record.taken[3].value, "572");
  EXPECT_EQ(record.taken[3].from, "scenario_keys.smp_job.tasks.switch");
  EXPECT_TRUE(record.written.empty());
}

TEST_F(CalibratedScenario, SmpValuesWrittenInTheScenarioWinEvenZero) {
  auto text = smp_scenario(kFixture.string(), "quantum: 1000, cs_in: 5, cs_out: 1%");
  text.replace(text.find("schedule: dynamic"), 17, "schedule: dynamic, dispatch: 0");
  text.replace(text.find("leaf: 10"), 8, "leaf: 10, switch: 3");
  const auto scenario = load_scenario(write(text));
  const auto& smp = std::get<SmpConfig>(scenario.model_config);
  EXPECT_EQ(smp.cs_in, 5);
  EXPECT_EQ(smp.cs_out, 10) << "1% of a quantum of 1000";
  EXPECT_EQ(smp.jobs[0].loop->dispatch, 0) << "a written 0 is a value, not a key left out";
  EXPECT_EQ(smp.jobs[1].tasks->switch_cost, 3);
  ASSERT_TRUE(scenario.calibration);
  EXPECT_TRUE(scenario.calibration->taken.empty());
  EXPECT_EQ(scenario.calibration->written,
            (std::vector<std::string>{"scheduler.cs_in", "scheduler.cs_out", "workload.jobs[0].loop.dispatch",
                                      "workload.jobs[1].tasks.switch"}));
}

TEST_F(CalibratedScenario, SetOverridesWinOverTheFile) {
  const auto scenario = load_scenario(write(smp_scenario(kFixture.string())),
                                      {"scheduler.cs_out=9", "workload.jobs.0.loop.dispatch=4"});
  const auto& smp = std::get<SmpConfig>(scenario.model_config);
  EXPECT_EQ(smp.cs_in, 2812) << "not set: the file's";
  EXPECT_EQ(smp.cs_out, 9);
  EXPECT_EQ(smp.jobs[0].loop->dispatch, 4);
  EXPECT_EQ(smp.jobs[1].tasks->switch_cost, 572) << "not set: the file's";
  EXPECT_EQ(taken_keys(*scenario.calibration),
            (std::vector<std::string>{"scheduler.cs_in", "workload.jobs[1].tasks.switch"}));
  EXPECT_EQ(scenario.calibration->written,
            (std::vector<std::string>{"scheduler.cs_out", "workload.jobs[0].loop.dispatch"}));
}

TEST_F(CalibratedScenario, SetCanNameTheCalibrationItself) {
  // A scenario with its own costs: --set calibration= adds the file, which fills only what is left out.
  const auto file = write(smp_scenario("", "quantum: 1000, cs_in: 30, cs_out: 20"));
  EXPECT_FALSE(load_scenario(file).calibration);
  const auto scenario = load_scenario(file, {"calibration=" + kFixture.string()});
  const auto& smp = std::get<SmpConfig>(scenario.model_config);
  EXPECT_EQ(smp.cs_in, 30);
  EXPECT_EQ(smp.jobs[0].loop->dispatch, 17);
}

TEST_F(CalibratedScenario, NowContextSwitchLeftOutTakesTheKernelSwitch) {
  const auto scenario = load_scenario(write(now_scenario(kFixture.string())));
  EXPECT_EQ(std::get<NowConfig>(scenario.model_config).context_switch(), 2166) << "2166ns";
  EXPECT_EQ(taken_keys(*scenario.calibration), (std::vector<std::string>{"scheduler.context_switch"}));
  EXPECT_EQ(scenario.calibration->taken[0].value, "2166ns");
  EXPECT_EQ(scenario.calibration->taken[0].from, "scenario_keys.now.scheduler.context_switch");
}

TEST_F(CalibratedScenario, NowContextSwitchWrittenWins) {
  const auto file = write(now_scenario(kFixture.string(), "policy: ts, context_switch: 50us"));
  EXPECT_EQ(std::get<NowConfig>(load_scenario(file).model_config).context_switch(), 50'000);
  const auto set = load_scenario(file, {"scheduler.context_switch=0"});
  EXPECT_EQ(std::get<NowConfig>(set.model_config).context_switch(), 0)
      << "--set's 0 wins over file and scenario";
  EXPECT_EQ(set.calibration->written, (std::vector<std::string>{"scheduler.context_switch"}));
}

TEST_F(CalibratedScenario, RelativePathIsRelativeToTheScenarioFile) {
  const auto file = write(smp_scenario("costs/mine.yaml"));
  fs::create_directories(dir_ / "costs");
  fs::copy_file(kFixture, dir_ / "costs" / "mine.yaml");
  const auto scenario = load_scenario(file);
  EXPECT_EQ(scenario.calibration->file, (dir_ / "costs" / "mine.yaml").string());
  EXPECT_EQ(std::get<SmpConfig>(scenario.model_config).cs_in, 2812);
}

TEST_F(CalibratedScenario, WithoutCalibrationCsInAndCsOutStayRequired) {
  try {
    load_scenario(write(smp_scenario("")));
    FAIL() << "expected a scenario without cs_in and without calibration to be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("scheduler: missing required key 'cs_in'"), std::string::npos)
        << e.what();
  }
}

TEST_F(CalibratedScenario, ResolvedRecordsTheFileAndWhatItGave) {
  const auto scenario = load_scenario(write(smp_scenario(kFixture.string())), {"scheduler.cs_out=9"});
  const auto resolved = resolved_json(scenario);
  ASSERT_TRUE(resolved.contains("calibration"));
  const auto& record = resolved["calibration"];
  EXPECT_EQ(record["file"], kFixture.string());
  EXPECT_EQ(record["cpu_hz"], 2596098158.0);
  EXPECT_EQ(record["quick"], false);
  EXPECT_EQ(record["taken"][0], (nlohmann::ordered_json{{"key", "scheduler.cs_in"},
                                                        {"value", "2812"},
                                                        {"from", "scenario_keys.smp.scheduler.cs_in"}}));
  EXPECT_EQ(record["taken"].size(), 3u) << "cs_in, the loop's dispatch and the tasks' switch";
  EXPECT_EQ(record["written"], nlohmann::ordered_json::array({"scheduler.cs_out"}));
  EXPECT_EQ(resolved["scheduler"]["cs_in"], 2812) << "the values used are the resolved section's";

  // No calibration, no record: every existing scenario resolves as before (and keeps its sweep run id).
  const auto plain = load_scenario((fs::path(COSCHED_SOURCE_DIR) / "scenarios/quickstart.yaml").string());
  EXPECT_FALSE(resolved_json(plain).contains("calibration"));
}

// What calibrate/report.cpp writes is what the scenario layer reads (the two share no code, only the keys):
// a calibration made by hand at 2.5 GHz, as tests/unit/calibrate/report_test.cpp makes it, written by
// calibration_yaml and named by a scenario of each model.
TEST_F(CalibratedScenario, AFileWithoutIdleWakeupLeavesItZeroAndAWrittenOneStands) {
  // The fixture predates the measurement: it has no scheduler.idle_wakeup.
  auto scenario = load_scenario(write(smp_scenario(kFixture.string())));
  EXPECT_EQ(std::get<SmpConfig>(scenario.model_config).idle_wakeup, 0);
  scenario = load_scenario(write(smp_scenario(kFixture.string(), "quantum: 1000, idle_wakeup: 40")));
  EXPECT_EQ(std::get<SmpConfig>(scenario.model_config).idle_wakeup, 40);
}

calibrate::Row row(std::int64_t operations, std::vector<double> samples) {
  calibrate::Row r;
  r.operations = operations;
  r.samples_ns = samples;
  r.ns = calibrate::summarize(samples);
  return r;
}

// A calibration as `cosched calibrate` measures it, its figures given by hand.
calibrate::Calibration measured() {
  calibrate::Calibration c;
  c.quick = true;
  c.repetitions = 2;
  c.clock = {2.5e9, "rdtsc against steady_clock over 20 ms"};
  c.allowed_cpus = 1;
  c.kernel_switches_per_handover = 1;
  c.ucontext.rows = {row(2000, {156, 158})};  // 157 ns = 392.5 cycles -> 393
  c.fcontext.rows = {row(2000, {4, 6})};
  c.kernel.rows = {row(100, {3000, 3002})};             // 3001 ns = 7502.5 cycles -> 7503 = 3752 + 3751
  c.dispatch_uncontended.rows = {row(10, {6.0, 6.4})};  // 6.2 ns = 15.5 cycles -> 16
  c.dispatch_contended.unmeasured = "only one CPU";
  c.idle_wakeup.rows = {row(100, {36000, 36002})};  // 36001 - 3001 = 33000 ns = 82500 cycles
  return c;
}

TEST_F(CalibratedScenario, ReadsWhatCoschedCalibrateWrites) {
  const calibrate::Calibration c = measured();
  const auto smp_file = write(smp_scenario("hand.yaml"));
  std::ofstream(dir_ / "hand.yaml") << calibrate::calibration_yaml(c);

  const auto smp_scenario_loaded = load_scenario(smp_file);
  const auto& smp = std::get<SmpConfig>(smp_scenario_loaded.model_config);
  EXPECT_EQ(smp.cs_in, 3752);
  EXPECT_EQ(smp.cs_out, 3751);
  EXPECT_EQ(smp.idle_wakeup, 82500) << "scheduler.idle_wakeup, left out, takes the file's";
  EXPECT_EQ(smp.jobs[0].loop->dispatch, 16);
  EXPECT_EQ(smp.jobs[1].tasks->switch_cost, 393);
  EXPECT_DOUBLE_EQ(smp_scenario_loaded.calibration->cpu_hz, 2.5e9);
  EXPECT_TRUE(smp_scenario_loaded.calibration->quick);

  std::ofstream(dir_ / "now.yaml") << now_scenario("hand.yaml");
  const auto now = load_scenario((dir_ / "now.yaml").string());
  EXPECT_EQ(std::get<NowConfig>(now.model_config).context_switch(), 3001) << "one kernel switch, 3001 ns";
  EXPECT_TRUE(smp_scenario_loaded.warnings.empty() && now.warnings.empty()) << "every figure is positive";
}

// A figure at or below 0 feeds 0 (docs/calibration.md, section 1); a key that takes it says so at the
// scenario's `calibration` key, once per file key, and a key the scenario writes takes nothing to warn of.
TEST_F(CalibratedScenario, AKeyTakingANotPositiveFigureWarns) {
  calibrate::Calibration c = measured();
  c.dispatch_uncontended.rows = {row(10, {-0.5, 0.1})};  // noise larger than the cost
  // A second loop job takes the same key of the file: still one warning.
  const auto file = write(std::regex_replace(
      smp_scenario("hand.yaml"), std::regex("    - \\{name: T,"),
      "    - {name: L2, threads: 1, barriers: 2, wait: {algorithm: block}, loop: {iterations: 10, cost: 5}}\n"
      "    - {name: T,"));
  std::ofstream(dir_ / "hand.yaml") << calibrate::calibration_yaml(c);

  auto scenario = load_scenario(file);
  const auto& jobs = std::get<SmpConfig>(scenario.model_config).jobs;
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].loop->dispatch, 0);
  EXPECT_EQ(jobs[1].loop->dispatch, 0);
  ASSERT_EQ(scenario.warnings.size(), 1u);
  const std::string& warning = scenario.warnings[0];
  EXPECT_NE(warning.find("scenario.yaml:2:14: calibration: workload.jobs[0].loop.dispatch takes 0 from "
                         "scenario_keys.smp_job.loop.dispatch, whose figure dispatch_ns.uncontended came out "
                         "at or below 0"),
            std::string::npos)
      << warning;

  const std::string written = std::regex_replace(smp_scenario("hand.yaml"), std::regex("schedule: dynamic"),
                                                 "schedule: dynamic, dispatch: 5");
  scenario = load_scenario(write(written));
  EXPECT_EQ(std::get<SmpConfig>(scenario.model_config).jobs[0].loop->dispatch, 5);
  EXPECT_TRUE(scenario.warnings.empty()) << "the written dispatch stands: " << scenario.warnings[0];
}

}  // namespace
}  // namespace cosched::config
