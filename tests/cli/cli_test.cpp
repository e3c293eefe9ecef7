// End-to-end tests of the cosched command line: each test runs the real binary through /bin/sh in a
// fresh temporary directory (see sandbox.hpp) and checks its exit status, stdout, stderr and the result
// files it writes. The NOW model has its own suites in now_cli_test.cpp.
//
// Exit codes under test (src/cli/main.cpp): 0 success, 2 bad input (scenario or arguments), 1 internal.
// Bad input must be reported on exactly one stderr line, "cosched: error: <where>: <key path>: ...".

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

// ---------------------------------------------------------------------------------------------------
// 1. Bad scenario files: exit 2, one located line, no results.

struct BadCase {
  const char* file;   // under tests/data/bad/
  const char* where;  // "LINE:COLUMN" of the offending key or value
  const char* key;  // the key path in display form, or "" when there is none (syntax errors, missing top key)
  const char* fragment;  // a part of the message that says what is wrong, or ""
};

const BadCase kBadCases[] = {
    {"smp-eevdf-platform-file.yaml", "6:11", "scheduler.policy", "need platform.cpus"},
    {"smp-eevdf-preempt-short.yaml", "7:29", "scheduler.features.PREEMPT_SHORT", "never applies"},
    {"smp-cfs-migration-cost-negative.yaml", "7:19", "scheduler.migration_cost", "got \"-1\""},
    {"smp-kernel-on-rr.yaml", "7:3", "scheduler.kernel", "unknown key"},
    {"smp-linux24-yield.yaml", "12:64", "workload.jobs[0].wait.algorithm",
     "which scheduler.policy linux24 does not model"},
    {"smp-rr-nice.yaml", "12:52", "workload.jobs[0].nice", "cfs and eevdf only"},
    {"smp-eevdf-nice-range.yaml", "12:16", "workload.nosync_nice", "got \"20\""},
    {"smp-eevdf-yield-poll-zero.yaml", "12:82", "workload.jobs[0].wait.poll", "a positive number of cycles"},
    {"smp-idle-wakeup-negative.yaml", "10:16", "scheduler.idle_wakeup", "got \"-5\""},
    {"yaml-syntax.yaml", "5:9", "", "YAML syntax error"},
    {"threads-string.yaml", "10:16", "workload.jobs[0].threads", "expected a positive integer, got \"many\""},
    {"platform-list.yaml", "3:3", "platform", "got a list"},
    {"compute-mapping.yaml", "13:16", "workload.jobs[0].compute", "got a mapping"},
    {"jobs-mapping.yaml", "10:5", "workload.jobs", "expected a list"},
    {"unknown-top-key.yaml", "8:1", "colour", "unknown key"},
    {"unknown-platform-key.yaml", "4:3", "platform.speed", "unknown key"},
    {"unknown-scheduler-key.yaml", "8:3", "scheduler.timeslice", "unknown key"},
    {"unknown-job-key.yaml", "14:7", "workload.jobs[0].priority", "unknown key"},
    {"unknown-wait-key.yaml", "14:32", "workload.jobs[0].wait.timeout", "unknown key"},
    {"missing-model.yaml", "1:1", "", "missing required key 'model'"},
    {"missing-platform.yaml", "1:1", "", "missing required key 'platform'"},
    {"missing-quantum.yaml", "5:3", "scheduler", "missing required key 'quantum'"},
    {"missing-threads.yaml", "10:7", "workload.jobs[0]", "missing required key 'threads'"},
    {"missing-wait.yaml", "10:7", "workload.jobs[0]", "missing required key 'wait'"},
    {"unknown-model.yaml", "1:8", "model", "got \"mainframe\""},
    {"bad-end.yaml", "8:6", "end", "got \"never\""},
    {"seed-negative.yaml", "2:7", "seed", "got \"-1\""},
    {"policy-unknown.yaml", "5:11", "scheduler.policy", "got \"fifo\""},
    {"sigma-zero.yaml", "15:14", "workload.jobs[0].sigma", "got \"0\""},
    {"sigma-negative.yaml", "15:14", "workload.jobs[0].sigma", "got \"-2.5\""},
    {"sigma-density-0.yaml", "15:14", "workload.jobs[0].sigma", "DENSITY in the open interval (0, 100)"},
    {"sigma-density-100.yaml", "15:14", "workload.jobs[0].sigma", "DENSITY in the open interval (0, 100)"},
    {"sigma-density-150.yaml", "15:14", "workload.jobs[0].sigma", "DENSITY in the open interval (0, 100)"},
    {"sigma-interval-100-percent.yaml", "15:14", "workload.jobs[0].sigma", "INTERVAL% in the open interval"},
    {"sigma-lower-bound.yaml", "15:14", "workload.jobs[0].sigma", "lower bound"},
    {"sigma-malformed.yaml", "15:14", "workload.jobs[0].sigma",
     "DENSITY/INTERVAL such as 90/15%, got \"90-15\""},
    {"threads-zero.yaml", "11:16", "workload.jobs[0].threads", "expected a positive integer, got \"0\""},
    {"threads-negative.yaml", "11:16", "workload.jobs[0].threads", "expected a positive integer, got \"-4\""},
    {"barriers-zero.yaml", "12:17", "workload.jobs[0].barriers", "expected a positive integer, got \"0\""},
    {"barriers-negative.yaml", "12:17", "workload.jobs[0].barriers",
     "expected a positive integer, got \"-5\""},
    {"copies-zero.yaml", "15:15", "workload.jobs[0].copies", "expected a positive integer, got \"0\""},
    {"copies-negative.yaml", "15:15", "workload.jobs[0].copies", "expected a positive integer, got \"-1\""},
    {"cpus-zero.yaml", "3:9", "platform.cpus", "expected a positive integer, got \"0\""},
    {"cpus-negative.yaml", "3:9", "platform.cpus", "expected a positive integer, got \"-32\""},
    {"quantum-zero.yaml", "5:12", "scheduler.quantum", "expected a positive integer, got \"0\""},
    {"quantum-negative.yaml", "5:12", "scheduler.quantum", "expected a positive integer, got \"-100\""},
    {"nosync-negative.yaml", "9:11", "workload.nosync", "got \"-45\""},
    {"spin-over-100-percent.yaml", "14:43", "workload.jobs[0].wait.spin", "no larger than 100%"},
    {"unknown-wait-algorithm.yaml", "14:25", "workload.jobs[0].wait.algorithm", "got \"sleep\""},
    {"fixed-spin-without-spin.yaml", "14:13", "workload.jobs[0].wait", "missing required key 'spin'"},
    {"block-with-spin.yaml", "14:38", "workload.jobs[0].wait.spin", "takes no 'spin'"},
    {"jobs-empty.yaml", "10:9", "workload.jobs", "at least one synchronizing job"},
    {"jobs-missing.yaml", "9:3", "workload", "at least one synchronizing job"},
    {"shuffle-not-boolean.yaml", "8:12", "scheduler.shuffle", "expected true or false, got \"maybe\""},
    {"platform-cpus-and-file.yaml", "4:9", "platform.file", "not both"},
    {"platform-file-missing.yaml", "3:9", "platform.file", "no-such-platform.xml"},
    // Numbers too large for 64-bit cycle counts: must be rejected, not wrapped around or truncated.
    {"spin-overflow.yaml", "15:43", "workload.jobs[0].wait.spin", ""},
    {"cs-in-overflow.yaml", "7:10", "scheduler.cs_in", ""},
    {"compute-overflow.yaml", "15:16", "workload.jobs[0].compute", ""},
    // Parallel loops and task trees (issue 23).
    {"loop-and-tasks.yaml", "14:14", "workload.jobs[0].tasks", "either 'loop' or 'tasks'"},
    {"loop-with-compute.yaml", "14:16", "workload.jobs[0].compute", "has no 'compute'"},
    {"loop-chunk-negative.yaml", "13:67", "workload.jobs[0].loop.chunk", "got \"-1\""},
    {"loop-iterations-zero.yaml", "13:26", "workload.jobs[0].loop.iterations", "got \"0\""},
    {"loop-schedule-unknown.yaml", "13:51", "workload.jobs[0].loop.schedule", "got \"auto\""},
    {"loop-cost-zero.yaml", "13:37", "workload.jobs[0].loop.cost", "got \"0\""},
    {"loop-except-index.yaml", "13:63", "workload.jobs[0].loop.cost.except[100]", "in [0, 100)"},
    {"loop-overflow.yaml", "13:13", "workload.jobs[0].loop", "fewer or cheaper iterations"},
    {"loop-dispatch-string.yaml", "13:70", "workload.jobs[0].loop.dispatch", "got \"soon\""},
    {"tasks-policy-unknown.yaml", "13:47", "workload.jobs[0].tasks.policy", "got \"lifo\""},
    {"tasks-tree-unknown.yaml", "13:21", "workload.jobs[0].tasks.tree", "got \"ternary(3)\""},
    {"tasks-overflow.yaml", "13:14", "workload.jobs[0].tasks", "a smaller tree or cheaper tasks"},
    {"tasks-fib-too-large.yaml", "13:21", "workload.jobs[0].tasks.tree", "got \"fib(40)\""},
};

