// End-to-end tests of the NUMA model's scenario section (model: numa, docs/scenario-format.md section 10)
// through the command line: the shipped process sets of Nobukuni 1997 (scenarios/nobukuni/) validate, --set
// reaches the numa keys, and every file of the bad-input corpus tests/data/bad-numa/ (a misspelt or
// out-of-range value of every key, empty or mismatched frequency tables, malformed sync ranges, the limits)
// exits 2 with one line naming its file:line:column, its key and what was expected, and writes no results.
// All of it is decided before the platform file is loaded or the machine runs.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const fs::path kNobukuni = kRoot / "scenarios" / "nobukuni";
const fs::path kBadNuma = kData / "bad-numa";
// Every numa key given once (the fuzz corpus's seed of the section).
const fs::path kEveryKey = kRoot / "tests" / "fuzz" / "corpus" / "numa-every-key.yaml";

Result validate(Sandbox& box, const fs::path& file, const std::vector<std::string>& sets = {}) {
  std::vector<std::string> args{"validate", file.string()};
  for (const auto& set : sets) args.insert(args.end(), {"--set", set});
  return box.run(args);
}

void expect_valid(const Result& r, const fs::path& file, const std::string& name) {
  expect_success(r);
  EXPECT_EQ(r.out, fmt::format("{}: valid numa scenario '{}'\n", file.string(), name))
      << "expected validate to accept the scenario" << r.describe();
}

// ---------------------------------------------------------------------------------------------------
// a. The process sets of tables 5.2 and 5.3, and a scenario giving every key.

TEST(NumaScenarios, EachProcessSetValidates) {
  Sandbox box;
  for (const char* set : {"a", "k", "l", "m"}) {
    const fs::path file = kNobukuni / fmt::format("set-{}.yaml", set);
    expect_valid(validate(box, file), file, fmt::format("nobukuni-set-{}", set));
  }
}

TEST(NumaScenarios, EveryKeyGivenValidates) {
  Sandbox box;
  expect_valid(validate(box, kEveryKey), kEveryKey, "numa-every-key");
}

// ---------------------------------------------------------------------------------------------------
// b. --set reaches the numa keys: each accepted value validates, and an override replaces the file's value
// both ways (a bad value in the file is fixed by one, a good one is broken by one and the error names it).

TEST(NumaOverrides, AcceptEveryKeysValues) {
  Sandbox box;
  const fs::path file = kNobukuni / "set-a.yaml";
  for (const char* set :
       {"scheduler.policy=policy0",
        "scheduler.policy=policy1",
        "scheduler.policy=policy2",
        "scheduler.policy=policy3",
        "memory.replacement=strategy0",
        "platform.network=shared",
        "platform.file=platforms/numa-w4444.xml",
        "platform.clock_hz=500MHz",
        "platform.clock_hz=2e9",
        "platform.page_transfer_base=100",
        "platform.reference_bandwidth=1GBps",
        "platform.update_bytes=128",
        "platform.communication_bytes=8",
        "platform.buffers=false",
        "scheduler.time_slice=50000",
        "scheduler.slices=20",
        "scheduler.aging_coefficient=0.5",
        "memory.pages_per_cluster=800",
        "memory.page_size=8192",
        "memory.disk=0",
        "memory.local_access=2",
        "memory.consistency=release",
        "workload.work=1000000",
        "workload.barrier=all",
        "workload.barrier=pair",
        "workload.shared_rate=0.3",
        "workload.processes.0.sync_interval=1500",
        "workload.processes.1.sync_interval=10-20",
        "workload.processes.0.copies=3",
        "workload.local_table={entries: [{pages: 4, frequency: 3, type: write}, {pages: 30, "
        "frequency: 1, type: read}]}",
        "workload.shared_table={hot_pages: 1, hot_refs: 1, compute: 0, read: 1, write: 0}",
        "end=all-jobs",
        "output.timeline=true"}) {
    SCOPED_TRACE(set);
    expect_valid(validate(box, file, {set}), file, "nobukuni-set-a");
  }
}

