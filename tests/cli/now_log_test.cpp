// The NOW decision lines (README, "Why did it do that?"): `cosched run --log=CATEGORY.thresh:debug` prints
// who decided what, when, in simulated time, the same under both engines; without --log, nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

// Two workstations, one job of two processes, one barrier (root): rank 0, the root, arrives and spins
// wait.spin = 5us (spin-fixed). Rank 1's arrival needs at least o + L = 12us to reach it, so the root's
// spin ends with no message in its window and, spin-fixed having one phase, it blocks.
constexpr const char* kTiny = R"(name: tiny
model: now
seed: 1
platform: {workstations: 2, latency: 10us, overhead: 2us, bandwidth: 1Gbps}
scheduler: {policy: stride, quantum: 10ms, context_switch: 100us}
workload:
  jobs:
    - name: pair
      processes: 2
      pattern: news
      comm_interval: 1ms
      sync_interval: 1ms
      imbalance: 1
      barriers: 1
      interval_basis: dedicated
      barrier: {kind: root}
      wait: {algorithm: spin-fixed, spin: 5us}
)";

const std::vector<std::string> kAllDecisions{"--log=cosched_now.thresh:debug",
                                             "--log=cosched_barrier.thresh:debug"};

// The message of each decision line (what follows "[category/DEBUG] "), grouped by workstation in the
// order printed: the engines interleave workstations differently, each workstation's lines must agree.
std::map<int, std::vector<std::string>> decisions(const std::string& err) {
  std::map<int, std::vector<std::string>> out;
  for (const auto& line : split_lines(err)) {
    const auto tag = line.find("/DEBUG] ");
    if (tag == std::string::npos) continue;
    const std::string message = line.substr(tag + 8);
    if (message.rfind("ws ", 0) != 0) continue;
    out[std::atoi(message.c_str() + 3)].push_back(message);
  }
  return out;
}

Result run_logged(Sandbox& box, const std::string& scenario, const std::string& engine,
                  const std::vector<std::string>& logs) {
  std::vector<std::string> args{"run", scenario, "--quiet", "--engine", engine, "--out", engine};
  args.insert(args.end(), logs.begin(), logs.end());
  return box.run(args);
}

TEST(NowLog, ASpinThatEndsWithoutMessagesBlocksAndSaysSo) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kTiny);
  const auto r = run_logged(box, "tiny.yaml", "sequential", {"--log=cosched_now_wait.thresh:debug"});
  expect_no_crash(r);
  ASSERT_EQ(r.status, 0) << r.describe();
  // The root's wait begins at its arrival T and spins until T + 5us; at T + 5us it blocks.
  const auto lines = decisions(r.err)[0];
  const std::string begins = "job pair#0 rank 0: barrier wait begins, spins until t=";
  const auto first =
      std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return contains(l, begins); });
  ASSERT_NE(first, lines.end()) << "expected the root's barrier wait to begin with a spin" << r.describe();
  const std::string until = first->substr(first->find(begins) + begins.size());  // "<time>s"
  const double arrival = std::atof(first->c_str() + first->find("t=") + 2);
  EXPECT_NEAR(std::atof(until.c_str()) - arrival, 5e-6, 1e-12)
      << "expected a spin of wait.spin = 5us: " << *first;
  const std::string expected =
      "ws 0 t=" + until + " job pair#0 rank 0: barrier spin ended, 0 messages in window, blocks";
  EXPECT_NE(std::find(lines.begin(), lines.end(), expected), lines.end())
      << "expected the line '" << expected << "'" << r.describe();
  EXPECT_TRUE(contains(r.err, "[cosched_now_wait/DEBUG]")) << "expected the category in each line";
  EXPECT_FALSE(contains(r.err, "[cosched_now_node/")) << "expected only the category asked for";
}