// Names the case by its file in test output and ctest names (instead of the struct's bytes).
void PrintTo(const BadCase& c, std::ostream* os) {
  *os << c.file;
}

class BadScenario : public ::testing::TestWithParam<BadCase> {};

void check_bad_scenario(const BadCase& c, const std::string& command) {
  Sandbox box;
  const std::string file = (kData / "bad" / c.file).string();
  const auto r = command == "run" ? box.run({"run", file, "--out", "out"}) : box.run({"validate", file});
  const std::string line = expect_input_error(r);
  const std::string located = fmt::format("{}:{}: ", file, c.where);
  EXPECT_TRUE(contains(line, located))
      << "expected the message to locate the problem as '" << located << "'" << r.describe();
  if (*c.key) {
    const std::string key = fmt::format(": {}: ", c.key);
    EXPECT_TRUE(contains(line, key)) << "expected the message to name the key path '" << c.key << "'"
                                     << r.describe();
  }
  if (*c.fragment) {
    EXPECT_TRUE(contains(line, c.fragment))
        << "expected the message to say '" << c.fragment << "'" << r.describe();
  }
  EXPECT_FALSE(fs::exists(box.work() / "out" / "summary.json"))
      << "expected no out/summary.json after bad input";
  EXPECT_FALSE(fs::exists(box.work() / "results")) << "expected no results/ directory after bad input";
}

TEST_P(BadScenario, RunFailsWithOneLocatedLine) {
  check_bad_scenario(GetParam(), "run");
}

TEST_P(BadScenario, ValidateFailsWithOneLocatedLine) {
  check_bad_scenario(GetParam(), "validate");
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadScenario, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(BadScenarioCorpus, EveryFileIsListedAndThereAreEnough) {
  std::set<std::string> listed;
  for (const auto& c : kBadCases) listed.insert(c.file);
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kData / "bad"))
    present.insert(entry.path().filename().string());
  EXPECT_EQ(listed, present) << "expected tests/data/bad/ to hold exactly the files of the kBadCases table";
  EXPECT_GE(present.size(), 24u) << "expected a corpus of at least 24 bad scenarios";
}

// Non-file problems: each names the path it was given.

TEST(BadScenarioFile, MissingFile) {
  Sandbox box;
  const auto r = box.run({"run", "no-such-scenario.yaml", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "no-such-scenario.yaml: "))
      << "expected the message to name the path" << r.describe();
  EXPECT_TRUE(contains(line, "no such file"))
      << "expected the message to say the file does not exist" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
}

TEST(BadScenarioFile, EmptyFile) {
  Sandbox box;
  const std::string file = (kData / "special" / "empty.yaml").string();
  const auto r = box.run({"run", file, "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, file + ": ")) << "expected the message to name the path" << r.describe();
  EXPECT_TRUE(contains(line, "empty")) << "expected the message to say the scenario is empty" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
}

TEST(BadScenarioFile, CommentOnlyFileIsEmpty) {
  Sandbox box;
  const std::string file = (kData / "special" / "comment-only.yaml").string();
  const auto r = box.run({"validate", file});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, file + ": ")) << "expected the message to name the path" << r.describe();
  EXPECT_TRUE(contains(line, "empty")) << "expected the message to say the scenario is empty" << r.describe();
}

