// End-to-end tests of the NOW model's two engines and two networks (docs/models/now.md sections 2-3):
// the sequential and simgrid engines write identical result files on every logp scenario, the shared
// network delays messages that cross a saturated link, the bad-input cases of --engine and
// platform.network, and a 1024-workstation run in reduced form.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

// Runs ARGS under both engines and checks that the result files are the same: summary.json but for
// wall_seconds and the engine's name, jobs.csv, workstations.csv and timeline.csv (when written) byte for
// byte. Returns the sequential
// engine's summary (null on failure).
json run_both_engines(Sandbox& box, std::vector<std::string> args, const std::string& what,
                      int timeout_seconds = kTimeoutSeconds) {
  auto with = [&](const char* engine) {
    auto a = args;
    a.insert(a.end(), {"--engine", engine});
    return a;
  };
  auto sequential = run_summary(box, with("sequential"), "sequential", timeout_seconds);
  auto simgrid = run_summary(box, with("simgrid"), "simgrid", timeout_seconds);
  if (!sequential.is_object() || !simgrid.is_object()) {
    ADD_FAILURE() << "expected both engines to run " << what;
    return json();
  }
  EXPECT_EQ(sequential["engine"], "sequential") << "expected summary.json to name the engine, " << what;
  EXPECT_EQ(simgrid["engine"], "simgrid") << "expected summary.json to name the engine, " << what;
  const auto varying = {"/wall_seconds"_json_pointer, "/engine"_json_pointer};
  EXPECT_EQ(without(sequential, varying), without(simgrid, varying))
      << "expected identical summaries from the two engines for " << what;
  for (const char* file : {"jobs.csv", "workstations.csv"}) {
    EXPECT_EQ(read_text(box.work() / "sequential" / file), read_text(box.work() / "simgrid" / file))
        << "expected identical " << file << " from the two engines for " << what;
  }
  // With output.timeline on, timeline.csv too (docs/models/now.md "State timelines").
  const bool timeline = fs::exists(box.work() / "sequential" / "timeline.csv");
  EXPECT_EQ(timeline, fs::exists(box.work() / "simgrid" / "timeline.csv")) << what;
  if (timeline) {
    EXPECT_EQ(read_text(box.work() / "sequential" / "timeline.csv"),
              read_text(box.work() / "simgrid" / "timeline.csv"))
        << "expected identical timeline.csv from the two engines for " << what;
  }
  return sequential;
}

// A parameterized test's name from its (scenario, scheduler) pair: their letters and digits.
std::string scenario_scheduler_name(
    const ::testing::TestParamInfo<std::tuple<const char*, const char*>>& info) {
  const std::string name = std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param);
  std::string out;
  for (char ch : name)
    if (std::isalnum(static_cast<unsigned char>(ch))) out += ch;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Every shipped NOW scenario on the logp network, under every scheduler and waiting algorithm, reduced to
// two barriers 2ms apart so that the simgrid engine runs it in about a second; with the timeline on, so that
// both engines are seen to give the same state intervals too.

const char* const kShippedNowScenarios[] = {
    "now-quickstart.yaml",   "brim-miller/short.yaml",          "brim-miller/medium.yaml",
    "brim-miller/long.yaml", "brim-miller/arpaci-dusseau.yaml", "scale/news-32.yaml",
};

const char* const kSchedulers[] = {"{policy: stride}",        "{policy: ts}",  "{policy: gang}",
                                   "{policy: stride-credit}", "{policy: cfs}", "{policy: eevdf}"};

const char* const kWaits[] = {
    "{algorithm: block}",    "{algorithm: spin-fixed, spin: 300us}",
    "{algorithm: pairwise}", "{algorithm: block-immediately}",
    "{algorithm: spin}",     "{algorithm: large-initial-spin, initial_spin: V+L+2o}"};