TEST(NumaOverrides, ReplaceTheFilesValue) {
  Sandbox box;
  const struct {
    const char* file;  // under tests/data/bad-numa/
    const char* set;   // the override that makes it valid
  } fixes[] = {{"policy-unknown.yaml", "scheduler.policy=policy2"},
               {"replacement-unknown.yaml", "memory.replacement=strategy0"},
               {"network-unknown.yaml", "platform.network=hops"},
               {"sync-interval-reversed.yaml", "workload.processes.0.sync_interval=1000-2000"},
               {"entries-empty.yaml",
                "workload.processes.0.shared_table.entries=[{pages: 843, frequency: 1, type: read}]"}};
  for (const auto& fix : fixes) {
    SCOPED_TRACE(fix.set);
    const fs::path file = kBadNuma / fix.file;
    expect_valid(validate(box, file, {fix.set}), file, fs::path(fix.file).stem().string());
  }
  const fs::path file = kNobukuni / "set-a.yaml";
  const std::string line = expect_input_error(validate(box, file, {"scheduler.policy=policy9"}));
  // The list of names is the registry's (sched/numa/allocation_registry.cpp; its unit test checks the order).
  EXPECT_TRUE(contains(line,
                       "--set scheduler.policy=policy9: scheduler.policy: expected an allocation policy: "
                       "policy0, policy1, policy2, policy3, policy4"))
      << line;
  EXPECT_TRUE(contains(line, ", got \"policy9\"")) << line;
  const std::string threads = expect_input_error(validate(box, file, {"workload.processes.3.threads=0"}));
  EXPECT_TRUE(
      contains(threads, "--set workload.processes.3.threads=0: workload.processes[3].threads: expected"))
      << threads;
}

// ---------------------------------------------------------------------------------------------------
// c. The bad-input corpus.

struct BadNumaCase {
  const char* file;      // under tests/data/bad-numa/
  const char* where;     // "LINE:COLUMN" of the offending key or value
  const char* key;       // the key path in display form
  const char* fragment;  // a part of the message that says what is wrong
};