TEST(BadScenarioFile, DirectoryGivenAsScenario) {
  Sandbox box;
  const std::string dir = (kData / "special").string();
  const auto r = box.run({"run", dir, "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, dir + ": ")) << "expected the message to name the path" << r.describe();
  EXPECT_TRUE(contains(line, "directory")) << "expected the message to say it is a directory" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
}

TEST(BadScenarioFile, TopLevelList) {
  Sandbox box;
  const std::string file = (kData / "special" / "list.yaml").string();
  const auto r = box.run({"run", file, "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, file + ":2:1: "))
      << "expected the message to locate the list at 2:1" << r.describe();
  EXPECT_TRUE(contains(line, "mapping")) << "expected the message to ask for a mapping" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
}

TEST(BadScenarioFile, RelativePathIsReportedAsGiven) {
  Sandbox box;
  fs::copy_file(kData / "bad" / "threads-zero.yaml", box.work() / "mine.yaml");
  const auto r = box.run({"run", "mine.yaml", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_EQ(line.rfind("cosched: error: mine.yaml:11:16: workload.jobs[0].threads: ", 0), 0u)
      << "expected the path exactly as given on the command line, then LINE:COLUMN and the key"
      << r.describe();
}

// ---------------------------------------------------------------------------------------------------
// 7. Bad input is detected before the out directory is touched.

TEST(OutDirectory, BadRunCreatesNothing) {
  Sandbox box;
  const auto r = box.run({"run", (kData / "bad" / "sigma-zero.yaml").string(), "--out", "fresh"});
  expect_input_error(r);
  EXPECT_FALSE(fs::exists(box.work() / "fresh" / "summary.json"))
      << "expected no summary.json after a bad run";
  EXPECT_FALSE(fs::exists(box.work() / "fresh"))
      << "expected the out directory not to be created by a bad run";
}

TEST(OutDirectory, BadRunLeavesEarlierResultsAlone) {
  Sandbox box;
  const auto good = run_summary(box, {kQuickstart.string()});
  ASSERT_FALSE(good.is_null()) << "expected the first, good run to succeed";
  const auto before = read_text(box.work() / "out" / "summary.json");
  const auto r = box.run({"run", (kData / "bad" / "sigma-zero.yaml").string(), "--out", "out"});
  expect_input_error(r);
  EXPECT_EQ(read_text(box.work() / "out" / "summary.json"), before)
      << "expected a bad run, rejected before touching the out directory, to leave summary.json as it was";
}

TEST(OutDirectory, GoodRunReplacesStaleResults) {
  Sandbox box;
  fs::create_directories(box.work() / "out");
  write_text(box.work() / "out" / "summary.json", "stale");
  write_text(box.work() / "out" / "jobs.csv", "stale");
  const auto summary = run_summary(box, {kQuickstart.string()});
  ASSERT_FALSE(summary.is_null())
      << "expected the run to succeed and write a JSON summary over the stale one";
  EXPECT_EQ(summary.value("scenario", ""), "quickstart") << "expected the fresh summary";
  EXPECT_TRUE(contains(read_text(box.work() / "out" / "jobs.csv"), "name,copy"))
      << "expected jobs.csv to be rewritten";
}

TEST(OutDirectory, DefaultIsResultsSlashName) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--quiet"});
  expect_success(r);
  EXPECT_TRUE(fs::exists(box.work() / "results" / "quickstart" / "summary.json"))
      << "expected results/quickstart/summary.json without --out" << r.describe();
  EXPECT_TRUE(fs::exists(box.work() / "results" / "quickstart" / "jobs.csv"))
      << "expected results/quickstart/jobs.csv without --out" << r.describe();
}

TEST(OutDirectory, OutIsARegularFileIsBadInput) {
  Sandbox box;
  write_text(box.work() / "taken", "not a directory");
  const auto r = box.run({"run", kQuickstart.string(), "--out", "taken", "--quiet"});
  // An unusable --out is an argument error (exit 2), reported on one line naming the path.
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "taken")) << "expected the message to name the --out path" << r.describe();
}

// ---------------------------------------------------------------------------------------------------
// 2. --set overrides.

TEST(SetOverride, NosyncChangesTheResult) {
  Sandbox box;
  const auto base = run_summary(box, {kQuickstart.string()}, "base");
  const auto changed = run_summary(box, {kQuickstart.string(), "--set", "workload.nosync=43"}, "changed");
  ASSERT_FALSE(base.is_null() || changed.is_null()) << "expected both runs to succeed";
  EXPECT_EQ(base["resolved"]["workload"]["nosync"], 45) << "expected the scenario's own nosync: 45";
  EXPECT_EQ(changed["resolved"]["workload"]["nosync"], 43) << "expected --set to make resolved nosync 43";
  EXPECT_NE(without(base, {"/wall_seconds"_json_pointer, "/resolved"_json_pointer}),
            without(changed, {"/wall_seconds"_json_pointer, "/resolved"_json_pointer}))
      << "expected 43 instead of 45 non-synchronizing threads to change the results";
}

TEST(SetOverride, SymbolicSpinResolvesToCycles) {
  Sandbox box;
  const auto summary = run_summary(box, {kQuickstart.string(), "--set", "workload.jobs.0.wait.spin=2CS+"});
  ASSERT_FALSE(summary.is_null()) << "expected --set workload.jobs.0.wait.spin=2CS+ to be accepted";
  const auto& wait = summary["resolved"]["workload"]["jobs"][0]["wait"];
  EXPECT_EQ(wait["spin"], 13) << "expected 2CS+ = 2*(cs_in 3 + cs_out 3) + 1 = 13 cycles; wait is "
                              << wait.dump();
  EXPECT_EQ(wait["spin_given"], "2CS+") << "expected the spin as written to be kept; wait is " << wait.dump();
}

TEST(SetOverride, SeveralOverridesAndCopies) {
  Sandbox box;
  const auto summary = run_summary(
      box, {kQuickstart.string(), "--set", "workload.jobs.0.copies=2", "--set", "scheduler.shuffle=true"});
  ASSERT_FALSE(summary.is_null()) << "expected two --set options to be accepted";
  EXPECT_EQ(summary["resolved"]["workload"]["jobs"][0]["copies"], 2) << "expected copies 2";
  EXPECT_EQ(summary["resolved"]["scheduler"]["shuffle"], true) << "expected shuffle true";
  EXPECT_EQ(summary["jobs"].size(), 2u) << "expected two job instances";
}

// Every rejected override: exit 2, one line naming the --set option.
void expect_bad_override(const std::string& set, const std::string& fragment) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--set", set, "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "--set")) << "expected the message to name the --set option" << r.describe();
  EXPECT_TRUE(contains(line, "--set " + set))
      << "expected the message to quote the override '--set " << set << "'" << r.describe();
  if (!fragment.empty()) {
    EXPECT_TRUE(contains(line, fragment))
        << "expected the message to say '" << fragment << "'" << r.describe();
  }
  EXPECT_FALSE(fs::exists(box.work() / "out" / "summary.json")) << "expected no summary.json after bad input";
  // The override is not in the file: no position inside the scenario may be claimed.
  EXPECT_FALSE(contains(line, kQuickstart.string() + ":"))
      << "expected no scenario-file location for an override" << r.describe();
}

