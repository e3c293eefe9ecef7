// The NUMA decision lines (README, "Why did it do that?"): `cosched run
// --log=cosched_numa_sched.thresh:debug` and `--log=cosched_numa_memory.thresh:debug` print the machine's
// slices, allocations and placements, and its page faults, loads, evictions, transfers and update rounds, in
// clocks; the same lines on every run, the same results as without them, and nothing without --log. The
// expected lines are derived by hand from the rules of docs/models/numa.md on tiny scenarios of numa-64.xml.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

// Two threads on policy1 (the first free run from cluster 0: clusters 0 and 1, thread k on cluster k), every
// clock a read of one of the thread's two local pages (half each; shared_rate 0), one frame per cluster, a
// disk access of 100 clocks. Each thread's first clock misses (no page is anywhere, A18) and goes to the disk
// until clock 100, where the page takes the free frame; from then on every load evicts the other page of the
// same thread, an own local page (the class of a local page of the process running there, 4.4).
std::string evictions_scenario() {
  return "name: tiny-evictions\nmodel: numa\nseed: 1\nend: first-finish\n"
         "platform: {file: " +
         (kRoot / "platforms" / "numa-64.xml").string() +
         ", network: hops}\n"
         "scheduler: {policy: policy1, time_slice: 20000, slices: 3}\n"
         "memory: {replacement: strategy1, pages_per_cluster: 1, disk: 100}\n"
         "workload:\n"
         "  work: 1000\n"
         "  shared_rate: 0\n"
         "  local_table: {entries: [{pages: 2, frequency: 1, type: read}]}\n"
         "  shared_table: {entries: [{pages: 1, frequency: 1, type: read}]}\n"
         "  processes:\n"
         "    - {name: p, threads: 2, local_pages: 2, shared_pages: 1, sync_interval: 1000000}\n";
}

// The same two threads writing one shared page at every clock (shared_rate 1): both miss it at clock 0 and
// load it from the disk at clock 100, thread 0 first (its disk access was scheduled first). Thread 0's copy
// is the only one then, so its write completes at once and it runs on; thread 1's load makes a second copy,
// so its write sends one update to cluster 0 (thesis 4.2.4). At clock 101 thread 0 writes again: one update
// too.
std::string updates_scenario() {
  std::string s = evictions_scenario();
  auto replace = [&](const std::string& from, const std::string& to) {
    s.replace(s.find(from), from.size(), to);
  };
  replace("tiny-evictions", "tiny-updates");
  replace("pages_per_cluster: 1", "pages_per_cluster: 4");
  replace("shared_rate: 0", "shared_rate: 1");
  replace("shared_table: {entries: [{pages: 1, frequency: 1, type: read}]}",
          "shared_table: {entries: [{pages: 1, frequency: 1, type: write}]}");
  return s;
}

// Two processes of two threads on policy0 (free clusters drawn at random) over three slices of 1000 clocks; a
// local page read at 1% of the clocks. A thread placed elsewhere than in its last slice finds its page on its
// old cluster and asks for it: the page migrates on demand (4.2.4).
std::string migrations_scenario() {
  return "name: tiny-migrations\nmodel: numa\nseed: 1\nend: first-finish\n"
         "platform: {file: " +
         (kRoot / "platforms" / "numa-64.xml").string() +
         ", network: hops}\n"
         "scheduler: {policy: policy0, time_slice: 1000, slices: 3}\n"
         "memory: {replacement: strategy1, pages_per_cluster: 4, disk: 100}\n"
         "workload:\n"
         "  work: 100000\n"
         "  shared_rate: 0\n"
         "  local_table: {entries: [{pages: 1, frequency: 0.01, type: read}, {pages: 1, frequency: 0.99, "
         "type: "
         "compute}]}\n"
         "  shared_table: {entries: [{pages: 1, frequency: 1, type: read}]}\n"
         "  processes:\n"
         "    - {name: p, threads: 2, local_pages: 2, shared_pages: 1, sync_interval: 1000000}\n"
         "    - {name: q, threads: 2, local_pages: 2, shared_pages: 1, sync_interval: 1000000}\n";
}