const BadNumaCase kBadNumaCases[] = {
    {"platform-file-missing-key.yaml", "4:3", "platform", "missing required key 'file'"},
    {"network-unknown.yaml", "5:12", "platform.network", "expected one of hops, shared, got \"foo\""},
    {"network-misspelt.yaml", "5:3", "platform.netwrk", "unknown key"},
    {"clock-hz-bad-unit.yaml", "6:13", "platform.clock_hz", "got \"1GHZ\""},
    {"clock-hz-too-slow.yaml", "6:13", "platform.clock_hz", "from 1000 to 1e+12"},
    {"clock-hz-misspelt.yaml", "6:3", "platform.clock", "unknown key"},
    {"page-transfer-base-zero.yaml", "7:23", "platform.page_transfer_base",
     "from 1 to 1000000000, got \"0\""},
    {"page-transfer-base-misspelt.yaml", "7:3", "platform.page_transfer_cost", "unknown key"},
    {"reference-bandwidth-no-unit.yaml", "8:24", "platform.reference_bandwidth", "got \"100\""},
    {"reference-bandwidth-misspelt.yaml", "8:3", "platform.bandwidth", "unknown key"},
    {"update-bytes-zero.yaml", "9:17", "platform.update_bytes", "got \"0\""},
    {"update-bytes-misspelt.yaml", "9:3", "platform.update_size", "unknown key"},
    {"communication-bytes-negative.yaml", "10:24", "platform.communication_bytes", "got \"-16\""},
    {"communication-bytes-misspelt.yaml", "10:3", "platform.comm_bytes", "unknown key"},
    {"buffers-not-boolean.yaml", "11:12", "platform.buffers", "expected true or false, got \"maybe\""},
    {"buffers-misspelt.yaml", "11:3", "platform.buffer", "unknown key"},
    {"policy-unknown.yaml", "13:11", "scheduler.policy", "expected an allocation policy: policy0, policy1"},
    {"policy-misspelt.yaml", "13:3", "scheduler.polcy", "unknown key"},
    {"time-slice-zero.yaml", "14:15", "scheduler.time_slice", "got \"0\""},
    {"time-slice-misspelt.yaml", "14:3", "scheduler.timeslice", "unknown key"},
    {"slices-over-limit.yaml", "15:11", "scheduler.slices", "from 1 to 100000, got \"100001\""},
    {"slices-misspelt.yaml", "15:3", "scheduler.slice", "unknown key"},
    {"slices-too-long.yaml", "15:11", "scheduler.slices", "more than the largest simulated time"},
    {"aging-coefficient-negative.yaml", "16:22", "scheduler.aging_coefficient", "got \"-1\""},
    {"aging-coefficient-misspelt.yaml", "16:3", "scheduler.aging", "unknown key"},
    {"replacement-unknown.yaml", "19:16", "memory.replacement", "strategy1, got \"strategy2\""},
    {"replacement-misspelt.yaml", "19:3", "memory.replacment", "unknown key"},
    {"pages-per-cluster-zero.yaml", "20:22", "memory.pages_per_cluster", "got \"0\""},
    {"pages-per-cluster-misspelt.yaml", "20:3", "memory.pages", "unknown key"},
    {"pages-per-cluster-memory.yaml", "20:22", "memory.pages_per_cluster", "GiB of memory"},
    {"page-size-over-limit.yaml", "21:14", "memory.page_size", "got \"2147483648\""},
    {"page-size-misspelt.yaml", "21:3", "memory.pagesize", "unknown key"},
    {"cluster-memory-too-large.yaml", "21:14", "memory.page_size", "bytes of memory per cluster"},
    {"disk-negative.yaml", "22:9", "memory.disk", "got \"-1\""},
    {"disk-misspelt.yaml", "22:3", "memory.disk_cost", "unknown key"},
    {"local-access-zero.yaml", "23:17", "memory.local_access", "got \"0\""},
    {"local-access-misspelt.yaml", "23:3", "memory.local", "unknown key"},
    {"consistency-unknown.yaml", "24:16", "memory.consistency",
     "expected one of sequential, release, got \"weak\""},
    {"consistency-misspelt.yaml", "24:3", "memory.consistancy", "unknown key"},
    {"write-miss-unknown.yaml", "25:15", "memory.write_miss", "expected one of remote, fetch, got \"copy\""},
    {"copy-source-unknown.yaml", "25:16", "memory.copy_source",
     "expected one of nearest, oldest, got \"home\""},
    {"types-unknown.yaml", "36:12", "workload.shared_table.types",
     "expected one of per-page, per-reference, got \"per-entry\""},
    {"work-zero.yaml", "26:9", "workload.work", "got \"0\""},
    {"work-misspelt.yaml", "26:3", "workload.wrk", "unknown key"},
    {"barrier-unknown.yaml", "27:12", "workload.barrier",
     "expected one of random-subset, all, pair, got \"some\""},
    {"barrier-misspelt.yaml", "27:3", "workload.barriers", "unknown key"},
    {"shared-rate-over-one.yaml", "28:16", "workload.shared_rate", "from 0 to 1, got \"1.5\""},
    {"shared-rate-misspelt.yaml", "28:3", "workload.share_rate", "unknown key"},
    {"local-table-misspelt.yaml", "29:3", "workload.local_tables", "unknown key"},
    {"mix-not-one.yaml", "29:81", "workload.local_table.write",
     "compute + read + write = 1.1; expected the access mix to add up to 1"},
    {"mix-partial.yaml", "29:16", "workload.local_table", "missing key 'write'"},
    {"hot-pages-zero.yaml", "31:16", "workload.shared_table.hot_pages", "in (0, 1], got \"0\""},
    {"hot-pages-misspelt.yaml", "31:5", "workload.shared_table.hot_page", "unknown key"},
    {"hot-refs-over-one.yaml", "32:15", "workload.shared_table.hot_refs", "from 0 to 1, got \"2\""},
    {"compute-misspelt.yaml", "33:5", "workload.shared_table.computation", "unknown key"},
    {"read-negative.yaml", "34:11", "workload.shared_table.read", "got \"-0.35\""},
    {"write-misspelt.yaml", "35:5", "workload.shared_table.writes", "unknown key"},
    {"processes-empty.yaml", "36:14", "workload.processes", "at least one process"},
    {"processes-misspelt.yaml", "26:3", "workload", "missing required key 'processes'"},
    {"name-empty.yaml", "37:13", "workload.processes[0].name", "non-empty string"},
    {"threads-zero.yaml", "38:16", "workload.processes[0].threads", "got \"0\""},
    {"threads-misspelt.yaml", "37:7", "workload.processes[0]", "missing required key 'threads'"},
    {"copies-zero.yaml", "39:15", "workload.processes[0].copies", "got \"0\""},
    {"copies-misspelt.yaml", "39:7", "workload.processes[0].copy", "unknown key"},
    {"copies-over-thread-limit.yaml", "39:15", "workload.processes[0].copies", "threads in all"},
    {"local-pages-zero.yaml", "40:20", "workload.processes[0].local_pages", "got \"0\""},
    {"local-pages-misspelt.yaml", "37:7", "workload.processes[0]", "missing required key 'local_pages'"},
    {"shared-pages-negative.yaml", "41:21", "workload.processes[0].shared_pages", "got \"-1\""},
    {"shared-pages-over-limit.yaml", "41:21", "workload.processes[0].shared_pages",
     "from 1 to 10000000, got \"10000001\""},
    {"process-shared-rate-negative.yaml", "42:20", "workload.processes[0].shared_rate", "got \"-0.1\""},
    {"sync-interval-reversed.yaml", "43:22", "workload.processes[0].sync_interval",
     "range MIN-MAX such as 1000-2000"},
    {"sync-interval-malformed.yaml", "43:22", "workload.processes[0].sync_interval", "got \"1000-\""},
    {"sync-interval-zero.yaml", "43:22", "workload.processes[0].sync_interval", "got \"0\""},
    {"sync-interval-misspelt.yaml", "43:7", "workload.processes[0].sync", "unknown key"},
    {"process-table-misspelt.yaml", "44:38", "workload.processes[0].local_table.hot_ref", "unknown key"},
    {"entries-empty.yaml", "46:18", "workload.processes[0].shared_table.entries",
     "an empty reference-frequency table"},
    {"entries-pages-do-not-add-up.yaml", "47:11", "workload.processes[0].shared_table.entries",
     "the entries cover 844 pages; expected them to add up to the 843 pages of the shared space of "
     "workload.processes[0] (p16)"},
    {"entry-type-unknown.yaml", "48:46", "workload.processes[0].shared_table.entries[1].type",
     "expected one of compute, read, write, got \"load\""},
    {"entry-frequency-negative.yaml", "48:37", "workload.processes[0].shared_table.entries[1].frequency",
     "got \"-1\""},
    {"entry-pages-zero.yaml", "48:21", "workload.processes[0].shared_table.entries[1].pages", "got \"0\""},
    {"entry-misspelt.yaml", "48:52", "workload.processes[0].shared_table.entries[1].kind", "unknown key"},
    {"entries-all-zero.yaml", "47:11", "workload.processes[0].shared_table.entries",
     "every entry has frequency 0"},
    {"entries-and-hot-cold.yaml", "46:20", "workload.processes[0].shared_table.hot_pages", "not both"},
    {"timeline-misspelt.yaml", "50:3", "output.timelines", "unknown key"},
    {"top-level-misspelt.yaml", "18:1", "memroy", "unknown key"},
    {"end-unknown.yaml", "3:6", "end", "got \"never\""},
};