TEST(SetOverride, UnknownKey) {
  expect_bad_override("workload.bogus=1", "unknown key");
}

TEST(SetOverride, UnknownTopLevelKey) {
  expect_bad_override("bogus=1", "unknown key");
}

// A key the override misspelt, inside a mapping the override made: named by the --set, with the nearest key.
TEST(SetOverride, MisspeltKeyNamesTheSetAndSuggestsTheNearestKey) {
  expect_bad_override("workload.jobs.0.wiat.algorithm=block", "unknown key; did you mean 'wait'?");
}

// PATH=~ (or null) removes a key, so that a policy that refuses it can be chosen; what it leaves keeps its
// value (scenario-format.md, "Overrides").
TEST(SetOverride, TildeRemovesAKey) {
  Sandbox box;
  const fs::path now = kRoot / "scenarios" / "now-quickstart.yaml";
  const auto refused = box.run({"validate", now.string(), "--set", "scheduler.policy=ts"});
  EXPECT_TRUE(contains(expect_input_error(refused), "remove scheduler.quantum")) << refused.describe();
  const auto r = box.run({"run", now.string(), "--out", "out", "--quiet", "--set", "scheduler.policy=ts",
                          "--set", "scheduler.quantum=~"});
  expect_success(r);
  const auto summary = nlohmann::json::parse(read_text(box.work() / "out" / "summary.json"));
  const auto& scheduler = summary["resolved"]["scheduler"];
  EXPECT_EQ(scheduler["policy"], "ts");
  EXPECT_EQ(scheduler["context_switch_s"], 0.0001)
      << "the keys left keep the file's values" << scheduler.dump();
  const auto same =
      box.run({"validate", now.string(), "--set", "scheduler.policy=ts", "--set", "scheduler.quantum=null"});
  expect_success(same);
}

TEST(SetOverride, RemovingAMissingKeyIsRefused) {
  expect_bad_override("scheduler.quantm=~",
                      "'scheduler' has no key 'quantm' to remove; did you mean 'quantum'?");
  expect_bad_override("colour=~", "the scenario has no key 'colour' to remove");
  expect_bad_override("workload.jobs.3=~", "there is no item 3 to remove");
  expect_bad_override("workload.nosync=", "expected a value after '=' (PATH=~ removes the key)");
}

TEST(SetOverride, IndexOutOfRange) {
  expect_bad_override("workload.jobs.5.threads=3", "no item 5");
}

TEST(SetOverride, IndexNotANumber) {
  expect_bad_override("workload.jobs.x.threads=3", "item index");
}

TEST(SetOverride, BadValue) {
  expect_bad_override("workload.nosync=abc", "workload.nosync");
}

TEST(SetOverride, BadValueInAJob) {
  expect_bad_override("workload.jobs.0.threads=0", "workload.jobs[0].threads");
}

TEST(SetOverride, BadMappingValue) {
  expect_bad_override("workload.jobs.0.wait={algorithm: block, spin: 3}", "takes no 'spin'");
}

TEST(SetOverride, PlatformFileCannotJoinCpus) {
  expect_bad_override("platform.file=" + (kRoot / "platforms" / "smp-32.xml").string(), "not both");
}

TEST(SetOverride, Malformed) {
  expect_bad_override("nosuchequals", "PATH=VALUE");
}

TEST(SetOverride, EmptyPath) {
  expect_bad_override("=3", "PATH=VALUE");
}

TEST(SetOverride, EmptySegment) {
  expect_bad_override("workload..nosync=3", "empty key");
}

TEST(SetOverride, ValueNotYaml) {
  expect_bad_override("workload.nosync=[", "not valid YAML");
}

TEST(SetOverride, IntoAScalar) {
  expect_bad_override("workload.nosync.x=3", "single value");
}

TEST(SetOverride, ValidateAcceptsAndRejects) {
  Sandbox box;
  const auto good = box.run({"validate", kQuickstart.string(), "--set", "workload.nosync=0"});
  expect_success(good);
  const auto bad = box.run({"validate", kQuickstart.string(), "--set", "workload.bogus=1"});
  const auto line = expect_input_error(bad);
  EXPECT_TRUE(contains(line, "--set workload.bogus=1"))
      << "expected the message to name the override" << bad.describe();
}

// ---------------------------------------------------------------------------------------------------
// 3. The command line itself.

TEST(CommandLine, Version) {
  Sandbox box;
  const auto r = box.run({"--version"});
  expect_success(r);
  EXPECT_EQ(r.out.rfind("cosched ", 0), 0u) << "expected 'cosched <version>' on stdout" << r.describe();
  EXPECT_EQ(split_lines(r.out).size(), 1u) << "expected one line" << r.describe();
  EXPECT_TRUE(r.out.find_first_of("0123456789") != std::string::npos)
      << "expected a version number" << r.describe();
}

TEST(CommandLine, Help) {
  Sandbox box;
  const auto r = box.run({"--help"});
  expect_success(r);
  for (const char* word : {"run", "validate", "--version", "--help", "now", "smp", "numa", "--log", "PATH=~"})
    EXPECT_TRUE(contains(r.out, word)) << "expected --help to mention '" << word << "'" << r.describe();
}