const std::vector<std::string> kBoth{"--log=cosched_numa_sched.thresh:debug",
                                     "--log=cosched_numa_memory.thresh:debug"};

// The decision lines as "category: message", in the order printed.
std::vector<std::string> decisions(const std::string& err) {
  std::vector<std::string> out;
  for (const auto& line : split_lines(err)) {
    const auto open = line.find("[cosched_numa_");
    const auto tag = line.find("/DEBUG] ");
    if (open == std::string::npos || tag == std::string::npos) continue;
    out.push_back(line.substr(open + 1, tag - open - 1) + ": " + line.substr(tag + 8));
  }
  return out;
}

Result run_logged(Sandbox& box, const std::string& scenario, const std::string& out,
                  const std::vector<std::string>& logs) {
  std::vector<std::string> args{"run", scenario, "--quiet", "--out", out};
  args.insert(args.end(), logs.begin(), logs.end());
  return box.run(args);
}

std::vector<std::string> matching(const std::vector<std::string>& lines, const std::string& part) {
  std::vector<std::string> out;
  std::copy_if(lines.begin(), lines.end(), std::back_inserter(out),
               [&](const std::string& l) { return contains(l, part); });
  return out;
}

TEST(NumaLog, SlicesAllocationsPlacementsAndTheFirstFaultsAreAsDerived) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", evictions_scenario());
  const auto r = run_logged(box, "tiny.yaml", "out", kBoth);
  expect_no_crash(r);
  ASSERT_EQ(r.status, 0) << r.describe();
  const auto lines = decisions(r.err);
  const std::vector<std::string> first{
      "cosched_numa_sched: clock 0 slice 0: priority order p#0",
      "cosched_numa_sched: clock 0 slice 0: p#0 gets clusters 0 1 (policy1)",
      "cosched_numa_sched: clock 0 cluster 0: p#0 thread 0 placed (first run)",
      "cosched_numa_sched: clock 0 cluster 1: p#0 thread 1 placed (first run)",
  };
  ASSERT_GE(lines.size(), first.size() + 4) << r.describe();
  EXPECT_EQ(std::vector<std::string>(lines.begin(), lines.begin() + 4), first) << r.describe();
  // Each thread's first clock misses one of its pages (which one is drawn), to the disk until clock 100; at
  // clock 100 each loads into its cluster's free frame 0, evicting nothing.
  for (int k = 0; k < 2; ++k) {
    const std::string thread = "p#0 thread " + std::to_string(k);
    const std::string fault =
        "cosched_numa_memory: clock 0 cluster " + std::to_string(k) + ": " + thread + " misses local page ";
    const auto faults = matching(lines, fault);
    ASSERT_EQ(faults.size(), 1u) << "expected one miss of " << thread << " at clock 0" << r.describe();
    EXPECT_TRUE(contains(faults[0], " of " + thread + ": disk, until clock 100")) << faults[0];
    const std::string page =
        faults[0].substr(faults[0].find("local page "), std::string("local page 0").size());
    const std::string load = "cosched_numa_memory: clock 100 cluster " + std::to_string(k) + ": " + page +
                             " of " + thread + " loaded in frame 0";
    EXPECT_EQ(matching(lines, load).size(), 1u) << "expected '" << load << "'" << r.describe();
    EXPECT_TRUE(matching(lines, "clock 100 cluster " + std::to_string(k) + ": evicts").empty())
        << "expected no eviction into a free frame";
  }
}