class NowEnginesOnShippedScenarios : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(NowEnginesOnShippedScenarios, GiveIdenticalResultFilesUnderEveryWaitingAlgorithm) {
  const auto [scenario, scheduler] = GetParam();
  for (const char* wait : kWaits) {
    Sandbox box;
    const std::string what = fmt::format("{} with scheduler={} and wait={}", scenario, scheduler, wait);
    run_both_engines(
        box,
        {(kRoot / "scenarios" / scenario).string(), "--set", std::string("scheduler=") + scheduler, "--set",
         std::string("workload.jobs.0.wait=") + wait, "--set", "workload.jobs.0.barriers=2", "--set",
         "workload.jobs.0.sync_interval=2ms", "--set", "output.timeline=true"},
        what);
    EXPECT_TRUE(fs::exists(box.work() / "sequential" / "timeline.csv")) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, NowEnginesOnShippedScenarios,
                         ::testing::Combine(::testing::ValuesIn(kShippedNowScenarios),
                                            ::testing::ValuesIn(kSchedulers)),
                         scenario_scheduler_name);

// The informed waiting algorithms (the root's replies to arrivals travel between the root and every
// process) and prefetching wake-ups (docs/models/now.md sections 5.2 and 5.3), reduced as above, also with a
// binomial notification tree (the root's replies then take links the tree alone does not).
const char* const kInformedScenarios[] = {"now-quickstart.yaml", "brim-miller/short.yaml"};
const char* const kInformedWaits[] = {"{algorithm: variance-guess}", "{algorithm: variance-with-proc-count}",
                                      "{algorithm: avg-proc-delay}", "{algorithm: pairwise, prefetch: true}",
                                      "{algorithm: avg-proc-delay, prefetch: true, prefetch_lead: 50us}"};

class NowEnginesOnInformedWaits : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(NowEnginesOnInformedWaits, GiveIdenticalResultFiles) {
  const auto [scenario, scheduler] = GetParam();
  for (const char* wait : kInformedWaits) {
    for (const char* barrier : {"{kind: root}", "{kind: root, notify: binomial}"}) {
      // The tree matters to the replies' links only: binomial once, with the root's replies.
      if (std::string(barrier).find("binomial") != std::string::npos &&
          std::string(wait) != "{algorithm: variance-with-proc-count}")
        continue;
      Sandbox box;
      const std::string what =
          fmt::format("{} with scheduler={}, wait={}, barrier={}", scenario, scheduler, wait, barrier);
      const auto summary = run_both_engines(
          box,
          {(kRoot / "scenarios" / scenario).string(), "--set", std::string("scheduler=") + scheduler, "--set",
           std::string("workload.jobs.0.wait=") + wait, "--set",
           std::string("workload.jobs.0.barrier=") + barrier, "--set", "workload.jobs.0.barriers=2", "--set",
           "workload.jobs.0.sync_interval=2ms", "--set", "output.timeline=true"},
          what);
      ASSERT_TRUE(summary.is_object()) << what;
      const bool prefetch = std::string(wait).find("prefetch") != std::string::npos;
      EXPECT_EQ(summary["jobs"][0]["wakeups"]["sent"].get<long>() > 0, prefetch)
          << "expected wake-ups exactly when prefetching, " << what;
      const bool replies = std::string(wait).find("proc-count") != std::string::npos ||
                           std::string(wait).find("avg-proc-delay") != std::string::npos;
      EXPECT_EQ(summary["jobs"][0]["arrival_replies"].get<long>() > 0, replies)
          << "expected the root's replies exactly under the algorithms that need them, " << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Informed, NowEnginesOnInformedWaits,
                         ::testing::Combine(::testing::ValuesIn(kInformedScenarios),
                                            ::testing::ValuesIn(kSchedulers)),
                         scenario_scheduler_name);

// A platform file (platforms/now-32.xml) gives both engines the same routes.
TEST(NowEngines, IdenticalResultFilesOnAPlatformFile) {
  Sandbox box;
  run_both_engines(box, {(kData / "now-platform" / "now-file.yaml").string()},
                   "tests/data/now-platform/now-file.yaml");
}

// No latency, and a byte too short to take a nanosecond: a message arrives in the nanosecond it leaves, so
// the sequential engine's window is a single instant (docs/models/now.md 3.1). Both engines finish and
// agree.
TEST(NowEngines, IdenticalResultFilesWithMessagesArrivingAsTheyLeave) {
  Sandbox box;
  const auto summary =
      run_both_engines(box,
                       {(kRoot / "scenarios" / "scale" / "news-32.yaml").string(), "--set",
                        "platform.latency=0", "--set", "platform.bandwidth=1000Gbps", "--set",
                        "workload.jobs.0.barriers=2", "--set", "workload.jobs.0.sync_interval=2ms"},
                       "scenarios/scale/news-32.yaml with no latency");
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["platform"]["latency_s"], 0.0);
}

// ---------------------------------------------------------------------------------------------------
// shared against logp on a saturated link. 8 workstations, one job of 8 processes, no reads, one root
// barrier after 1ms of computation, processes that spin (never block); L = 10us, o = 2us, W = 100us and a
// bandwidth of 1Mbps: one byte takes 8us to transfer.
//
// logp (each message alone on the network): every process is switched in at 100us and computes to 1.1ms;
// the 7 others send their arrival (o) at 1.102ms, which arrives L + 8us later, at 1.120ms; the root handles
// the 7 (o each) by 1.134ms, sends 7 notices one after another, the last leaving at 1.148ms and arriving at
// 1.166ms; its receiver handles it (o) and passes the barrier at 1.168ms: the makespan.
// shared: the 7 arrivals cross the root's incoming link together and share its bandwidth: 7 bytes at
// 125000 B/s, so they arrive at 1.102 + 0.010 + 0.056 = 1.168ms, 48us later than under logp; everything
// after is at least 48us later too, so the makespan is at least 1.216ms.
const char* const kSaturated = R"(model: now
seed: 1
platform: {workstations: 8, latency: 10us, overhead: 2us, bandwidth: 1Mbps, network: NETWORK}
scheduler: {policy: stride, quantum: 10ms, context_switch: 100us}
workload:
  jobs:
    - {name: barrier, processes: 8, pattern: none, sync_interval: 1ms, imbalance: 1, barriers: 1,
       barrier: {kind: root}, wait: {algorithm: spin}}
)";

std::string saturated(const std::string& network) {
  std::string yaml = kSaturated;
  yaml.replace(yaml.find("NETWORK"), 7, network);
  return yaml;
}

TEST(NowNetworks, SharedDelaysMessagesOnASaturatedLinkLogpDoesNot) {
  Sandbox box;
  write_text(box.work() / "logp.yaml", saturated("logp"));
  write_text(box.work() / "shared.yaml", saturated("shared"));
  const auto logp = run_both_engines(box, {"logp.yaml"}, "the saturated barrier under logp");
  const auto shared = run_summary(box, {"shared.yaml"}, "shared");
  ASSERT_TRUE(logp.is_object() && shared.is_object()) << "expected the runs to succeed";
  EXPECT_EQ(shared["engine"], "simgrid") << "expected the simgrid engine by default under shared";
  EXPECT_NEAR(logp["makespan"].get<double>(), 1.168e-3, 1e-12) << "expected the makespan derived above";
  EXPECT_GE(shared["makespan"].get<double>(), 1.216e-3 - 1e-12)
      << "expected the shared link to delay the barrier arrivals by at least 48us";
  EXPECT_EQ(shared["resolved"]["platform"]["network"], "shared");
  EXPECT_EQ(logp["resolved"]["platform"]["network"], "logp");
}

// ---------------------------------------------------------------------------------------------------
// Keep-alives (docs/models/now.md section 4.6). One job of 8 processes on 8 workstations, no reads, one
// root barrier after 1ms of computation, processes that spin; L = 10us, o = 2us, logp. The root arrives
// at 1.1ms; the 7 others' registrations all arrive at the same instant and are handled in rank order
// (the canonical order: by sending workstation), all before the root sends anything (a process handles
// its inbox first). start 1/2 needs 4 processes: the root and ranks 1..3, so the registrations of ranks
// 3, 4, 5 and 6 may each send a round (4, 5, 6, 7 arrived), rank 7's, which completes the barrier, none;
// a round leaves out the targets that still have a keep-alive queued. targets all: rank 3's round to
// 1..7, then nothing left: 1 round, 7 keep-alives; not-arrived: rank 3's to 4..7, then none: 1 round,
// 4; arrived: rank 3's to 1..3, then rank 4's to 4, 5's to 5, 6's to 6: 4 rounds, 6. Every process
// spins, so all are handled before the notices; messages: 7 registrations + 7 notices + keep-alives.
const char* const kKeepAliveBarrier = R"(model: now
seed: 1
platform: {workstations: 8, latency: 10us, overhead: 2us, bandwidth: 1Gbps}
scheduler: {policy: stride, quantum: 10ms, context_switch: 100us}
workload:
  jobs:
    - {name: barrier, processes: 8, pattern: none, sync_interval: 1ms, imbalance: 1, barriers: 1,
       barrier: {kind: root, keepalive: {start: 1/2, targets: TARGETS}}, wait: {algorithm: spin}}
)";

