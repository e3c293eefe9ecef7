// Reliability of the command line (issue "no crash, hang, overflow or lost result on any input"): each
// reproducer of that issue as a test. Bad input ends with exit 2 and one located line, never a crash or a
// hang, writes no result files and leaves an earlier run's results as they were; an interrupted run
// exits 130 or 143 with one line and leaves nothing partial behind.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const fs::path kNowQuickstart = kRoot / "scenarios" / "now-quickstart.yaml";
const fs::path kBadPlatforms = kData / "bad-platform";

using Snapshot = std::map<std::string, std::string>;

// Every file below `dir` (relative name -> content), hidden ones included.
Snapshot snapshot(const fs::path& dir) {
  Snapshot out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) out[fs::relative(entry.path(), dir).string()] = read_text(entry.path());
  return out;
}

// An earlier run's results in work/out, and a snapshot of the whole work folder with them.
Snapshot earlier_results(Sandbox& box) {
  const auto summary = run_summary(box, {kQuickstart.string()});
  EXPECT_FALSE(summary.is_null()) << "expected the earlier, good run to succeed";
  return snapshot(box.work());
}

// Nothing in work/ changed: the earlier results are intact and no staging folder or partial file is left.
void expect_intact(Sandbox& box, const Snapshot& before, const Result& r) {
  EXPECT_EQ(snapshot(box.work()), before)
      << "expected the work folder, earlier results included, unchanged" << r.describe();
  for (const auto& entry : fs::directory_iterator(box.work()))
    EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos)
        << "expected no staging folder left behind, found " << entry.path() << r.describe();
}

// Bad input given to `run --out OUT` over earlier results in work/out: exit 2, one line saying `fragment`,
// nothing written, the earlier results intact. Returns the line.
std::string expect_refused_run(Sandbox& box, std::vector<std::string> args, const std::string& fragment,
                               const std::string& out = "out") {
  const auto before = earlier_results(box);
  args.insert(args.begin(), "run");
  args.insert(args.end(), {"--out", out, "--quiet"});
  const auto r = box.run(args);
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, fragment)) << "expected the message to say '" << fragment << "'" << r.describe();
  expect_intact(box, before, r);
  return line;
}

// ---------------------------------------------------------------------------------------------------
// 1. Arithmetic that cannot overflow.

TEST(Overflow, SmpReproducerIsRefusedAtValidation) {
  Sandbox box;
  const std::vector<std::string> sets = {"--set",
                                         "platform.cpus=1",
                                         "--set",
                                         "scheduler={quantum: 1000000000000000, cs_in: 0, cs_out: 0}",
                                         "--set",
                                         "workload={jobs: [{threads: 1, barriers: 10000, compute: "
                                         "1000000000000000, wait: {algorithm: block}}]}"};
  std::vector<std::string> validate = {"validate", kQuickstart.string()};
  validate.insert(validate.end(), sets.begin(), sets.end());
  const auto line = expect_input_error(box.run(validate));
  EXPECT_TRUE(contains(line, "workload.jobs[0].barriers: barriers x compute = 1e+19 cycles")) << line;
  std::vector<std::string> run = {kQuickstart.string()};
  run.insert(run.end(), sets.begin(), sets.end());
  expect_refused_run(box, run, "largest simulated time");
}

TEST(Overflow, NowReproducerIsRefusedAtValidation) {
  Sandbox box;
  expect_refused_run(
      box,
      {kNowQuickstart.string(), "--set", "platform.workstations=2", "--set", "scheduler.quantum=1000000s",
       "--set",
       "workload.jobs.0={processes: 2, pattern: none, sync_interval: 1000000s, barriers: 9300, "
       "wait: {algorithm: block}}"},
      "workload.jobs[0].barriers: barriers x sync_interval = 9.3e+09 s");
}