TEST(CommandLine, RunHelpListsEveryOption) {
  Sandbox box;
  const auto r = box.run({"run", "--help"});
  expect_success(r);
  for (const char* option : {"--out", "--seed", "--set", "--quiet", "--help", "scenario"})
    EXPECT_TRUE(contains(r.out, option)) << "expected run --help to list '" << option << "'" << r.describe();
}

TEST(CommandLine, ValidateHelp) {
  Sandbox box;
  const auto r = box.run({"validate", "--help"});
  expect_success(r);
  for (const char* option : {"--set", "scenario"})
    EXPECT_TRUE(contains(r.out, option))
        << "expected validate --help to list '" << option << "'" << r.describe();
}

TEST(CommandLine, UnknownOption) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--bogus", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "--bogus")) << "expected the message to name the unknown option" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected nothing written";
}

TEST(CommandLine, UnknownSubcommand) {
  Sandbox box;
  expect_input_error(box.run({"simulate", kQuickstart.string()}));
}

TEST(CommandLine, NoSubcommand) {
  Sandbox box;
  const auto line = expect_input_error(box.run({}));
  EXPECT_TRUE(contains(line, "subcommand")) << "expected the message to ask for a subcommand: " << line;
}

TEST(CommandLine, RunWithoutScenario) {
  Sandbox box;
  const auto line = expect_input_error(box.run({"run"}));
  EXPECT_TRUE(contains(line, "scenario")) << "expected the message to ask for the scenario: " << line;
}

TEST(CommandLine, SeedNotANumber) {
  Sandbox box;
  const auto line =
      expect_input_error(box.run({"run", kQuickstart.string(), "--seed", "abc", "--out", "out"}));
  EXPECT_TRUE(contains(line, "--seed")) << "expected the message to name --seed: " << line;
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected nothing written";
}

TEST(CommandLine, NegativeSeedIsRejected) {
  // The scenario key 'seed' rejects -1 (bad/seed-negative.yaml); --seed must not wrap it to 2^64 - 1.
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--seed", "-1", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "--seed")) << "expected the message to name --seed" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out" / "summary.json")) << "expected nothing written";
}

TEST(CommandLine, ValidateValidScenario) {
  Sandbox box;
  for (const auto& file : {kQuickstart, kCh4, kRoot / "scenarios" / "tsafrir" / "ch3-no-randomization.yaml",
                           kData / "platform" / "smp-file.yaml"}) {
    const auto r = box.run({"validate", file.string()});
    expect_success(r);
    EXPECT_TRUE(contains(r.out, "valid")) << "expected validate to say the scenario is valid" << r.describe();
  }
  EXPECT_TRUE(fs::is_empty(box.work())) << "expected validate to write no files";
}

TEST(CommandLine, ValidateInvalidScenario) {
  Sandbox box;
  const auto r = box.run({"validate", (kData / "bad" / "unknown-top-key.yaml").string()});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "unknown-top-key.yaml:8:1: colour: "))
      << "expected a located message" << r.describe();
}

// ---------------------------------------------------------------------------------------------------
// 4. Result files and the printed summary.

TEST(Results, SummaryJsonHasEveryKey) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--out", "out"});
  expect_success(r);
  const auto summary = read_json(box.work() / "out" / "summary.json");
  ASSERT_TRUE(summary.is_object()) << "expected summary.json to hold an object";
  for (const char* key :
       {"scenario", "model", "seed", "makespan", "ssr", "jobs", "events", "wall_seconds", "resolved"})
    EXPECT_TRUE(summary.contains(key))
        << "expected summary.json key '" << key << "'; got " << summary.dump(2);
  EXPECT_EQ(summary.value("scenario", ""), "quickstart") << "expected the scenario's name";
  EXPECT_EQ(summary.value("model", ""), "smp") << "expected model smp";
  EXPECT_EQ(summary.value("seed", -1), 1) << "expected the scenario's seed 1";
  EXPECT_TRUE(summary["makespan"].is_number() && summary["makespan"].get<double>() > 0)
      << "expected a positive makespan";
  EXPECT_TRUE(summary["events"].is_number_integer() && summary["events"].get<long long>() > 0)
      << "expected a positive event count";
  EXPECT_TRUE(summary["wall_seconds"].is_number() && summary["wall_seconds"].get<double>() >= 0)
      << "expected a non-negative wall time";
  ASSERT_TRUE(summary["jobs"].is_array()) << "expected jobs to be a list";
  ASSERT_EQ(summary["jobs"].size(), 1u) << "expected one job instance";
  for (const auto& job : summary["jobs"]) {
    for (const char* key : {"name", "copy", "completion_time", "ssr", "spins"})
      EXPECT_TRUE(job.contains(key)) << "expected job key '" << key << "'; got " << job.dump();
    EXPECT_TRUE(job["spins"].contains("successful") && job["spins"].contains("total"))
        << "expected spins.successful and spins.total; got " << job.dump();
  }
  EXPECT_EQ(summary["jobs"][0].value("name", ""), "fine") << "expected the job's name";
  EXPECT_EQ(summary["resolved"]["workload"]["jobs"][0]["threads"], 11) << "expected the resolved scenario";
}

TEST(Results, SsrIsSuccessfulOverTotal) {
  Sandbox box;
  for (const auto& file : {kQuickstart, kCh4}) {
    const auto summary = run_summary(box, {file.string()}, "out-" + file.stem().string());
    ASSERT_TRUE(summary.is_object()) << "expected a summary for " << file;
    long long successful = 0;
    long long total = 0;
    for (const auto& job : summary["jobs"]) {
      const auto s = job["spins"]["successful"].get<long long>();
      const auto t = job["spins"]["total"].get<long long>();
      ASSERT_GT(t, 0) << "expected spins in every job of " << file;
      EXPECT_LE(s, t) << "expected successful <= total";
      EXPECT_NEAR(job["ssr"].get<double>(), 100.0 * s / t, 1e-9) << "expected job ssr = 100*successful/total";
      successful += s;
      total += t;
    }
    EXPECT_NEAR(summary["ssr"].get<double>(), 100.0 * successful / total, 1e-9)
        << "expected the summary's ssr to be 100*successful/total summed over jobs for " << file;
  }
}