TEST(NowKeepAlives, RoundsAndTargetsOnAnIdleNetworkAsDerivedByHand) {
  struct Expected {
    std::string targets;
    int rounds, sent;
  };
  for (const auto& [targets, rounds, sent] :
       {Expected{"all", 1, 7}, Expected{"not-arrived", 1, 4}, Expected{"arrived", 4, 6}}) {
    Sandbox box;
    std::string yaml = kKeepAliveBarrier;
    yaml.replace(yaml.find("TARGETS"), 7, targets);
    write_text(box.work() / "ka.yaml", yaml);
    const auto summary = run_both_engines(box, {"ka.yaml"}, "the keep-alive barrier, targets " + targets);
    ASSERT_TRUE(summary.is_object()) << targets;
    const auto& job = summary["jobs"][0];
    EXPECT_EQ(job["keepalives"]["rounds"], rounds) << targets;
    EXPECT_EQ(job["keepalives"]["sent"], sent) << targets;
    EXPECT_EQ(job["keepalives"]["handled"], sent) << targets;
    EXPECT_EQ(summary["messages"], 14 + sent) << targets;
    EXPECT_EQ(summary["resolved"]["workload"]["jobs"][0]["barrier"]["keepalive"]["start"], "1/2");
  }
}

// The engines agree with keep-alives of every kind on the short Brim & Miller configuration, reduced to
// two barriers 2ms apart, under the three local schedulers of B&M 3.4.
TEST(NowKeepAlives, EnginesGiveIdenticalResultFiles) {
  const char* const variants[] = {"{start: 3/4}", "{start: 1/4, targets: not-arrived}",
                                  "{period: 200us, targets: arrived}",
                                  "{start: 1/2, period: 300us, after: 100us}"};
  for (const char* scheduler : {"{policy: stride}", "{policy: ts}", "{policy: stride-credit}"}) {
    for (const char* keepalive : variants) {
      Sandbox box;
      const std::string what =
          fmt::format("short.yaml with scheduler={} and keepalive={}", scheduler, keepalive);
      const auto summary =
          run_both_engines(box,
                           {(kRoot / "scenarios" / "brim-miller" / "short.yaml").string(), "--set",
                            std::string("scheduler=") + scheduler, "--set",
                            std::string("workload.jobs.0.barrier.keepalive=") + keepalive, "--set",
                            "workload.jobs.0.barriers=2", "--set", "workload.jobs.0.sync_interval=2ms",
                            "--set", "output.timeline=true"},
                           what);
      ASSERT_TRUE(summary.is_object()) << what;
      EXPECT_GT(summary["jobs"][0]["keepalives"]["sent"].get<int>(), 0) << "expected keep-alives in " << what;
    }
  }
}

