// `cosched host` (docs/host.md): one short run on this machine, whose result files have the SMP run's schema
// with the host's fields, and whose counts follow from the waiting algorithm whatever the timings (each of
// the job's 5 barriers has one waiter: block blocks it, spin makes it spin and succeed, a fixed spin either
// succeeds or blocks); and the refusals, each exit 2 with one located line and no result file.
// The runs need 2 CPUs this process may use; with fewer they are skipped, saying so.

#include <sched.h>

#include <cstdlib>
#include <set>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const fs::path kHostData = kData / "host";
const fs::path kBadHost = kData / "bad-host";
const std::string kPair = (kHostData / "pair.yaml").string();
constexpr int kBarriers = 5;  // pair.yaml's

int allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

#define SKIP_WITHOUT_TWO_CPUS()                                                                  \
  if (allowed_cpus() < 2)                                                                        \
  GTEST_SKIP() << "cosched host's run needs 2 CPUs this process may use; this machine gives it " \
               << allowed_cpus()

// Runs `cosched host pair.yaml ARGS --out out --quiet` and returns its summary (null on failure).
json host_summary(Sandbox& box, std::vector<std::string> args) {
  args.insert(args.begin(), {"host", kPair});
  args.insert(args.end(), {"--out", "out", "--quiet"});
  const auto r = box.run(args);
  expect_success(r);
  EXPECT_EQ(r.out, "") << "--quiet prints nothing" << r.describe();
  if (r.status != 0) return json();
  return read_json(box.work() / "out" / "summary.json");
}

TEST(HostCommand, ShortRunWritesTheSmpSchemaWithTheHostsFields) {
  SKIP_WITHOUT_TWO_CPUS();
  Sandbox box;
  const json s = host_summary(box, {"--repetition", "3"});
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["schema_version"], 1);
  EXPECT_EQ(s["scenario"], "host-pair");
  EXPECT_EQ(s["model"], "smp") << "the SMP model's workload and schema, so that analysis reads both";
  EXPECT_EQ(s["seed"], 7);
  EXPECT_EQ(s["engine"], "host");
  EXPECT_FALSE(s["kernel"].get<std::string>().empty()) << "the kernel release";
  EXPECT_EQ(s["repetition"], 3);
  EXPECT_EQ(s["host_policy"], "SCHED_OTHER") << "eevdf runs under SCHED_OTHER";
  EXPECT_EQ(s["time_unit"], "cycles");
  EXPECT_TRUE(s["events"].is_null()) << "no simulation events on the host";
  EXPECT_EQ(s["platform"]["cpus"], 2);
  EXPECT_EQ(s["platform"]["cycles_per_second"], 1e9) << "platform.cpus: 1 cycle = 1 ns";
  EXPECT_TRUE(s["platform"]["simulated_seconds"].is_null());
  EXPECT_EQ(s["host"]["cpus"].size(), 2u) << "the CPUs used";
  EXPECT_EQ(s["host"]["clock"], "platform.cpus");
  EXPECT_EQ(s["host"]["threads"], 2);
  EXPECT_GT(s["host"]["ns_per_compute_iteration"].get<double>(), 0);
  EXPECT_GT(s["host"]["ns_per_poll"].get<double>(), 0);
  EXPECT_TRUE(s["host"]["rr_timeslice_ms"].is_null()) << "SCHED_OTHER has no RR timeslice";
  EXPECT_EQ(s["resolved"]["scheduler"]["policy"], "eevdf");
  EXPECT_EQ(s["resolved"]["platform"]["cpus"], 2);
  EXPECT_GE(s["wall_seconds"].get<double>(), 0);

  ASSERT_EQ(s["jobs"].size(), 1u);
  const json& job = s["jobs"][0];
  EXPECT_EQ(job["name"], "pair");
  EXPECT_EQ(job["copy"], 0);
  EXPECT_EQ(job["barriers_completed"], kBarriers);
  // One waiter per barrier, each entering its fixed spin: it either succeeds or blocks.
  const auto successful = job["spins"]["successful"].get<int>();
  EXPECT_EQ(job["spins"]["total"], kBarriers);
  EXPECT_EQ(job["blocks"].get<int>(), kBarriers - successful) << "every failed spin blocks";
  EXPECT_EQ(job["transition_point"].is_null(), successful == kBarriers) << "the last failed spin's time";
  EXPECT_GE(job["context_switches"].get<int>(), 2) << "each thread is dispatched at least once";
  // Completion: at least the longer thread's computation, 5 intervals of about 1 ms (cycles at 1 GHz).
  EXPECT_GT(job["completion_time"].get<std::int64_t>(), 2'000'000);
  EXPECT_EQ(s["makespan"], job["completion_time"]);
  EXPECT_EQ(s["spins"], job["spins"]);
  EXPECT_GT(s["host"]["compute_cycles"].get<std::int64_t>(), 2 * 3'000'000) << "2 threads x 5 draws";

  const auto rows = read_csv(box.work() / "out" / "jobs.csv");
  ASSERT_EQ(rows.size(), 2u) << "a header and one job";
  EXPECT_EQ(rows[0][0], "name");
  EXPECT_EQ(rows[1][0], "pair");
  EXPECT_FALSE(fs::exists(box.work() / "results")) << "--out, not results/";
}