TEST(Results, JobsCsvHasOneRowPerInstance) {
  Sandbox box;
  const auto summary = run_summary(box, {kQuickstart.string(), "--set", "workload.jobs.0.copies=3"});
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  const auto rows = read_csv(box.work() / "out" / "jobs.csv");
  ASSERT_EQ(rows.size(), 4u) << "expected a header and 3 rows (copies 0, 1, 2) in jobs.csv:\n"
                             << read_text(box.work() / "out" / "jobs.csv");
  const auto& header = rows[0];
  const std::vector<std::string> expected{"name",       "copy", "completion_time", "ssr", "spins_successful",
                                          "spins_total"};
  ASSERT_GE(header.size(), expected.size()) << "expected at least " << expected.size() << " columns";
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + expected.size()), expected)
      << "expected the header to start name,copy,completion_time,ssr,spins_successful,spins_total";
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size()) << "expected every row to have as many cells as the header";
    EXPECT_EQ(rows[i][0], "fine") << "expected job name 'fine' in row " << i;
    EXPECT_EQ(rows[i][1], std::to_string(i - 1)) << "expected copy " << i - 1 << " in row " << i;
    const auto& job = summary["jobs"][i - 1];
    EXPECT_EQ(rows[i][4], job["spins"]["successful"].dump()) << "expected the row to match summary.json";
    EXPECT_EQ(rows[i][5], job["spins"]["total"].dump()) << "expected the row to match summary.json";
  }
  EXPECT_EQ(summary["jobs"].size(), 3u) << "expected three job instances in summary.json";
}

// K&W's barrier overhead per phase (docs/models/smp.md section 18) on the run that tests/unit/
// smp_partition_test.cpp follows cycle by cycle: N = 4 threads on a partition fixed at P = 2, mu = 100,
// cs_in = cs_out = 5 (c = 10), scheduler-info, three barriers. Barrier 3 completes at 642; its completer
// finishes at once, the spinner one cycle later (643) and releases its CPU (cs_out, 648), and the two threads
// woken from their block are switched in (cs_in) to finish: at 647 + 5 = 652 and 648 + 5 = 653, the job's
// completion time. Work on the partition: 3 phases x ceil(4 / 2) x 100 = 600. Overhead per phase: (653 - 600)
// / 3 = 53 / 3 cycles: one context switch c = 10 per phase (ceil((N - P) / P) = 1) plus 23 cycles over the
// run (the first cs_in, one cycle per work round for the arrival, one per spin success, and the last
// wake-ups' 11).
TEST(Results, PartitionedRunsGiveTheBarrierOverheadPerPhase) {
  Sandbox box;
  write_text(box.work() / "kw.yaml", R"(model: smp
platform: {cpus: 2}
scheduler: {policy: partitioned, quantum: 1000000, cs_in: 5, cs_out: 5, period: 1000000000, partition: "2:1"}
workload:
  jobs:
    - {name: S, threads: 4, barriers: 3, compute: 100, wait: {algorithm: scheduler-info}}
)");
  const auto summary = run_summary(box, {(box.work() / "kw.yaml").string()});
  ASSERT_TRUE(summary.is_object()) << "expected the run to succeed";
  const auto& job = summary["jobs"][0];
  EXPECT_EQ(job["completion_time"], 653);
  ASSERT_TRUE(job["barrier_overhead_per_phase"].is_number()) << job.dump();
  EXPECT_DOUBLE_EQ(job["barrier_overhead_per_phase"].get<double>(), 53.0 / 3);
  const auto rows = read_csv(box.work() / "out" / "jobs.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].back(), "barrier_overhead_per_phase");
  EXPECT_EQ(rows[1].back(), json(53.0 / 3).dump()) << "as in summary.json";
  // Not a field of other policies: the CPUs are shared with other jobs there.
  const auto rr = run_summary(box, {kQuickstart.string()}, "rr");
  ASSERT_TRUE(rr.is_object());
  EXPECT_FALSE(rr["jobs"][0].contains("barrier_overhead_per_phase")) << rr["jobs"][0].dump();
}

TEST(Results, NoPartialFilesLeft) {
  Sandbox box;
  ASSERT_TRUE(run_summary(box, {kQuickstart.string()}).is_object()) << "expected the run to succeed";
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(box.work() / "out")) {
    names.insert(entry.path().filename().string());
    EXPECT_NE(entry.path().extension(), ".partial") << "expected no .partial file left: " << entry.path();
  }
  EXPECT_TRUE(names.count("summary.json") && names.count("jobs.csv"))
      << "expected summary.json and jobs.csv in the out directory";
}

TEST(Results, PrintedSummaryShowsTheSsr) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--out", "out"});
  expect_success(r);
  const auto summary = read_json(box.work() / "out" / "summary.json");
  ASSERT_TRUE(summary.is_object()) << "expected summary.json";
  EXPECT_TRUE(contains(r.out, "quickstart")) << "expected the scenario name on stdout" << r.describe();
  EXPECT_TRUE(contains(r.out, "SSR")) << "expected 'SSR' on stdout" << r.describe();
  const auto ssr = fmt::format("{:.2f}%", summary["ssr"].get<double>());
  EXPECT_TRUE(contains(r.out, ssr)) << "expected the SSR " << ssr << " on stdout" << r.describe();
  EXPECT_TRUE(contains(r.out, "makespan")) << "expected the makespan on stdout" << r.describe();
  EXPECT_TRUE(contains(r.out, "out")) << "expected the results directory on stdout" << r.describe();
}

TEST(Results, QuietPrintsNothing) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--out", "out", "--quiet"});
  expect_success(r);
  EXPECT_EQ(r.out, "") << "expected an empty stdout with --quiet" << r.describe();
  EXPECT_TRUE(fs::exists(box.work() / "out" / "summary.json")) << "expected --quiet to still write results";
}

// ---------------------------------------------------------------------------------------------------
// 5. Determinism and seeds.

TEST(Determinism, SameSeedSameResults) {
  Sandbox box;
  const auto first = run_summary(box, {kCh4.string(), "--seed", "12345"}, "first");
  const auto second = run_summary(box, {kCh4.string(), "--seed", "12345"}, "second");
  ASSERT_TRUE(first.is_object() && second.is_object()) << "expected both runs to succeed";
  EXPECT_EQ(without(first, {"/wall_seconds"_json_pointer}), without(second, {"/wall_seconds"_json_pointer}))
      << "expected identical summaries (except wall_seconds) for the same scenario and seed";
}

