// `cosched calibrate` for real (--quick): finite figures (marked where not positive), user-level switches
// below a kernel switch, the YAML's keys, scenario keys the loader accepts; bad arguments are one line and
// exit 2.

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

// A figure's mean and std, finite (std: not negative), in ns and in cycles. The mean is positive, or, where
// the machine's noise outweighed the cost (a dispatch is a few ns), marked not_positive in the file and
// named on the terminal (`out`).
void expect_figure(const YAML::Node& figure, const std::string& name, const std::string& out) {
  ASSERT_TRUE(figure.IsMap()) << name;
  const bool positive = figure["mean"].as<double>() > 0;
  EXPECT_EQ(static_cast<bool>(figure["not_positive"]), !positive) << name;
  if (!positive) {
    EXPECT_TRUE(contains(out, "Not positive, so not a cost:")) << name << "\n" << out;
  }
  for (const char* key : {"mean", "mean_cycles"})
    EXPECT_TRUE(std::isfinite(figure[key].as<double>())) << name << "." << key;
  for (const char* key : {"std", "std_cycles"}) {
    const double value = figure[key].as<double>();
    EXPECT_TRUE(std::isfinite(value) && value >= 0) << name << "." << key << " = " << value;
  }
  ASSERT_TRUE(figure["table"].IsSequence()) << name;
  EXPECT_EQ(figure["table"].size(), 3u) << name << ": the quick plan's three rows";
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

TEST(CalibrateCommand, QuickRunGivesFiguresWithUserLevelBelowKernel) {
  Sandbox box;
  const auto r = box.run({"calibrate", "--quick", "--out", "cal.yaml"}, 120);
  expect_success(r);
  ASSERT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "wrote cal.yaml")) << r.describe();
  EXPECT_TRUE(contains(r.out, "Switches")) << "the seed's table" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "cal.yaml.partial")) << "written atomically, nothing left beside it";

  const YAML::Node doc = YAML::LoadFile((box.work() / "cal.yaml").string());
  const double hz = doc["cpu_hz"].as<double>();
  EXPECT_TRUE(std::isfinite(hz) && hz > 1e8 && hz < 1e11) << "cpu_hz " << hz;
  EXPECT_FALSE(doc["cpu_hz_source"].as<std::string>().empty());
  EXPECT_TRUE(doc["quick"].as<bool>());
  EXPECT_GE(doc["cpus"]["measured_on"].as<int>(), 0) << "says which CPU was used";
  for (const char* name : {"ucontext", "fcontext", "kernel"})
    expect_figure(doc["switch_ns"][name], name, r.out);
  expect_figure(doc["dispatch_ns"]["uncontended"], "uncontended", r.out);
  const YAML::Node contended = doc["dispatch_ns"]["contended"];
  if (doc["cpus"]["contending"].IsNull()) {
    EXPECT_TRUE(contended["mean"].IsNull()) << "one CPU: unmeasured, with its reason";
    EXPECT_FALSE(contended["unmeasured"].as<std::string>().empty());
  } else {
    expect_figure(contended, "contended", r.out);
  }

  const double kernel = doc["switch_ns"]["kernel"]["mean"].as<double>();
  EXPECT_LT(doc["switch_ns"]["ucontext"]["mean"].as<double>(), kernel)
      << "a user-level switch enters no kernel scheduler";
  EXPECT_LT(doc["switch_ns"]["fcontext"]["mean"].as<double>(), kernel);
  EXPECT_NEAR(doc["switch_ns"]["kernel"]["mean_cycles"].as<double>(), kernel * hz * 1e-9,
              0.05 + kernel * hz * 1e-12)
      << "cycles at cpu_hz";

  // The scenario keys, as the YAML gives them, are accepted by the scenario loader.
  const YAML::Node keys = doc["scenario_keys"];
  // The keys round the exact figure to whole cycles; mean_cycles prints it to 0.1 cycle: they may differ by
  // up to half a cycle plus that printing's 0.05 (4393.47 is 4393 cycles and prints as 4393.5).
  EXPECT_NEAR(static_cast<double>(keys["smp"]["scheduler.cs_in"].as<std::int64_t>() +
                                  keys["smp"]["scheduler.cs_out"].as<std::int64_t>()),
              doc["switch_ns"]["kernel"]["mean_cycles"].as<double>(), 0.55)
      << "cs_in + cs_out is one kernel switch";
  auto args = words(keys["set_smp"].as<std::string>());
  args.insert(args.begin(), {"validate", kQuickstart.string()});
  expect_success(box.run(args));
  args = words(keys["set_now"].as<std::string>());
  args.insert(args.begin(), {"validate", (kRoot / "scenarios" / "now-quickstart.yaml").string()});
  const auto now = box.run(args);
  expect_success(now);
  EXPECT_TRUE(contains(now.out, "valid now scenario")) << now.describe();
}