TEST(NowLog, BothEnginesPrintTheSameDecisionLines) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kTiny);
  const fs::path quickstart = kRoot / "scenarios" / "now-quickstart.yaml";
  for (const std::string& scenario : {std::string("tiny.yaml"), quickstart.string()}) {
    const auto sequential = run_logged(box, scenario, "sequential", kAllDecisions);
    const auto simgrid = run_logged(box, scenario, "simgrid", kAllDecisions);
    ASSERT_EQ(sequential.status, 0) << sequential.describe();
    ASSERT_EQ(simgrid.status, 0) << simgrid.describe();
    const auto a = decisions(sequential.err);
    const auto b = decisions(simgrid.err);
    EXPECT_FALSE(a.empty()) << "expected decision lines from " << scenario;
    EXPECT_EQ(a.size(), b.size()) << "expected lines from the same workstations: " << scenario;
    for (const auto& [ws, lines] : a) {
      ASSERT_TRUE(b.count(ws)) << "expected lines from workstation " << ws << " under simgrid";
      EXPECT_TRUE(lines == b.at(ws)) << "expected workstation " << ws << "'s lines, in order, identical "
                                     << "under both engines (" << lines.size() << " vs " << b.at(ws).size()
                                     << " lines): " << scenario;
    }
  }
}

TEST(NowLog, WithoutLogNothingIsPrintedOnStderr) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kTiny);
  for (const std::string engine : {"sequential", "simgrid"}) {
    const auto r = run_logged(box, "tiny.yaml", engine, {});
    ASSERT_EQ(r.status, 0) << r.describe();
    EXPECT_EQ(r.err, "") << "expected an empty stderr without --log (" << engine << ")" << r.describe();
  }
}

// A log setting SimGrid cannot take (its parser would abort or throw) is refused before anything runs: exit
// 2, one line that names --log, the value and what was expected, and no result directory.
TEST(NowLog, AMalformedLogSettingIsBadInput) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kTiny);
  const std::pair<std::string, std::string> cases[] = {
      {"--log=garbage", "expected CATEGORY.thresh:LEVEL"},
      {"--log=cosched_now_wait:debug", "expected CATEGORY.thresh:LEVEL"},
      {"--log=cosched_now_wait.thrash:debug", "expected CATEGORY.thresh:LEVEL"},
      {"--log=cosched_now_wait.thresh:loud", "expected a priority after 'thresh:'"},
      {"--log=cosched_now.app:nowhere", "expected an appender after 'app:'"},
      {"--log=cosched_now.thres:debug cosched_barrier.verbose:on", "expected CATEGORY.thresh:LEVEL"},
  };
  for (const auto& [setting, expected] : cases) {
    const auto r = run_logged(box, "tiny.yaml", "sequential", {setting});
    const std::string line = expect_input_error(r);
    EXPECT_TRUE(contains(line, "--log: " + setting.substr(6) + ": " + expected))
        << "expected the option, the value and '" << expected << "'" << r.describe();
    EXPECT_FALSE(fs::exists(box.work() / "sequential")) << "expected no results for " << setting;
  }
}

// Every spelling SimGrid's own parser takes is taken (its --help prints CATEGORY_NAME.thres:PRIORITY_LEVEL):
// any prefix of threshold, additivity, appender and fmt, ':' or '=', any case of the priority, several
// settings in one argument, and no_loc. The decision lines come out as with the long spelling.
TEST(NowLog, SimGridsOwnSpellingsAreTaken) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", kTiny);
  const auto reference = run_logged(box, "tiny.yaml", "sequential", {"--log=cosched_now.thresh:debug"});
  ASSERT_EQ(reference.status, 0) << reference.describe();
  for (const std::string setting : {
           "--log=cosched_now.thres:debug",
           "--log=cosched_now.t:DEBUG",
           "--log=cosched_now.threshold=debug",
           "--log=root.thres:info cosched_now.thres:debug",
       }) {
    const auto r = run_logged(box, "tiny.yaml", "sequential", {setting});
    ASSERT_EQ(r.status, 0) << setting << r.describe();
    EXPECT_EQ(decisions(r.err), decisions(reference.err))
        << "expected the same decision lines with " << setting;
  }
  for (const std::string setting : {"--log=no_loc", "--log=cosched_now.app:stderr", "--log=cosched.fmt:%m%n",
                                    "--log=cosched_now.add:off"}) {
    const auto r = run_logged(box, "tiny.yaml", "sequential", {setting});
    EXPECT_EQ(r.status, 0) << setting << r.describe();
  }
}

}  // namespace