TEST(HostCommand, CountsFollowTheWaitingAlgorithm) {
  SKIP_WITHOUT_TWO_CPUS();
  Sandbox box;
  // block: no spin (SSR null, smp.md section 8), the waiter of each barrier blocks; a non-synchronizing
  // thread runs beside them and stops when the job ends.
  json s =
      host_summary(box, {"--set", "workload.jobs.0.wait={algorithm: block}", "--set", "workload.nosync=1"});
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["jobs"][0]["spins"]["total"], 0);
  EXPECT_TRUE(s["jobs"][0]["ssr"].is_null());
  EXPECT_EQ(s["jobs"][0]["blocks"], kBarriers);
  EXPECT_EQ(s["host"]["threads"], 3);
  // spin: every wait spins until the barrier completes.
  s = host_summary(box, {"--set", "workload.jobs.0.wait={algorithm: spin}"});
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["jobs"][0]["spins"]["total"], kBarriers);
  EXPECT_EQ(s["jobs"][0]["spins"]["successful"], kBarriers);
  EXPECT_EQ(s["jobs"][0]["ssr"], 100.0);
  EXPECT_EQ(s["jobs"][0]["blocks"], 0);
  EXPECT_TRUE(s["jobs"][0]["transition_point"].is_null());
  // yield: every wait polls and calls sched_yield() until the barrier completes, and never blocks, beside a
  // busy thread; the job's threads run at nice 5.
  s = host_summary(box, {"--set", "workload.jobs.0.wait={algorithm: yield}", "--set",
                         "workload.jobs.0.nice=5", "--set", "workload.nosync=1"});
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["jobs"][0]["spins"]["total"], kBarriers);
  EXPECT_EQ(s["jobs"][0]["spins"]["successful"], kBarriers);
  EXPECT_EQ(s["jobs"][0]["blocks"], 0);
  EXPECT_EQ(s["resolved"]["workload"]["jobs"][0]["nice"], 5);
  EXPECT_EQ(s["resolved"]["workload"]["jobs"][0]["wait"]["algorithm"], "yield");
}

TEST(HostCommand, DefaultOutputIsPerRepetitionAndSummaryIsPrinted) {
  SKIP_WITHOUT_TWO_CPUS();
  Sandbox box;
  const auto r = box.run({"host", kPair, "--repetition", "2"});
  expect_success(r);
  EXPECT_TRUE(contains(r.out, "cosched: host run of scenario 'host-pair' (model smp, seed 7, repetition 2)"))
      << r.describe();
  EXPECT_TRUE(contains(r.out, "SCHED_OTHER")) << r.describe();
  EXPECT_TRUE(
      fs::is_regular_file(box.work() / "results" / "host" / "host-pair" / "repetition-2" / "summary.json"))
      << r.describe();
}

