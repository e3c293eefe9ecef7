// Scenario loading: values, defaults, symbolic formats and --set overrides (error paths are covered
// end to end in tests/cli).

#include "scenario/loader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "config/input_error.hpp"
#include "scenario/smp_section.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::config {
namespace {

class ScenarioFile : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("cosched-config-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml");
    std::ofstream(path_) << text;
    return path_.string();
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

const char* const kBase = R"(model: smp
platform: {cpus: 32}
scheduler: {quantum: 1000, cs_in: 3%, cs_out: 2%}
workload:
  nosync: 4
  jobs:
    - {name: J, threads: 11, barriers: 50, compute: 10%, sigma: 90/15%, wait: {algorithm: fixed-spin, spin: 6%}}
)";

TEST(SigmaConversion, SymbolicNinetyFifteenPercentIsFifteenPercentOfMuOverZ95) {
  // Thesis 2.2.2: sigma = 0.15 mu / z(0.95), z(0.95) = 1.644854 (4 significant digits checked).
  for (double mu : {1.0, 10.0, 100.0, 1000.0}) {
    double sigma = sigma_from_symbolic(90, 0.15 * mu);
    EXPECT_NEAR(sigma / mu, 0.09119, 0.000005) << "mu=" << mu;
  }
}

TEST_F(ScenarioFile, ResolvesPercentagesOfTheQuantumAndTheSymbolicSigma) {
  auto scenario = load_scenario(write(kBase));
  const auto& smp = std::get<SmpConfig>(scenario.model_config);
  EXPECT_EQ(smp.quantum, 1000);
  EXPECT_EQ(smp.cs_in, 30) << "3% of 1000";
  EXPECT_EQ(smp.cs_out, 20) << "2% of 1000";
  EXPECT_EQ(smp.nosync, 4);
  EXPECT_FALSE(smp.shuffle) << "shuffle defaults to false";
  ASSERT_EQ(smp.jobs.size(), 1u);
  EXPECT_DOUBLE_EQ(smp.jobs[0].compute_cycles, 100.0) << "10% of 1000";
  EXPECT_NEAR(smp.jobs[0].sigma.cycles, 15.0 / 1.6448536269514722, 1e-9);
  EXPECT_EQ(smp.jobs[0].wait.as<wait::SpinParams>().spin, 60);
  EXPECT_EQ(smp.jobs[0].copies, 1) << "copies defaults to 1";
  EXPECT_EQ(scenario.seed, 1u) << "seed defaults to 1";
  EXPECT_EQ(scenario.end, EndCondition::AllJobs) << "end defaults to all-jobs";
  EXPECT_EQ(scenario.name, path_.stem().string()) << "name defaults to the file's stem";
}

TEST_F(ScenarioFile, SpinSymbolsFollowTheContextSwitchCost) {
  auto file = write(kBase);
  // CS = cs_in + cs_out = 50 cycles (thesis 7.5-7.6).
  auto spin = [&](const std::string& value) {
    auto s = load_scenario(file, {"workload.jobs.0.wait.spin=" + value});
    return std::get<SmpConfig>(s.model_config).jobs[0].wait.as<wait::SpinParams>().spin;
  };
  EXPECT_EQ(spin("CS"), 50);
  EXPECT_EQ(spin("CS+"), 51);
  EXPECT_EQ(spin("2CS+"), 101);
  EXPECT_EQ(spin("17"), 17);
  EXPECT_EQ(spin("0.55%"), 6) << "5.5 cycles rounds to 6";
}

TEST_F(ScenarioFile, OverridesReplaceNestedValuesAndAddOptionalKeys) {
  auto scenario =
      load_scenario(write(kBase), {"workload.nosync=43", "scheduler.shuffle=true", "seed=9",
                                   "workload.jobs.0.wait={algorithm: block}", "end=first-finish"});
  const auto& smp = std::get<SmpConfig>(scenario.model_config);
  EXPECT_EQ(smp.nosync, 43);
  EXPECT_TRUE(smp.shuffle);
  EXPECT_EQ(scenario.seed, 9u);
  EXPECT_EQ(smp.jobs[0].wait.name, "block");
  EXPECT_EQ(scenario.end, EndCondition::FirstFinish);
}

TEST_F(ScenarioFile, ErrorsNameTheLocationKeyAndExpectation) {
  auto file = write(std::string(kBase) +
                    "    - {name: K, threads: 2, barriers: 5, compute: 1, sigma: 90-15, "
                    "wait: {algorithm: block}}\n");
  try {
    load_scenario(file);
    FAIL() << "a malformed sigma must be refused";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), file +
                                         ":8:61: workload.jobs[1].sigma: expected a positive standard "
                                         "deviation or DENSITY/INTERVAL such as 90/15%, got \"90-15\"");
  }
}

TEST_F(ScenarioFile, OverrideErrorsNameTheOverride) {
  auto file = write(kBase);
  try {
    load_scenario(file, {"workload.nosync=-3"});
    FAIL() << "a negative nosync must be refused";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--set workload.nosync=-3: workload.nosync: expected a non-negative integer, got \"-3\"");
  }
  EXPECT_THROW(load_scenario(file, {"workload.jobs.3.threads=2"}), InputError) << "no job 3";
  EXPECT_THROW(load_scenario(file, {"scheduler.bogus=2"}), InputError) << "unknown key";
}

TEST_F(ScenarioFile, ResolvedScenarioRecordsEveryValueAfterOverrides) {
  auto scenario = load_scenario(write(kBase), {"workload.jobs.0.copies=3"});
  auto json = resolved_json(scenario);
  EXPECT_EQ(json["scheduler"]["cs_in"], 30);
  EXPECT_EQ(json["workload"]["jobs"][0]["copies"], 3);
  EXPECT_EQ(json["workload"]["jobs"][0]["wait"]["spin"], 60);
  EXPECT_EQ(json["end"], "all-jobs");
}

}  // namespace
}  // namespace cosched::config