struct BadCalibrate {
  std::vector<std::string> args;
  const char* fragment;
};

// Without --out the file goes into results/ (ignored by git, made when missing), not the current directory;
// --quick figures are said to be rough, and interrupted trials are explained in words.
TEST(CalibrateCommand, DefaultsToResultsAndSaysQuickFiguresAreRough) {
  Sandbox box;
  const auto r = box.run({"calibrate", "--quick"}, 120);
  expect_success(r);
  EXPECT_TRUE(contains(r.out, "wrote results/calibration.yaml")) << r.describe();
  EXPECT_TRUE(fs::is_regular_file(box.work() / "results" / "calibration.yaml"));
  EXPECT_FALSE(fs::exists(box.work() / "calibration.yaml")) << "nothing in the current directory";
  EXPECT_TRUE(contains(r.out, "These are --quick figures: few repetitions, so they are rough"))
      << r.describe();
  EXPECT_TRUE(contains(r.out, "are timed again")) << r.describe();
  EXPECT_FALSE(contains(r.out, "kept though preempted")) << "the old wording" << r.describe();
}

TEST(CalibrateCommand, BadArgumentsAreOneLineAndExit2) {
  Sandbox box;
  fs::create_directories(box.work() / "a-directory");
  const BadCalibrate cases[] = {
      {{"calibrate", "--fast"}, "--fast"},
      {{"calibrate", "--quick", "extra"}, "extra"},
      {{"calibrate", "--out"}, "--out"},
      {{"calibrate", "--quick", "--out", "a-directory"}, "--out a-directory: it is a directory"},
      {{"calibrate", "--quick", "--out", "no/such/dir/cal.yaml"}, "--out no/such/dir/cal.yaml: no directory"},
      {{"calibrate", "--quick", "--out", "/proc/cal.yaml"}, "--out /proc/cal.yaml: cannot write in /proc"},
      {{"calibrate", "--quick", "--out", ""}, "--out : empty path"},
      // --noise (issue 34): a bad duration or threshold is refused before anything is measured.
      {{"calibrate", "--noise", "--seconds", "0"}, "--seconds 0: expected a number of seconds above 0"},
      {{"calibrate", "--noise", "--seconds", "ten"}, "--seconds ten: expected a number of seconds"},
      {{"calibrate", "--noise", "--seconds", "7200"}, "at most 3600"},
      {{"calibrate", "--noise", "--threshold", "5"}, "--threshold 5: expected a duration with a unit"},
      {{"calibrate", "--noise", "--threshold", "10ns"}, "from 100ns to 1s"},
      {{"calibrate", "--seconds", "3"}, "expected --noise with them"},
      {{"calibrate", "--noise", "--quick"}, "expected no --quick with --noise"},
  };
  for (const auto& c : cases) {
    const auto r = box.run(c.args);
    const auto line = expect_input_error(r);
    EXPECT_TRUE(contains(line, c.fragment)) << "expected '" << c.fragment << "'" << r.describe();
  }
  EXPECT_FALSE(fs::exists(box.work() / "calibration.yaml")) << "nothing written for bad arguments";
  EXPECT_FALSE(fs::exists(box.work() / "results")) << "nothing written for bad arguments";
}

// `calibrate --noise` (issue 34; docs/calibration.md section 7): a trace of every allowed CPU that a NOW
// scenario replays, with its summary in the file and on the terminal.
TEST(CalibrateCommand, NoiseWritesATraceAScenarioReplays) {
  Sandbox box;
  const auto r = box.run({"calibrate", "--noise", "--seconds", "0.3"}, 60);
  expect_success(r);
  EXPECT_TRUE(contains(r.out, "wrote results/noise-trace.csv")) << r.describe();
  EXPECT_TRUE(contains(r.out, "all: net noise ")) << r.describe();
  const std::string trace = read_text(box.work() / "results" / "noise-trace.csv");
  EXPECT_TRUE(contains(trace, "# span_ns: 300000000\n")) << trace.substr(0, 400);
  EXPECT_TRUE(contains(trace, "\ncpu,start_ns,duration_ns\n"));
  std::ofstream(box.work() / "s.yaml")
      << "model: now\nplatform: {workstations: 8, latency: 10us, overhead: 2us}\n"
         "scheduler: {policy: stride}\nworkload:\n  jobs:\n"
         "    - {processes: 8, pattern: none, sync_interval: 1ms, barriers: 20, wait: {algorithm: spin}}\n"
         "noise:\n  - {kind: trace, file: results/noise-trace.csv, phase: random}\n";
  const auto run = box.run({"run", "s.yaml", "--out", "out"});
  expect_success(run);
  const auto summary = read_json(box.work() / "out" / "summary.json");
  EXPECT_NEAR(summary["resolved"]["noise"][0]["span_s"].get<double>(), 0.3, 1e-12);
}

}  // namespace