// Valid at validation (each job alone would end in time), but the load stretches the run past the
// largest simulated time: the run stops there with an error instead of wrapping around.
TEST(Overflow, SmpRunPastTheLargestSimulatedTimeStops) {
  Sandbox box;
  const auto line = expect_refused_run(
      box,
      {kQuickstart.string(), "--set", "platform.cpus=1", "--set",
       "scheduler={quantum: 100000000000000, cs_in: 0, cs_out: 0}", "--set",
       "workload={nosync: 3, jobs: [{threads: 1, barriers: 90, compute: 10000000000000, wait: {algorithm: "
       "block}}]}"},
      "the run passed 1e+15 cycles, the largest simulated time");
  EXPECT_TRUE(contains(line, kQuickstart.string())) << "expected the message to name the scenario: " << line;
}

// An open workload valid at validation (each job alone ends in time) whose queue pushes its last jobs past
// the largest simulated time: both engines stop with the error (the SimGrid engine's stream actors wait on
// interrupts, which are cancelled before the actors are killed).
TEST(Overflow, NowStreamPastTheLargestSimulatedTimeStopsUnderBothEngines) {
  const auto scenario = (fs::path(COSCHED_SOURCE_DIR) / "scenarios" / "streams" / "fcfs-small.yaml").string();
  for (const char* engine : {"sequential", "simgrid"}) {
    SCOPED_TRACE(engine);
    Sandbox box;
    expect_refused_run(box,
                       {scenario, "--engine", engine, "--set", "workload.stream.time_scale=9000", "--set",
                        "workload.stream.classes.0={name: coarse, pattern: none, sync_interval: 100000s, "
                        "wait: {algorithm: block}}",
                        "--set", "scheduler.quantum=100000s"},
                       "the run passed 1e+15 ns, the largest simulated time");
  }
}

// Under buffered coscheduling the strobes set a blocking read's pace: the error advises a shorter strobe.
TEST(Overflow, BufferedStreamPastTheLargestSimulatedTimeAdvisesAShorterStrobe) {
  const auto scenario =
      (fs::path(COSCHED_SOURCE_DIR) / "scenarios" / "streams" / "buffered-small.yaml").string();
  for (const char* engine : {"sequential", "simgrid"}) {
    SCOPED_TRACE(engine);
    Sandbox box;
    const auto line = expect_refused_run(box,
                                         {scenario, "--engine", engine, "--set", "scheduler.quantum=100000s",
                                          "--set", "job_scheduler.strobe=~"},
                                         "the run passed 1e+15 ns, the largest simulated time");
    EXPECT_TRUE(contains(line, "expected a shorter job_scheduler.strobe")) << line;
  }
}

TEST(Overflow, NowRunPastTheLargestSimulatedTimeStops) {
  Sandbox box;
  expect_refused_run(box,
                     {kNowQuickstart.string(), "--set", "platform.workstations=2", "--set",
                      "scheduler.quantum=1000000s", "--set",
                      "workload.jobs.0={processes: 2, copies: 4, pattern: none, sync_interval: 100000s, "
                      "barriers: 9, wait: {algorithm: block}}"},
                     "the run passed 1e+15 ns, the largest simulated time");
}

// ---------------------------------------------------------------------------------------------------
// 2. Platform files: every broken file of tests/data/bad-platform/ is one line of bad input, in validate
// and in run. smp-*.xml are given to the SMP model, now-*.xml to the NOW model.

struct BadPlatform {
  std::string file;
  std::string fragment;  // what the message must say
};