// A platform file gives the core count and the clock: 2 cores at 2 Gcycles/s. Under rr, since the fair
// policies take platform.cpus only: it needs SCHED_RR, so it is skipped where this process may not use it.
TEST(HostCommand, PlatformFileGivesCoresAndClock) {
  SKIP_WITHOUT_TWO_CPUS();
  Sandbox box;
  const auto r = box.run({"host", kPair, "--set", "platform.cpus=~", "--set", "platform.file=smp-2.xml",
                          "--set", "scheduler.policy=rr", "--out", "out", "--quiet"});
  if (r.status == 2 && contains(r.err, "may not use")) GTEST_SKIP() << "SCHED_RR is not allowed here";
  expect_success(r);
  const json s = read_json(box.work() / "out" / "summary.json");
  EXPECT_EQ(s["host_policy"], "SCHED_RR");
  EXPECT_EQ(s["platform"]["cycles_per_second"], 2e9);
  EXPECT_EQ(s["host"]["clock"], "platform.file");
  EXPECT_FALSE(s["host"]["rr_timeslice_ms"].is_null()) << "the kernel's RR timeslice is recorded";
}

struct BadHost {
  const char* file;   // under tests/data/bad-host/
  const char* where;  // line:column
  const char* key;
  const char* fragment;
};

const BadHost kBadHosts[] = {
    {"too-many-cpus.yaml", "4:9", "platform.cpus", "got \"4096\""},
    {"platform-file-cpus.yaml", "4:9", "platform.file", "its host has 4096 cores"},
    {"now-model.yaml", "2:8", "model", "expected smp"},
    {"numa-model.yaml", "2:8", "model", "expected smp"},
    {"linux24.yaml", "6:11", "scheduler.policy", "the host kernel is not Linux 2.4, got \"linux24\""},
    {"partitioned.yaml", "7:11", "scheduler.policy", "got \"partitioned\""},
    {"competitive-wait.yaml", "12:69", "workload.jobs[0].wait.algorithm", "got \"competitive-fixed\""},
    {"first-finish.yaml", "3:6", "end", "got \"first-finish\""},
    {"loop-job.yaml", "14:13", "workload.jobs[0].loop", "no user-level loop"},
    {"rr-unprivileged.yaml", "7:11", "scheduler.policy", "SCHED_RR, which this process may not use"},
    {"nice-unprivileged.yaml", "12:57", "workload.jobs[0].nice", "it may not set -5"},
};

TEST(HostCommand, RefusalsAreOneLocatedLineAndWriteNothing) {
  // The test hook: SCHED_RR and a negative nice taken as forbidden, as for a user without CAP_SYS_NICE (the
  // tests run as root).
  ::setenv("COSCHED_HOST_ASSUME_UNPRIVILEGED", "1", 1);
  for (const auto& c : kBadHosts) {
    SCOPED_TRACE(c.file);
    Sandbox box;
    const std::string file = (kBadHost / c.file).string();
    const auto r = box.run({"host", file, "--out", "out"});
    const std::string line = expect_input_error(r);
    EXPECT_TRUE(contains(line, fmt::format("{}:{}: {}: ", file, c.where, c.key)))
        << "expected it located at " << c.where << " and " << c.key << r.describe();
    EXPECT_TRUE(contains(line, c.fragment)) << "expected '" << c.fragment << "'" << r.describe();
    EXPECT_FALSE(fs::exists(box.work() / "out")) << "no result directory after bad input";
    EXPECT_FALSE(fs::exists(box.work() / "results"));
  }
  ::unsetenv("COSCHED_HOST_ASSUME_UNPRIVILEGED");
}

TEST(HostCommand, EveryBadHostFileIsListed) {
  std::set<std::string> listed;
  for (const auto& c : kBadHosts) listed.insert(c.file);
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kBadHost))
    if (entry.path().extension() == ".yaml") present.insert(entry.path().filename().string());
  EXPECT_EQ(listed, present) << "expected tests/data/bad-host/ to hold exactly the scenarios of kBadHosts";
}

TEST(HostCommand, BadArgumentsAreOneLine) {
  Sandbox box;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"host"}, {"host", kPair, "--repetition", "0"}, {"host", kPair, "--seed", "x"}}) {
    const auto r = box.run(args);
    expect_input_error(r);
    EXPECT_FALSE(fs::exists(box.work() / "results"));
  }
}

}  // namespace