void PrintTo(const BadNumaCase& c, std::ostream* os) {
  *os << c.file;
}

class NumaBadScenario : public ::testing::TestWithParam<BadNumaCase> {};

void check_bad_numa_scenario(const BadNumaCase& c, const std::string& command) {
  Sandbox box;
  const std::string file = (kBadNuma / c.file).string();
  const auto r = command == "run" ? box.run({"run", file, "--out", "out"}) : box.run({"validate", file});
  const std::string line = expect_input_error(r);
  const std::string located = fmt::format("{}:{}: {}: ", file, c.where, c.key);
  EXPECT_TRUE(contains(line, located))
      << "expected the message to start with '" << located << "'" << r.describe();
  EXPECT_TRUE(contains(line, c.fragment))
      << "expected the message to say '" << c.fragment << "'" << r.describe();
  EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out/ after bad input";
  EXPECT_FALSE(fs::exists(box.work() / "results")) << "expected no results/ after bad input";
}

TEST_P(NumaBadScenario, ValidateFailsWithOneLocatedLine) {
  check_bad_numa_scenario(GetParam(), "validate");
}

TEST_P(NumaBadScenario, RunFailsWithOneLocatedLineAndNoResults) {
  check_bad_numa_scenario(GetParam(), "run");
}

INSTANTIATE_TEST_SUITE_P(NumaCorpus, NumaBadScenario, ::testing::ValuesIn(kBadNumaCases),
                         [](const ::testing::TestParamInfo<BadNumaCase>& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(NumaCorpus, ListsEveryFile) {
  std::set<std::string> listed;
  for (const auto& c : kBadNumaCases) listed.insert(c.file);
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kBadNuma)) present.insert(entry.path().filename().string());
  EXPECT_EQ(listed, present) << "expected tests/data/bad-numa/ to hold exactly the files of kBadNumaCases";
}

}  // namespace