const std::map<std::string, std::string> kPlatformFragments = {
    {"smp-speed-zero.xml", "smp-speed-zero.xml:5: platform.file: host 'smp' has speed 0 flop/s"},
    {"smp-speed-negative.xml", "host 'smp' has speed -1e+09 flop/s; expected a positive finite speed"},
    {"smp-speed-nan.xml", "host 'smp' has speed nan"},
    {"smp-speed-pstate-zero.xml", "host 'smp' has speed 0 flop/s"},
    {"smp-core-zero.xml", "SimGrid aborted: Host smp must have at least one core"},
    {"smp-core-negative.xml", "SimGrid aborted: Host smp must have at least one core"},
    {"smp-core-too-many.xml", "host 'smp' has 2000000 cores; expected 1 to 1000000"},
    {"smp-routing-invalid.xml", "SimGrid aborted: Not a valid model"},
    {"smp-speed-unit.xml", "unknown unit"},
    {"smp-unclosed.xml", "Invalid XML"},
    {"smp-no-host.xml", "exactly one host"},
    {"now-bw-zero.xml", "now-bw-zero.xml:5: platform.file: link 'now_link_0_DOWN' has bandwidth 0 B/s"},
    {"now-bw-negative.xml", "has bandwidth -1.25e+08 B/s; expected a finite bandwidth of at least 1kbps"},
    {"now-bw-nan.xml", "has bandwidth nan"},
    {"now-bw-tiny.xml", "at least 1kbps"},
    {"now-lat-negative.xml", "has latency -5e-06 s; expected a latency from 0 to 1000000s"},
    {"now-lat-minus-one.xml", "has latency -1 s"},
    {"now-lat-huge.xml", "has latency 2e+06 s"},
    {"now-speed-negative.xml", "host 'ws-0' has speed -1e+09"},
    {"now-no-route.xml", "SimGrid crashed (SIGSEGV) while computing the route from ws-0 to ws-1"},
    {"now-link-bw-zero.xml", "now-link-bw-zero.xml:8: platform.file: link 'wire' has bandwidth 0"},
    {"now-link-lat-negative.xml", "now-link-lat-negative.xml:8: platform.file: link 'wire' has latency"},
    {"now-route-unknown-link.xml", "Link not found: nowhere"},
    {"now-cluster-radical.xml", "a is not an int"},
    {"now-not-xml.xml", "Invalid XML"},
    {"now-version-old.xml", "You're using an old XML file"},
};

std::vector<std::string> platform_corpus() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kBadPlatforms))
    if (entry.path().extension() == ".xml") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A scenario in the sandbox that uses `xml` as its platform file.
fs::path scenario_for(Sandbox& box, const std::string& xml) {
  const fs::path path = box.work() / "scenario.yaml";
  const std::string file = (kBadPlatforms / xml).string();
  if (xml.rfind("smp-", 0) == 0) {
    write_text(path, fmt::format("model: smp\nplatform: {{file: {}}}\nscheduler: {{quantum: 100, cs_in: 3, "
                                 "cs_out: 3}}\nworkload: {{nosync: 2, jobs: [{{threads: 2, barriers: 3, "
                                 "compute: 10, wait: {{algorithm: block}}}}]}}\n",
                                 file));
  } else {
    write_text(path, fmt::format("model: now\nplatform: {{file: {}}}\nscheduler: {{policy: stride}}\n"
                                 "workload: {{jobs: [{{processes: 2, barriers: 2, sync_interval: 1ms, wait: "
                                 "{{algorithm: block}}}}]}}\n",
                                 file));
  }
  return path;
}

class BrokenPlatform : public ::testing::TestWithParam<std::string> {};

TEST_P(BrokenPlatform, ValidateAndRunGiveOneLine) {
  const std::string xml = GetParam();
  Sandbox box;
  const auto scenario = scenario_for(box, xml).string();
  const auto validate = box.run({"validate", scenario});
  const auto line = expect_input_error(validate);
  EXPECT_TRUE(contains(line, xml + ":") && contains(line, "platform.file: "))
      << "expected the message to name the file and platform.file" << validate.describe();
  ASSERT_TRUE(kPlatformFragments.count(xml)) << "expected " << xml << " to have its expected message listed";
  EXPECT_TRUE(contains(line, kPlatformFragments.at(xml)))
      << "expected the message to say '" << kPlatformFragments.at(xml) << "'" << validate.describe();
  const auto run_line = expect_refused_run(box, {scenario}, kPlatformFragments.at(xml));
  EXPECT_EQ(run_line, line) << "expected run to refuse the platform as validate does";
}