// The engines agree under noise (docs/models/now.md section 8): detours at random phases and daemons of an
// aligned Poisson source on the short Brim & Miller configuration, reduced as above, under four local
// schedulers; the noise's record (its baseline included) is the same too.
TEST(NowNoise, EnginesGiveIdenticalResultFiles) {
  const std::string noise =
      "[{kind: periodic, period: 1ms, duration: 20us, phase: random}, "
      "{kind: poisson, rate: 500, duration: \"50us-150us:1\", phase: aligned, as: daemon, workstations: "
      "0-15}]";
  for (const char* scheduler : {"{policy: stride}", "{policy: ts}", "{policy: gang}", "{policy: eevdf}"}) {
    Sandbox box;
    const std::string what = fmt::format("short.yaml with noise under scheduler={}", scheduler);
    const auto summary =
        run_both_engines(box,
                         {(kRoot / "scenarios" / "brim-miller" / "short.yaml").string(), "--set",
                          std::string("scheduler=") + scheduler, "--set", "noise=" + noise, "--set",
                          "workload.jobs.0.barriers=2", "--set", "workload.jobs.0.sync_interval=2ms", "--set",
                          "output.timeline=true"},
                         what);
    ASSERT_TRUE(summary.is_object()) << what;
    EXPECT_GT(summary["noise"]["daemon_ran_s"].get<double>(), 0) << what;
    EXPECT_GT(summary["noise"]["slowdown"].get<double>(), 1.0) << what;
  }
}