TEST(Determinism, DifferentSeedsDifferentResults) {
  Sandbox box;
  const auto a = run_summary(box, {kCh4.string(), "--seed", "1"}, "a");
  const auto b = run_summary(box, {kCh4.string(), "--seed", "2"}, "b");
  ASSERT_TRUE(a.is_object() && b.is_object()) << "expected both runs to succeed";
  const std::initializer_list<json::json_pointer> seedless{"/wall_seconds"_json_pointer, "/seed"_json_pointer,
                                                           "/resolved/seed"_json_pointer};
  EXPECT_NE(without(a, seedless), without(b, seedless))
      << "expected seeds 1 and 2 to give different results for a shuffled, randomized scenario";
  EXPECT_NE(a["jobs"], b["jobs"]) << "expected different per-job results for seeds 1 and 2";
}

TEST(Determinism, SeedOptionOverridesTheScenario) {
  Sandbox box;
  const auto given = run_summary(box, {kCh4.string(), "--seed", "777"}, "given");
  ASSERT_TRUE(given.is_object()) << "expected the run to succeed";
  EXPECT_EQ(given["seed"], 777) << "expected --seed 777 in summary.json 'seed'";
  EXPECT_EQ(given["resolved"]["seed"], 777) << "expected --seed 777 in summary.json 'resolved.seed'";

  // quickstart.yaml says seed: 1; --seed 1 must then change nothing, another seed shows in the summary.
  const auto own = run_summary(box, {kQuickstart.string()}, "own");
  const auto same = run_summary(box, {kQuickstart.string(), "--seed", "1"}, "same");
  const auto other = run_summary(box, {kQuickstart.string(), "--seed", "99"}, "other");
  ASSERT_TRUE(own.is_object() && same.is_object() && other.is_object()) << "expected the runs to succeed";
  EXPECT_EQ(without(own, {"/wall_seconds"_json_pointer}), without(same, {"/wall_seconds"_json_pointer}))
      << "expected --seed equal to the scenario's seed to give identical results";
  EXPECT_EQ(other["seed"], 99) << "expected --seed 99 to override the scenario's seed: 1";
}

TEST(Determinism, SeedInTheScenarioIsUsed) {
  Sandbox box;
  const auto from_file = run_summary(box, {kCh4.string(), "--set", "seed=5"}, "file");
  const auto from_option = run_summary(box, {kCh4.string(), "--seed", "5"}, "option");
  ASSERT_TRUE(from_file.is_object() && from_option.is_object()) << "expected both runs to succeed";
  EXPECT_EQ(from_file["seed"], 5) << "expected the scenario key seed: 5 in summary.json";
  EXPECT_EQ(without(from_file, {"/wall_seconds"_json_pointer}),
            without(from_option, {"/wall_seconds"_json_pointer}))
      << "expected 'seed: 5' in the scenario and '--seed 5' to give the same results";
}

// ---------------------------------------------------------------------------------------------------
// 6. A SimGrid platform file instead of cpus.

TEST(PlatformFile, SameResultsAsCpus) {
  Sandbox box;
  const auto file = run_summary(box, {(kData / "platform" / "smp-file.yaml").string()}, "file");
  const auto cpus = run_summary(box, {(kData / "platform" / "smp-cpus.yaml").string()}, "cpus");
  ASSERT_TRUE(file.is_object() && cpus.is_object()) << "expected both runs to succeed";
  EXPECT_EQ(file["resolved"]["platform"]["cpus"], 32) << "expected 32 CPUs read from platforms/smp-32.xml";
  ASSERT_TRUE(file["resolved"]["platform"].contains("file")) << "expected the resolved platform file";
  EXPECT_TRUE(fs::equivalent(file["resolved"]["platform"]["file"].get<std::string>(),
                             kRoot / "platforms" / "smp-32.xml"))
      << "expected platform.file to resolve relative to the scenario file";
  const std::initializer_list<json::json_pointer> ignored{"/wall_seconds"_json_pointer,
                                                          "/resolved/platform"_json_pointer};
  EXPECT_EQ(without(file, ignored), without(cpus, ignored))
      << "expected a 32-core platform file and cpus: 32 to give identical summaries";
}

TEST(PlatformFile, RunFromAnotherDirectory) {
  // The path in the scenario is relative to the scenario file, not to the current directory.
  Sandbox box;
  fs::create_directories(box.work() / "deep" / "er");
  const auto r =
      box.run({"run", (kData / "platform" / "smp-file.yaml").string(), "--out", "deep/er/out", "--quiet"});
  expect_success(r);
  EXPECT_TRUE(fs::exists(box.work() / "deep" / "er" / "out" / "summary.json"))
      << "expected results" << r.describe();
}

void expect_bad_platform(const std::string& scenario, const std::string& xml, const std::string& fragment) {
  Sandbox box;
  const std::string file = (kData / "platform" / scenario).string();
  for (const std::string command : {"run", "validate"}) {
    const auto r = command == "run" ? box.run({"run", file, "--out", "out"}) : box.run({"validate", file});
    const auto line = expect_input_error(r);
    EXPECT_TRUE(contains(line, xml)) << "expected the message to name the platform file " << xml
                                     << r.describe();
    EXPECT_TRUE(contains(line, "platform.file")) << "expected the message to name the key" << r.describe();
    EXPECT_TRUE(contains(line, fragment))
        << "expected the message to say '" << fragment << "'" << r.describe();
    EXPECT_FALSE(fs::exists(box.work() / "out" / "summary.json")) << "expected no summary.json";
  }
}

TEST(PlatformFile, TwoHostsAreNotAnSmp) {
  expect_bad_platform("two-hosts.yaml", "two-hosts.xml", "one host");
}

TEST(PlatformFile, BrokenXml) {
  expect_bad_platform("broken-xml.yaml", "broken.xml", "cannot load");
}

// ---------------------------------------------------------------------------------------------------
// Extreme but representable values: the run may succeed or reject them, never crash.

