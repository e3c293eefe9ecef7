// calibration.yaml and the scenario keys from a calibration made by hand: the figures in ns and in
// cycles at cpu_hz, the tables, an unmeasured figure, and the keys' rounding and split (docs/calibration.md).

#include "calibrate/report.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

namespace cosched::calibrate {
namespace {

Row row(std::int64_t operations, std::vector<double> samples) {
  Row r;
  r.operations = operations;
  r.samples_ns = samples;
  r.ns = summarize(samples);
  return r;
}

// 2.5 GHz, so a ns is 2.5 cycles.
Calibration hand_made() {
  Calibration c;
  c.quick = true;
  c.repetitions = 2;
  c.clock = {2.5e9, "rdtsc against steady_clock over 20 ms"};
  c.allowed_cpus = 1;
  c.cpu = 3;
  c.kernel_switches_per_handover = 1.0126;
  c.ucontext.rows = {row(1000, {150, 160}), row(2000, {156, 158})};  // figure: mean 157, std sqrt(2)
  c.fcontext.rows = {row(1000, {5, 5}), row(2000, {4, 6})};          // figure: mean 5, std sqrt(2)
  c.kernel.rows = {row(100, {3000, 3002})};                          // mean 3001 ns = 7502.5 cycles
  c.dispatch_uncontended.rows = {row(10, {6.0, 6.4})};               // mean 6.2 ns = 15.5 cycles
  c.dispatch_contended.unmeasured = "only CPU 3 is allowed to this process";
  c.idle_wakeup.unmeasured = "only CPU 3 is allowed to this process";
  c.ucontext.disturbances = Disturbances{15, 4, 1};
  return c;
}

TEST(CalibrateScenarioKeys, RoundedAndSplitAsDocumented) {
  const ScenarioKeys keys = scenario_keys(hand_made());
  EXPECT_EQ(keys.now_context_switch_ns, 3001) << "one kernel switch, whole ns";
  // 7502.5 cycles round (halves away from zero) to 7503, split 3752 + 3751: cs_in takes the odd cycle.
  EXPECT_EQ(keys.smp_cs_in_cycles, 3752);
  EXPECT_EQ(keys.smp_cs_out_cycles, 3751);
  EXPECT_EQ(keys.loop_dispatch_cycles, 16) << "6.2 ns x 2.5 = 15.5 cycles, rounded away from zero";
  EXPECT_EQ(keys.task_switch_cycles, 393) << "ucontext: 157 ns x 2.5 = 392.5 cycles";
}

TEST(CalibrateScenarioKeys, ANegativeFigureFeedsZero) {
  Calibration c = hand_made();
  c.dispatch_uncontended.rows = {row(10, {-1.0, -3.0})};  // noise larger than the cost
  EXPECT_EQ(scenario_keys(c).loop_dispatch_cycles, 0) << "keys take no negative cost";
}

// Nothing is clamped (docs/calibration.md, section 1), but a figure at or below 0 says it is no cost, in the
// YAML and on the terminal; a positive one says nothing.
TEST(CalibrateYaml, ANotPositiveFigureIsMarkedInTheFileAndTheSummary) {
  Calibration c = hand_made();
  c.dispatch_uncontended.rows = {row(10, {-0.5, 0.1})};  // mean -0.2: noise larger than the cost
  const YAML::Node doc = YAML::Load(calibration_yaml(c));
  EXPECT_DOUBLE_EQ(doc["dispatch_ns"]["uncontended"]["mean"].as<double>(), -0.2) << "reported as measured";
  EXPECT_NE(doc["dispatch_ns"]["uncontended"]["not_positive"].as<std::string>().find("quiet machine"),
            std::string::npos);
  EXPECT_FALSE(doc["switch_ns"]["kernel"]["not_positive"]) << "a positive figure is not marked";
  const std::string text = calibration_text(c);
  EXPECT_NE(text.find("Not positive, so not a cost: dispatch uncontended; the loop without"),
            std::string::npos)
      << text;
  EXPECT_EQ(calibration_text(hand_made()).find("Not positive"), std::string::npos);
  EXPECT_FALSE(YAML::Load(calibration_yaml(hand_made()))["dispatch_ns"]["uncontended"]["not_positive"]);

  // The keys it feeds are listed with it, for a scenario that takes them to warn (section 6).
  const YAML::Node listed = doc["scenario_keys"]["not_positive"];
  ASSERT_TRUE(listed.IsMap());
  EXPECT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed["smp_job.loop.dispatch"].as<std::string>(), "dispatch_ns.uncontended");
  EXPECT_FALSE(YAML::Load(calibration_yaml(hand_made()))["scenario_keys"]["not_positive"]);
  c.kernel.rows = {row(100, {-1.0, 0.0})};
  const ScenarioKeys keys = scenario_keys(c);
  ASSERT_EQ(keys.not_positive.size(), 4u) << "the kernel switch feeds three keys, the dispatch one";
  EXPECT_EQ(keys.not_positive[0].key, "now.scheduler.context_switch");
  EXPECT_EQ(keys.not_positive[2].figure, "switch_ns.kernel");
}

TEST(CalibrateYaml, HoldsTheContractKeysInNsAndCycles) {
  const YAML::Node doc = YAML::Load(calibration_yaml(hand_made()));
  EXPECT_EQ(doc["cpu_hz"].as<double>(), 2.5e9);
  EXPECT_EQ(doc["cpu_hz_source"].as<std::string>(), "rdtsc against steady_clock over 20 ms");
  EXPECT_TRUE(doc["quick"].as<bool>());
  EXPECT_EQ(doc["repetitions"].as<int>(), 2);
  EXPECT_EQ(doc["cpus"]["measured_on"].as<int>(), 3);
  EXPECT_TRUE(doc["cpus"]["contending"].IsNull()) << "one CPU allowed: nobody contends";

  const YAML::Node ucontext = doc["switch_ns"]["ucontext"];
  EXPECT_DOUBLE_EQ(ucontext["mean"].as<double>(), 157.0) << "the row with the most switches (2000)";
  EXPECT_DOUBLE_EQ(ucontext["std"].as<double>(), 1.414) << "sqrt(2), 3 decimals";
  EXPECT_DOUBLE_EQ(ucontext["mean_cycles"].as<double>(), 392.5);
  EXPECT_DOUBLE_EQ(ucontext["std_cycles"].as<double>(), 3.5) << "sqrt(2) x 2.5 = 3.54, 1 decimal";
  ASSERT_EQ(ucontext["table"].size(), 2u);
  EXPECT_EQ(ucontext["table"][0]["switches"].as<std::int64_t>(), 1000);
  EXPECT_DOUBLE_EQ(ucontext["table"][0]["mean"].as<double>(), 155.0);
  EXPECT_DOUBLE_EQ(ucontext["table"][0]["std"].as<double>(), 7.071);
  EXPECT_DOUBLE_EQ(ucontext["table"][0]["mean_cycles"].as<double>(), 387.5);

  EXPECT_EQ(ucontext["trials_rerun"].as<int>(), 4);
  EXPECT_EQ(ucontext["disturbed_trials_kept"].as<int>(), 1);

  EXPECT_DOUBLE_EQ(doc["switch_ns"]["fcontext"]["mean"].as<double>(), 5.0);
  EXPECT_FALSE(doc["switch_ns"]["fcontext"]["trials_rerun"]) << "not watched for preemptions: nothing to say";
  const YAML::Node kernel = doc["switch_ns"]["kernel"];
  EXPECT_DOUBLE_EQ(kernel["mean"].as<double>(), 3001.0);
  EXPECT_DOUBLE_EQ(kernel["mean_cycles"].as<double>(), 7502.5);
  EXPECT_DOUBLE_EQ(kernel["context_switches_per_handover"].as<double>(), 1.013) << "1.0126, 3 decimals";

  const YAML::Node uncontended = doc["dispatch_ns"]["uncontended"];
  EXPECT_DOUBLE_EQ(uncontended["mean"].as<double>(), 6.2);
  EXPECT_EQ(uncontended["table"][0]["dispatches"].as<std::int64_t>(), 10);
  const YAML::Node contended = doc["dispatch_ns"]["contended"];
  EXPECT_TRUE(contended["mean"].IsNull()) << "unmeasured, not a made-up number";
  EXPECT_TRUE(contended["std"].IsNull());
  EXPECT_EQ(contended["unmeasured"].as<std::string>(), "only CPU 3 is allowed to this process");
  EXPECT_FALSE(contended["table"]) << "no table for an unmeasured figure";
}

TEST(CalibrateYaml, ScenarioKeysAndTheirSetArguments) {
  const YAML::Node keys = YAML::Load(calibration_yaml(hand_made()))["scenario_keys"];
  EXPECT_EQ(keys["now"]["scheduler.context_switch"].as<std::string>(), "3001ns");
  EXPECT_EQ(keys["smp"]["scheduler.cs_in"].as<std::int64_t>(), 3752);
  EXPECT_EQ(keys["smp"]["scheduler.cs_out"].as<std::int64_t>(), 3751);
  EXPECT_EQ(keys["smp_job"]["loop.dispatch"].as<std::int64_t>(), 16);
  EXPECT_EQ(keys["smp_job"]["tasks.switch"].as<std::int64_t>(), 393);
  EXPECT_EQ(keys["set_now"].as<std::string>(), "--set scheduler.context_switch=3001ns");
  EXPECT_EQ(keys["set_smp"].as<std::string>(), "--set scheduler.cs_in=3752 --set scheduler.cs_out=3751");
}

TEST(CalibrateScenarioKeys, IdleWakeupIsTheCrossCpuHandOverLessTheKernelSwitch) {
  Calibration c = hand_made();
  EXPECT_FALSE(scenario_keys(c).smp_idle_wakeup_cycles) << "one CPU: unmeasured, no key";
  EXPECT_FALSE(YAML::Load(calibration_yaml(c))["scenario_keys"]["smp"]["scheduler.idle_wakeup"]);
  c.allowed_cpus = 2;
  c.contending_cpu = 4;
  c.idle_wakeup.unmeasured.clear();
  c.idle_wakeup.rows = {row(100, {36000, 36002})};  // mean 36001 ns: 33000 ns more than the kernel switch
  EXPECT_EQ(scenario_keys(c).smp_idle_wakeup_cycles, 82500) << "33000 ns x 2.5";
  const YAML::Node doc = YAML::Load(calibration_yaml(c));
  EXPECT_DOUBLE_EQ(doc["switch_ns"]["idle_wakeup"]["mean"].as<double>(), 36001.0);
  EXPECT_EQ(doc["switch_ns"]["idle_wakeup"]["table"][0]["handovers"].as<std::int64_t>(), 100);
  EXPECT_EQ(doc["scenario_keys"]["smp"]["scheduler.idle_wakeup"].as<std::int64_t>(), 82500);
  EXPECT_EQ(doc["scenario_keys"]["set_smp"].as<std::string>(),
            "--set scheduler.cs_in=3752 --set scheduler.cs_out=3751 --set scheduler.idle_wakeup=82500");
  c.idle_wakeup.rows = {row(100, {2000, 2000})};  // faster than the same-CPU hand-over: noise
  EXPECT_EQ(scenario_keys(c).smp_idle_wakeup_cycles, 0) << "never below 0";
}

TEST(CalibrateText, TheSeedsTablesAndTheFigures) {
  const std::string text = calibration_text(hand_made());
  EXPECT_NE(text.find("cpu_hz 2500.0 MHz (rdtsc against steady_clock over 20 ms)"), std::string::npos)
      << text;
  // The seed's layout: the number of switches, then a mean and a standard deviation per kind of switch.
  EXPECT_NE(text.find("        2000             157.000      1.414               5.000      1.414\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dispatch contended     unmeasured: only CPU 3 is allowed to this process"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("switch kernel"), std::string::npos) << text;
  EXPECT_NE(text.find("are timed again, up to half of each figure's trials; those kept anyway can be off "
                      "either way.\n  ucontext 4 timed again, 1 kept\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("These are --quick figures: few repetitions, so they are rough."), std::string::npos)
      << text;
  auto full = hand_made();
  full.quick = false;
  EXPECT_EQ(calibration_text(full).find("rough"), std::string::npos)
      << "a full calibration's figures are not called rough";
}

}  // namespace
}  // namespace cosched::calibrate