// ---------------------------------------------------------------------------------------------------
// Bad input: one line, exit 2, no result files.

void expect_no_results(Sandbox& box) {
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
}

TEST(NowEngineBadInput, UnknownEngine) {
  Sandbox box;
  const auto r = box.run({"run", (kRoot / "scenarios" / "now-quickstart.yaml").string(), "--engine",
                          "parallel", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "--engine")) << "expected the message to name --engine" << r.describe();
  expect_no_results(box);
}

TEST(NowEngineBadInput, SequentialEngineWithTheSharedNetwork) {
  Sandbox box;
  const auto r = box.run({"run", (kRoot / "scenarios" / "now-quickstart.yaml").string(), "--set",
                          "platform.network=shared", "--engine", "sequential", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "--engine sequential"))
      << "expected the message to name the option" << r.describe();
  EXPECT_TRUE(contains(line, "shared")) << "expected the message to name the network" << r.describe();
  expect_no_results(box);
}

TEST(NowEngineBadInput, EngineWithAnSmpScenario) {
  Sandbox box;
  const auto r = box.run({"run", kQuickstart.string(), "--engine", "simgrid", "--out", "out"});
  const auto line = expect_input_error(r);
  EXPECT_TRUE(contains(line, "--engine: applies to model now only")) << r.describe();
  expect_no_results(box);
}

// ---------------------------------------------------------------------------------------------------
// 1024 workstations (scenarios/scale/news-1024.yaml) in reduced form: phases of 100us of dedicated time
// hold floor(100us / (10us + 2L + 4o)) = 2 reads, so each of the 3 jobs sends per barrier 1024 x 2 x 2
// read messages and 2 x 1023 barrier messages: 3 x 2 x (4096 + 2046) = 36852 messages for 2 barriers.

TEST(NowScale, ReducedRunOf1024Workstations) {
  Sandbox box;
  const auto summary = run_both_engines(
      box,
      {(kRoot / "scenarios" / "scale" / "news-1024.yaml").string(), "--set", "workload.jobs.0.barriers=2",
       "--set", "workload.jobs.0.sync_interval=100us", "--set", "workload.jobs.0.imbalance=1"},
      "scenarios/scale/news-1024.yaml reduced");
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["platform"]["workstations"], 1024);
  EXPECT_EQ(summary["messages"], 36852) << "expected the message count derived above";
  EXPECT_EQ(summary["jobs"].size(), 3u);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// The contention platforms (platforms/fat-tree-256.xml, platforms/torus-512.xml) load, and on a fat
// tree, whose routes differ in latency (5us within a leaf switch, 10us across), both engines agree under
// logp: the sequential engine sorts each workstation's arrivals there, the simgrid engine uses a mailbox per
// pair.

TEST(NowContentionPlatforms, ScenariosValidate) {
  for (const char* scenario : {"contention/fat-tree-256.yaml", "contention/torus-512.yaml"}) {
    Sandbox box;
    const auto r = box.run({"validate", (kRoot / "scenarios" / scenario).string()});
    expect_success(r);
    EXPECT_TRUE(contains(r.out, "valid now scenario")) << r.describe();
  }
}