TEST(Robustness, LargestQuantumDoesNotCrash) {
  Sandbox box;
  const auto r =
      box.run({"run", (kData / "extreme" / "quantum-int64-max.yaml").string(), "--out", "out", "--quiet"});
  expect_no_crash(r);
  EXPECT_TRUE(r.status == 0 || r.status == 2) << "expected success or a bad-input error (2)" << r.describe();
  if (r.status == 2) {
    expect_input_error(r);
    EXPECT_TRUE(contains(r.err, "scheduler.quantum"))
        << "expected a rejection to name the key" << r.describe();
  } else {
    EXPECT_TRUE(fs::exists(box.work() / "out" / "summary.json"))
        << "expected results on success" << r.describe();
  }
}

}  // namespace

// --log=cosched_smp_machine.thresh:debug explains the run decision by decision, in cycles. On one CPU with
// cs_in = cs_out = 3, thread 0 is dispatched at cycle 0, runs from 3, computes 10 cycles and arrives at
// 3 + 10 + 1 = 14 (one cycle for the arrival, thesis 3.2.1.1); thread 1 is still ready, so thread 0 spins its
// 5 cycles in vain and gives up at 19, then blocks at the end of its switch out, at 22.
TEST(Logs, SmpMachineDecisionsOnlyWithLog) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", R"(model: smp
platform: {cpus: 1}
scheduler: {policy: rr, quantum: 100, cs_in: 3, cs_out: 3}
workload:
  nosync: 0
  jobs:
    - {name: J, threads: 2, barriers: 1, compute: 10, wait: {algorithm: fixed-spin, spin: 5}}
)");
  const auto logged =
      box.run({"run", "tiny.yaml", "--out", "logged", "--quiet", "--log=cosched_smp_machine.thresh:debug"});
  ASSERT_EQ(logged.status, 0) << logged.describe();
  EXPECT_TRUE(
      contains(logged.err,
               "[cosched_smp_machine/DEBUG] cycle 19 cpu 0 job J#0 thread 0: spin of 5 cycles failed at "
               "barrier 0, blocks\n"))
      << logged.describe();
  EXPECT_TRUE(contains(logged.err, "cycle 22 cpu 0 job J#0 thread 0: blocks at barrier 0\n"))
      << logged.describe();
  EXPECT_TRUE(
      contains(logged.err, "cycle 36 cpu 0 job J#0 thread 1: arrives last at barrier 0 and completes it\n"))
      << logged.describe();
  const auto quiet = box.run({"run", "tiny.yaml", "--out", "quiet", "--quiet"});
  ASSERT_EQ(quiet.status, 0) << quiet.describe();
  EXPECT_EQ(quiet.err, "") << "nothing on stderr without --log" << quiet.describe();
  EXPECT_EQ(read_text(box.work() / "logged" / "jobs.csv"), read_text(box.work() / "quiet" / "jobs.csv"))
      << "logging changes no result";
}

// --log=cosched_userlevel.thresh:debug: one line per answer of a job's user-level runtime, named as the
// machine's lines. fib(3) under work stealing on 2 CPUs with cs_in = cs_out = 1, leaf 10, spawn 2, switch 3:
// the trace of SmpTaskMachine.Fib3WorkStealingOnTwoCpusStealsAsSoonAsTheDequeFills (tests/unit), where
// thread 1 steals the root at 9 (a spawn: 2 x 3 + 2 = 8 cycles), and r0 at 41, which it suspends (6), and
// both threads are told at 69 that the root has returned.
TEST(Logs, UserLevelAnswersOnlyWithLog) {
  Sandbox box;
  write_text(box.work() / "fib.yaml", R"(model: smp
platform: {cpus: 2}
scheduler: {policy: rr, quantum: 1000000, cs_in: 1, cs_out: 1}
workload:
  jobs:
    - {name: T, threads: 2, barriers: 1, wait: {algorithm: fixed-spin, spin: 1000},
       tasks: {tree: fib(3), leaf: 10, spawn: 2, switch: 3, policy: work-stealing}}
)");
  const auto logged =
      box.run({"run", "fib.yaml", "--out", "logged", "--quiet", "--log=cosched_userlevel.thresh:debug"});
  ASSERT_EQ(logged.status, 0) << logged.describe();
  for (const char* line :
       {"[cosched_userlevel/DEBUG] cycle 1 cpu 1 job T#0 thread 1: phase 0: no task to take, waits for "
        "work\n",
        "cycle 9 cpu 1 job T#0 thread 1: phase 0: steals r from thread 0's deque; it spawns r1 (8 cycles)\n",
        "cycle 17 cpu 0 job T#0 thread 0: phase 0: runs r00, just spawned; a leaf, it runs and returns (16 "
        "cycles)\n",
        "cycle 41 cpu 1 job T#0 thread 1: phase 0: steals r0 from thread 0's deque; its sync fails: it is "
        "suspended until its last child returns (6 cycles)\n",
        "cycle 63 cpu 0 job T#0 thread 0: phase 0: pops r from its deque; its children have returned: it "
        "returns (6 cycles)\n",
        "cycle 69 cpu 1 job T#0 thread 1: phase 0: the root has returned, done\n"}) {
    EXPECT_TRUE(contains(logged.err, line)) << "expected: " << line << logged.describe();
  }
  EXPECT_FALSE(contains(logged.err, "cosched_smp_machine")) << "one category only" << logged.describe();
  const auto quiet = box.run({"run", "fib.yaml", "--out", "quiet", "--quiet"});
  ASSERT_EQ(quiet.status, 0) << quiet.describe();
  EXPECT_EQ(quiet.err, "") << "nothing on stderr without --log" << quiet.describe();
  EXPECT_EQ(read_text(box.work() / "logged" / "jobs.csv"), read_text(box.work() / "quiet" / "jobs.csv"))
      << "logging changes no result";
  // A loop job's answers: the seed's example, static chunks of 2 on 2 threads from cycle 0 (no switch cost):
  // thread 1's first chunk is iterations 2..3, 2000 cycles.
  const auto loop = box.run({"run", (kRoot / "scenarios" / "loops" / "seed-example.yaml").string(), "--out",
                             "loop", "--quiet", "--log=cosched_userlevel.thresh:debug"});
  ASSERT_EQ(loop.status, 0) << loop.describe();
  EXPECT_TRUE(contains(loop.err,
                       "cycle 0 cpu 1 job loop#0 thread 1: phase 0: its static chunk 2..3, 2000 "
                       "cycles\n"))
      << loop.describe();
}