TEST(NumaLog, EveryLaterLoadEvictsTheThreadsOtherPageAsOwnLocal) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", evictions_scenario());
  const auto r = run_logged(box, "tiny.yaml", "out", {"--log=cosched_numa_memory.thresh:debug"});
  ASSERT_EQ(r.status, 0) << r.describe();
  const auto lines = decisions(r.err);
  EXPECT_TRUE(matching(lines, "cosched_numa_sched").empty()) << "expected only the category asked for";
  int evictions = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    if (!contains(l, " loaded in frame 0") || contains(l, "clock 100 ")) continue;
    // "cosched_numa_memory: clock C cluster K: local page X of p#0 thread K loaded in frame 0"
    ASSERT_GT(i, 0u);
    const std::string cluster = l.substr(0, l.find(": local page"));
    const std::string page = l.substr(l.find("local page "), std::string("local page 0").size());
    const std::string other = page == "local page 0" ? "local page 1" : "local page 0";
    const std::string thread = l.substr(l.find(" of p#0 thread ") + 4, std::string("p#0 thread 0").size());
    const std::string expected =
        cluster + ": evicts " + other + " of " + thread + " (own_local) for " + page + " of " + thread;
    EXPECT_EQ(lines[i - 1], expected) << "expected the line before '" << l << "' to be the eviction";
    ++evictions;
  }
  EXPECT_GT(evictions, 10) << "expected the threads to go back and forth between their two pages";
}

TEST(NumaLog, TheUpdateProtocolsRoundsAreLogged) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", updates_scenario());
  const auto r = run_logged(box, "tiny.yaml", "out", {"--log=cosched_numa_memory.thresh:debug"});
  ASSERT_EQ(r.status, 0) << r.describe();
  const auto lines = decisions(r.err);
  const std::string m = "cosched_numa_memory: ";
  const std::vector<std::string> expected{
      m + "clock 0 cluster 0: p#0 thread 0 misses shared page 0 of p#0: disk, until clock 100",
      m + "clock 0 cluster 1: p#0 thread 1 misses shared page 0 of p#0: disk, until clock 100",
      m + "clock 100 cluster 0: shared page 0 of p#0 loaded in frame 0",
      m + "clock 100 cluster 1: shared page 0 of p#0 loaded in frame 0",
      m + "clock 100 cluster 1: p#0 thread 1 writes shared page 0 of p#0: updates 1 other copies",
      m + "clock 101 cluster 0: p#0 thread 0 writes shared page 0 of p#0: updates 1 other copies",
  };
  ASSERT_GE(lines.size(), expected.size()) << r.describe();
  EXPECT_EQ(std::vector<std::string>(lines.begin(), lines.begin() + 6), expected) << r.describe();
  // Every round ends with one acknowledged line for its writer, after it began, before its next write.
  for (int k = 0; k < 2; ++k) {
    const std::string thread = "p#0 thread " + std::to_string(k);
    const auto writes = matching(lines, ": " + thread + " writes shared page 0");
    const auto acks =
        matching(lines, ": " + thread + ": every other copy of shared page 0 of p#0 acknowledged");
    ASSERT_GT(writes.size(), 2u) << r.describe();
    EXPECT_TRUE(acks.size() == writes.size() || acks.size() + 1 == writes.size())
        << thread << ": " << writes.size() << " rounds, " << acks.size() << " ends";
    auto clock = [](const std::string& l) { return std::atoll(l.c_str() + l.find("clock ") + 6); };
    for (std::size_t i = 0; i < acks.size(); ++i) {
      EXPECT_GT(clock(acks[i]), clock(writes[i])) << acks[i];
      if (i + 1 < writes.size()) {
        EXPECT_LT(clock(acks[i]), clock(writes[i + 1])) << acks[i];
      }
    }
  }
  // The summary agrees: one update per round (each round updates one other copy).
  const json summary = read_json(box.work() / "out" / "summary.json");
  EXPECT_EQ(
      summary.at("messages").at("update").get<long long>(),
      static_cast<long long>(matching(lines, " writes shared page 0 of p#0: updates 1 other copies").size()))
      << "expected one update message per logged round";
}