// tests/data/now-platform/fat-tree-fast.xml is the fat tree with 1 Gbps links.
TEST(NowContentionPlatforms, EnginesAgreeOnAFatTreeUnderLogp) {
  Sandbox box;
  const auto summary = run_both_engines(box, {(kData / "now-platform" / "fat-tree-fast.yaml").string()},
                                        "tests/data/now-platform/fat-tree-fast.yaml");
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["platform"]["workstations"], 256);
}

// The shipped fat tree's 1 Mbps links, where a 1-byte transfer (8us) outlasts o and transfers of routes
// of different latencies (5us, 10us) overlap on the links near a receiver: under FATPIPE alone SimGrid
// slowed the longer route's transfer there (docs/models/now.md 3.3), and the engines differed by
// microseconds on this very run (one job of 32 processes on two leaf switches: 439.095us against
// 439.179us). The simgrid engine bounds each transfer by its route's rate on unbound links: identical.
TEST(NowContentionPlatforms, EnginesAgreeOnTheSlowFatTreeUnderLogp) {
  Sandbox box;
  const std::vector<std::string> reduced = {
      (kRoot / "scenarios" / "contention" / "fat-tree-256.yaml").string(),
      "--set",
      "platform.network=logp",
      "--set",
      "workload.jobs.0.processes=32",
      "--set",
      "workload.jobs.0.copies=1",
      "--set",
      "workload.jobs.0.barriers=1",
      "--set",
      "workload.jobs.0.sync_interval=100us"};
  const auto summary = run_both_engines(box, reduced, "contention/fat-tree-256.yaml under logp, reduced");
  ASSERT_TRUE(summary.is_object());
  // And the simgrid engine without its lookahead (one wake-up per event) gives the same run.
  auto no_lookahead = reduced;
  no_lookahead.insert(no_lookahead.end(), {"--engine", "simgrid", "--no-lookahead"});
  const auto plain = run_summary(box, no_lookahead, "no-lookahead");
  ASSERT_TRUE(plain.is_object());
  EXPECT_EQ(plain["makespan"], summary["makespan"]);
  EXPECT_EQ(plain["messages"], summary["messages"]);
  EXPECT_EQ(read_text(box.work() / "no-lookahead" / "jobs.csv"),
            read_text(box.work() / "sequential" / "jobs.csv"))
      << "expected every job's completion and time breakdown as the sequential engine's";
}

// The torus (platforms/torus-512.xml, routes of 1 to 12 hops of 1us, 10 Mbps) under logp, one NEWS job
// over all 512 workstations: requests of different route lengths reach a workstation in the same
// nanosecond (ranks 241 and 274 at rank 273 at 3.492ms), and SimGrid reported one of them as the
// timeout of the simgrid engine's gathering wait (docs/models/now.md 3.2): the engines then handled them
// in different orders (makespans 9.602835ms against 9.602435ms) until the gathering also took the
// transfers that end at the instant of its timeout.
TEST(NowContentionPlatforms, EnginesAgreeOnTheTorusUnderLogp) {
  Sandbox box;
  const auto summary = run_both_engines(
      box,
      {(kRoot / "scenarios" / "contention" / "torus-512.yaml").string(), "--set", "platform.network=logp",
       "--set", "workload.jobs.0.copies=1", "--set", "workload.jobs.0.barriers=1", "--set",
       "workload.jobs.0.sync_interval=5ms"},
      "contention/torus-512.yaml under logp, reduced", 600);  // about 10 s of CPU for the simgrid engine
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["platform"]["workstations"], 512);
}

TEST(NowContentionPlatforms, SharedRunsOnTheFatTree) {
  Sandbox box;
  const auto summary =
      run_summary(box, {(kRoot / "scenarios" / "contention" / "fat-tree-256.yaml").string(), "--set",
                        "workload.jobs.0.copies=1", "--set", "workload.jobs.0.barriers=1", "--set",
                        "workload.jobs.0.sync_interval=200us"});
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["engine"], "simgrid");
  EXPECT_EQ(summary["resolved"]["platform"]["network"], "shared");
}