INSTANTIATE_TEST_SUITE_P(Corpus, BrokenPlatform, ::testing::ValuesIn(platform_corpus()),
                         [](const auto& info) {
                           std::string name = info.param.substr(0, info.param.size() - 4);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(BrokenPlatformCorpus, EveryFileHasItsMessageAndThereAreEnough) {
  const auto files = platform_corpus();
  EXPECT_GE(files.size(), 25u) << "expected a corpus of at least 25 broken platform files";
  for (const auto& [file, fragment] : kPlatformFragments)
    EXPECT_TRUE(std::find(files.begin(), files.end(), file) != files.end())
        << "expected " << file << " to exist in " << kBadPlatforms;
}

// Partitions that need more processors than a platform file's host has: only the file can tell, and it is
// still bad input, found by validate as by run.
TEST(BrokenPlatformCorpus, PartitionsLargerThanTheFilesHost) {
  Sandbox box;
  const std::string scenario = (box.work() / "partitioned.yaml").string();
  write_text(scenario, "model: smp\nplatform: {file: " + (kRoot / "platforms" / "smp-32.xml").string() +
                           "}\nscheduler: {policy: partitioned, quantum: 1000, cs_in: 5, cs_out: 5, period: "
                           "8000, partition: \"7:5,2-6:95\"}\nworkload:\n  jobs: [{threads: 4, copies: 5, "
                           "barriers: 3, compute: 100, wait: {algorithm: block}}]\n");
  const std::string fragment =
      "smp-32.xml: platform.file: its host has 32 cores, but scheduler.partition gives 5 "
      "jobs partitions of up to 7 processors; expected at least 35 cores";
  const auto line = expect_input_error(box.run({"validate", scenario}));
  EXPECT_TRUE(contains(line, fragment)) << line;
  expect_refused_run(box, {scenario}, fragment);
}

// ---------------------------------------------------------------------------------------------------
// 3. Results are never destroyed; 4. output cannot escape.

TEST(Results, RefusedNameLeavesEarlierResults) {
  Sandbox box;
  expect_refused_run(box, {kQuickstart.string(), "--set", "name=bad\xFFname"}, "name: expected a name");
}

TEST(Results, OverLongNameIsRefusedBeforeTheRun) {
  Sandbox box;
  expect_refused_run(box, {kQuickstart.string(), "--set", "name=" + std::string(300, 'n')}, "1 to 200 bytes");
}

TEST(Results, NameCannotLeaveTheResultsFolder) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--set", "name=../../escaped", "--quiet"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "name: expected a name")) << r.describe();
  EXPECT_TRUE(fs::is_empty(box.work())) << "expected nothing written anywhere" << r.describe();
  EXPECT_FALSE(fs::exists(box.work().parent_path().parent_path() / "escaped")) << r.describe();
}

TEST(Results, JobNameThatIsNotUtf8IsWrittenWithAReplacementCharacter) {
  Sandbox box;
  const auto summary = run_summary(box, {kQuickstart.string(), "--set", "workload.jobs.0.name=job\xFF"});
  ASSERT_FALSE(summary.is_null());
  EXPECT_EQ(summary["jobs"][0]["name"], "job\xEF\xBF\xBD") << "expected U+FFFD for the invalid byte";
}

TEST(Results, OutBelowAFileIsRefusedBeforeTheRun) {
  Sandbox box;
  write_text(box.work() / "plain", "a file");
  const auto line =
      expect_refused_run(box, {kQuickstart.string()}, "--out plain/sub: cannot create", "plain/sub");
  EXPECT_TRUE(contains(line, "expected a directory where results can be written")) << line;
}

TEST(Results, OutInProcIsRefusedBeforeTheRun) {
  Sandbox box;
  expect_refused_run(box, {kQuickstart.string()}, "--out /proc/cosched-results: cannot write in /proc",
                     "/proc/cosched-results");
}

TEST(Results, OutIsTheCurrentDirectory) {
  Sandbox box;
  write_text(box.work() / "notes.txt", "mine");
  const auto r = box.run({"run", kQuickstart.string(), "--out", ".", "--quiet"});
  expect_success(r);
  EXPECT_TRUE(fs::exists(box.work() / "summary.json")) << r.describe();
  EXPECT_EQ(read_text(box.work() / "notes.txt"), "mine") << "expected other files in --out kept";
}

TEST(Results, AnSmpRunReplacingANowRunRemovesItsWorkstationsFile) {
  Sandbox box;
  run_summary(box, {kNowQuickstart.string()});
  ASSERT_TRUE(fs::exists(box.work() / "out" / "workstations.csv"));
  ASSERT_TRUE(fs::exists(box.work() / "out" / "barriers.csv"));
  run_summary(box, {kQuickstart.string()});
  for (const char* file : {"workstations.csv", "barriers.csv"})
    EXPECT_FALSE(fs::exists(box.work() / "out" / file))
        << "expected no result file of the earlier run (" << file << ") to survive among the new ones";
  EXPECT_TRUE(fs::exists(box.work() / "out" / "summary.json"));
}

// ---------------------------------------------------------------------------------------------------
// 5. Silently accepted input; 6. resource exhaustion.

TEST(Input, DuplicateKeyIsRefusedWithBothLocations) {
  Sandbox box;
  write_text(
      box.work() / "twice.yaml",
      "model: smp\nplatform: {cpus: 2}\nscheduler:\n  quantum: 100\n  quantum: 200\n  cs_in: 3\n"
      "  cs_out: 3\nworkload: {jobs: [{threads: 2, barriers: 1, compute: 5, wait: {algorithm: block}}]}\n");
  const auto line =
      expect_refused_run(box, {"twice.yaml"}, "twice.yaml:5:3: scheduler.quantum: key given twice");
  EXPECT_TRUE(contains(line, "(first at line 4, column 3)")) << line;
}

TEST(Input, DuplicateModelIsRefused) {
  Sandbox box;
  write_text(box.work() / "models.yaml", "model: now\nmodel: smp\n");
  expect_refused_run(box, {"models.yaml"}, "models.yaml:2:1: model: key given twice");
}

TEST(Input, DuplicateKeyInASetValueIsRefused) {
  Sandbox box;
  expect_refused_run(box, {kQuickstart.string(), "--set", "scheduler={quantum: 1, quantum: 2}"},
                     "scheduler.quantum: key given twice");
}

TEST(Input, HugeSetIndexIsRangeChecked) {
  Sandbox box;
  expect_refused_run(box, {kQuickstart.string(), "--set", "workload.jobs.99999999999999999999.threads=1"},
                     "there is no item 99999999999999999999");
}

TEST(Input, MillionsOfSmpThreadsAreRefusedBeforeAllocating) {
  Sandbox box;
  expect_refused_run(box,
                     {kQuickstart.string(), "--set",
                      "workload.jobs.0={threads: 1000000, copies: 1000000, barriers: 1, compute: 10, wait: "
                      "{algorithm: block}}"},
                     "workload.jobs[0].copies: 1000000000045 threads in all");
}

TEST(Input, MillionsOfNowProcessesAreRefusedBeforeAllocating) {
  Sandbox box;
  expect_refused_run(box,
                     {kNowQuickstart.string(), "--set", "platform.workstations=100000", "--set",
                      "workload.jobs.0={processes: 100000, copies: 1000000, barriers: 1, wait: {algorithm: "
                      "block}}"},
                     "processes in all");
}

TEST(Input, MemoryEstimateIsRefusedBeforeAllocating) {
  Sandbox box;
  expect_refused_run(box,
                     {kNowQuickstart.string(), "--set", "platform.workstations=100000", "--set",
                      "workload.jobs.0={processes: 100000, pattern: random, barriers: 1, wait: {algorithm: "
                      "block}}"},
                     "GiB of memory, more than the limit of 8 GiB");
}

TEST(Input, DeviceIsNotAScenario) {
  Sandbox box;
  expect_refused_run(box, {"/dev/zero"}, "/dev/zero: cannot read scenario: not a regular file");
}

TEST(Input, FifoIsNotAScenarioAndDoesNotBlock) {
  Sandbox box;
  ASSERT_EQ(::mkfifo((box.work() / "pipe.yaml").c_str(), 0600), 0);
  expect_refused_run(box, {"pipe.yaml"}, "pipe.yaml: cannot read scenario: not a regular file");
}

TEST(Input, OversizedFileIsRefused) {
  Sandbox box;
  write_text(box.work() / "big.yaml", "model: smp\n# " + std::string(2 << 20, 'x') + "\n");
  expect_refused_run(box, {"big.yaml"}, "expected a YAML file of at most 1048576 bytes");
}

TEST(Input, TinyBandwidthIsRefused) {
  Sandbox box;
  expect_refused_run(box, {kNowQuickstart.string(), "--set", "platform.bandwidth=1e-9bps"},
                     "platform.bandwidth: expected a bandwidth with a unit");
}

TEST(Input, DeepNestingIsRefusedWithALocation) {
  Sandbox box;
  write_text(box.work() / "deep.yaml",
             "model: smp\nplatform: " + std::string(100000, '[') + std::string(100000, ']') + "\n");
  expect_refused_run(box, {"deep.yaml"}, "deep.yaml:2:");
}

TEST(Input, NestingPastTheLimitIsRefusedWithItsKeyPath) {
  Sandbox box;
  std::string nested = "1";
  for (int i = 0; i < 40; ++i) nested = "{a: " + nested + "}";
  write_text(box.work() / "nested.yaml", "model: smp\nplatform: " + nested + "\n");
  expect_refused_run(box, {"nested.yaml"}, "platform.a.a.a");
}

// ---------------------------------------------------------------------------------------------------
// Interruption: SIGINT or SIGTERM in the middle of a long run over earlier results.

// Starts `cosched run SCENARIO --out out --quiet` in the sandbox, waits until its staging folder exists
// (the run has passed every check and is simulating), sends `signal` and returns the exit status and
// stderr.
std::pair<int, std::string> interrupt_run(Sandbox& box, const fs::path& scenario, int signal) {
  const fs::path err = box.work().parent_path() / "interrupted-stderr.txt";
  const pid_t child = ::fork();
  if (child == 0) {
    if (::chdir(box.work().c_str()) != 0) ::_exit(99);
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    ::execl(kBinary.c_str(), kBinary.c_str(), "run", scenario.c_str(), "--out", "out", "--quiet", nullptr);
    ::_exit(98);
  }
  bool staged = false;
  for (int i = 0; i < 3000 && !staged; ++i) {
    for (const auto& entry : fs::directory_iterator(box.work()))
      if (entry.path().filename().string().rfind(".out.partial-", 0) == 0) staged = true;
    if (!staged) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(staged) << "expected the run to start simulating within 30 s";
  ::kill(child, signal);
  int status = 0;
  for (int i = 0; i < 1000; ++i) {
    if (::waitpid(child, &status, WNOHANG) == child) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (i == 999) {
      ADD_FAILURE() << "expected the run to stop within 10 s of the signal";
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
    }
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_text(err)};
}

// About a minute of simulation on this machine, far more than the test waits.
fs::path long_scenario(Sandbox& box) {
  const fs::path path = box.work().parent_path() / "long.yaml";
  write_text(path,
             "name: long\nmodel: smp\nplatform: {cpus: 32}\nscheduler: {quantum: 100, cs_in: 3, cs_out: 3}\n"
             "workload:\n  nosync: 45\n  jobs: [{threads: 11, copies: 20, barriers: 1000000, compute: 1, "
             "wait: {algorithm: fixed-spin, spin: 6}}]\n");
  return path;
}

TEST(Interrupt, SigintKeepsEarlierResultsAndExits130) {
  Sandbox box;
  const auto before = earlier_results(box);
  const auto [status, err] = interrupt_run(box, long_scenario(box), SIGINT);
  EXPECT_EQ(status, 130) << "expected exit code 130 after SIGINT; stderr: " << err;
  EXPECT_EQ(err, "cosched: interrupted by SIGINT; no results written\n")
      << "expected one line, no actor dump";
  expect_intact(box, before, Result{status, "", err, "run long.yaml, interrupted"});
}

TEST(Interrupt, SigtermKeepsEarlierResultsAndExits143) {
  Sandbox box;
  const auto before = earlier_results(box);
  const auto [status, err] = interrupt_run(box, long_scenario(box), SIGTERM);
  EXPECT_EQ(status, 143) << "expected exit code 143 after SIGTERM; stderr: " << err;
  EXPECT_EQ(err, "cosched: terminated by SIGTERM; no results written\n") << "expected one line";
  expect_intact(box, before, Result{status, "", err, "run long.yaml, terminated"});
}

}  // namespace