TEST(NumaLog, AThreadPlacedElsewhereMigratesItsPageOnDemand) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", migrations_scenario());
  const auto r = run_logged(box, "tiny.yaml", "out", kBoth);
  ASSERT_EQ(r.status, 0) << r.describe();
  const auto lines = decisions(r.err);
  const auto moved = matching(lines, "placed (moved from cluster ");
  ASSERT_FALSE(moved.empty()) << "expected policy0 to move a thread" << r.describe();
  int migrations = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& ask = lines[i];
    if (!contains(ask, " to migrate it (")) continue;
    // "...: clock C cluster TO: p#0 thread K misses local page 0 of p#0 thread K: asks cluster FROM to
    // migrate it (H hops)": FROM sends it to TO next, as a migration over the same hops, and TO loads it.
    const int to = std::atoi(ask.c_str() + ask.find(" cluster ") + 9);
    const int from = std::atoi(ask.c_str() + ask.find("asks cluster ") + 13);
    const std::string hops = ask.substr(ask.rfind('(') + 1, ask.rfind(')') - ask.rfind('(') - 1);
    const std::string page =
        ask.substr(ask.find("misses ") + 7, ask.find(": asks") - ask.find("misses ") - 7);
    const std::string send = "cluster " + std::to_string(from) + ": sends " + page + " to cluster " +
                             std::to_string(to) + " (migration, " + hops + ")";
    const std::string load = "cluster " + std::to_string(to) + ": " + page + " loaded in frame ";
    auto later = [&](const std::string& part) {
      return std::find_if(lines.begin() + i, lines.end(),
                          [&](const std::string& l) { return contains(l, part); });
    };
    const auto sent = later(send);
    ASSERT_NE(sent, lines.end()) << "expected '" << send << "' after '" << ask << "'";
    EXPECT_NE(std::find_if(sent, lines.end(), [&](const std::string& l) { return contains(l, load); }),
              lines.end())
        << "expected '" << load << "' after '" << *sent << "'";
    // The thread asking was placed on TO having run on FROM.
    const std::string thread = page.substr(page.find(" of ") + 4);
    EXPECT_FALSE(matching(lines, "cluster " + std::to_string(to) + ": " + thread +
                                     " placed (moved from cluster " + std::to_string(from) + ")")
                     .empty())
        << ask;
    ++migrations;
  }
  EXPECT_GT(migrations, 0) << r.describe();
  const json summary = read_json(box.work() / "out" / "summary.json");
  EXPECT_EQ(summary.at("page_transfers").at("migrations").get<int>(), migrations)
      << "expected one migration line per migration counted";
}

TEST(NumaLog, TheLinesAreTheSameOnEveryRunAndChangeNoResult) {
  Sandbox box;
  write_text(box.work() / "tiny.yaml", migrations_scenario());
  const auto a = run_logged(box, "tiny.yaml", "a", kBoth);
  const auto b = run_logged(box, "tiny.yaml", "b", kBoth);
  const auto quiet = run_logged(box, "tiny.yaml", "quiet", {});
  ASSERT_EQ(a.status, 0) << a.describe();
  ASSERT_EQ(b.status, 0) << b.describe();
  expect_success(quiet);
  EXPECT_EQ(quiet.err, "") << "expected nothing on stderr without --log";
  EXPECT_EQ(decisions(a.err), decisions(b.err)) << "expected the same lines on every run";
  const json::json_pointer wall("/wall_seconds");
  EXPECT_EQ(without(read_json(box.work() / "a" / "summary.json"), {wall}),
            without(read_json(box.work() / "quiet" / "summary.json"), {wall}))
      << "expected the same results with and without the lines";
  for (const char* file : {"jobs.csv", "network.csv"})
    EXPECT_EQ(read_text(box.work() / "a" / file), read_text(box.work() / "quiet" / file)) << file;
}

}  // namespace
