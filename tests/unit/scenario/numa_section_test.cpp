// The NUMA model's scenario section (scenario/numa_section.cpp): defaults of table 5.1, the
// reference-frequency tables as the machine draws from them, sync ranges, where each process's threads were
// given, the resolved record, the limits, and the arithmetic of the shipped process sets
// (scenarios/nobukuni/README.md). Error paths are covered end to end in tests/cli/numa_cli_test.cpp.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

#include "config/limits.hpp"
#include "numa/footprint.hpp"
#include "scenario/loader.hpp"

namespace cosched::config {
namespace {

namespace fs = std::filesystem;

// A scratch folder with a stand-in platform file: the section only resolves platform.file's path (the run
// loads and checks the tree), so any regular file will do here.
class NumaScenario : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cosched-numa-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "tree.xml") << "<platform/>\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& text) {
    const fs::path file = dir_ / "scenario.yaml";
    std::ofstream(file) << text;
    return file.string();
  }
  std::string platform() const { return (dir_ / "tree.xml").string(); }

  fs::path dir_;
};

const char* const kMinimal = R"(model: numa
platform: {file: tree.xml}
workload:
  processes:
    - {threads: 4, local_pages: 10, shared_pages: 5}
)";

TEST_F(NumaScenario, DefaultsAreTable51AndTheThesissEndCondition) {
  const auto scenario = load_scenario(write(kMinimal));
  EXPECT_EQ(scenario.end, EndCondition::FirstFinish) << "chapter 5: until one process stops, or 100 slices";
  const auto& numa = std::get<NumaConfig>(scenario.model_config);
  EXPECT_EQ(numa.platform_file, platform());
  EXPECT_EQ(numa.network, NumaNetwork::Hops);
  EXPECT_EQ(numa.page_transfer_base, 50) << "table 5.1: page transfer base cost";
  EXPECT_EQ(numa.time_slice, 100'000) << "table 5.1: 1 quantum";
  EXPECT_EQ(numa.slices, 100) << "chapter 5";
  EXPECT_EQ(numa.pages_per_cluster, 400) << "table 5.1";
  EXPECT_EQ(numa.page_size, 4096) << "table 5.1";
  EXPECT_EQ(numa.disk, 10'000) << "table 5.1";
  EXPECT_EQ(numa.policy.name, "policy4") << "the table 5.4 setting";
  EXPECT_EQ(numa.replacement.name, "strategy1") << "the table 5.4 setting";
  EXPECT_DOUBLE_EQ(numa.work, 2'000'000) << "chapter 5 footnote: 20 quanta of effective execution";
  ASSERT_EQ(numa.processes.size(), 1u);
  const auto& p = numa.processes[0];
  EXPECT_EQ(p.name, "process0");
  EXPECT_EQ(p.copies, 1);
  EXPECT_EQ(p.sync_min, 1000) << "table 5.3";
  EXPECT_EQ(p.sync_max, 1000);
  EXPECT_DOUBLE_EQ(p.shared_rate, 0);
  EXPECT_EQ(p.origin, scenario.file + ":5:17: workload.processes[0].threads");
}

TEST_F(NumaScenario, EndAllJobsIsAllowed) {
  const auto scenario = load_scenario(write(kMinimal), {"end=all-jobs"});
  EXPECT_EQ(scenario.end, EndCondition::AllJobs);
}

// A hot-cold table becomes its hot and cold runs, each page weighted by its run's share of the references
// (types per reference: one run each).
TEST_F(NumaScenario, HotColdTablesResolveToTheirHotAndColdRuns) {
  const auto scenario = load_scenario(write(kMinimal), {"workload.local_table={types: per-reference}",
                                                        "workload.shared_table={types: per-reference}"});
  const auto& p = std::get<NumaConfig>(scenario.model_config).processes[0];
  // Local space: 10 pages, 20% hot = 2 pages taking 80% of the references: 0.4 each; 8 cold share 0.2.
  EXPECT_EQ(p.local_table.shape, "hot-cold");
  ASSERT_EQ(p.local_table.entries.size(), 2u);
  EXPECT_EQ(p.local_table.entries[0].pages, 2);
  EXPECT_DOUBLE_EQ(p.local_table.entries[0].frequency, 0.4);
  EXPECT_EQ(p.local_table.entries[1].pages, 8);
  EXPECT_DOUBLE_EQ(p.local_table.entries[1].frequency, 0.025);
  // Shared space: 5 pages, 20% hot = 1 page with 0.8; 4 cold pages 0.05 each.
  ASSERT_EQ(p.shared_table.entries.size(), 2u);
  EXPECT_EQ(p.shared_table.entries[0].pages, 1);
  EXPECT_DOUBLE_EQ(p.shared_table.entries[0].frequency, 0.8);
  EXPECT_EQ(p.shared_table.entries[1].pages, 4);
  EXPECT_DOUBLE_EQ(p.shared_table.entries[1].frequency, 0.05);
  EXPECT_DOUBLE_EQ(p.local_table.compute, 0.5) << "A5's mix";
  EXPECT_DOUBLE_EQ(p.local_table.read, 0.35);
  EXPECT_DOUBLE_EQ(p.local_table.write, 0.15);
}

// The default, types per page (4.2.3 para 5: the type "can be given for each page"): each run split into
// its compute, read and write pages, counted from the mix by largest remainder, each page of a run keeping
// the run's weight.
TEST_F(NumaScenario, HotColdTablesPerPageSplitEachRunIntoThePagesOfEachType) {
  const auto scenario = load_scenario(write(kMinimal));
  const auto& p = std::get<NumaConfig>(scenario.model_config).processes[0];
  EXPECT_EQ(p.local_table.types, NumaTypes::PerPage);
  const auto runs = [](const NumaTable& t) {
    std::vector<std::tuple<int, double, NumaAccess>> out;
    for (const auto& e : t.entries) out.emplace_back(e.pages, std::round(e.frequency * 1e12) / 1e12, e.type);
    return out;
  };
  using enum NumaAccess;
  // Local, 10 pages: 2 hot (0.4 each): 1 compute (0.5 x 2) and 1 read (0.7 left over beats 0.3); 8 cold
  // (0.025 each): 4 compute, 2.8 read and 1.2 write round to 4, 3 and 1.
  EXPECT_EQ(
      runs(p.local_table),
      (std::vector<std::tuple<int, double, NumaAccess>>{
          {1, 0.4, Compute}, {1, 0.4, Read}, {4, 0.025, Compute}, {3, 0.025, Read}, {1, 0.025, Write}}));
  // Shared, 5 pages: the 1 hot page is compute (the largest share); 4 cold: 2 compute, 1.4 read and 0.6
  // write round to 2, 1 and 1.
  EXPECT_EQ(runs(p.shared_table),
            (std::vector<std::tuple<int, double, NumaAccess>>{
                {1, 0.8, Compute}, {2, 0.05, Compute}, {1, 0.05, Read}, {1, 0.05, Write}}));
  // Runs whose shares are whole: 20 pages, half hot taking every reference, mix 0.5 / 0.3 / 0.2.
  const auto even = std::get<NumaConfig>(
      load_scenario(write(kMinimal), {"workload.processes.0.local_pages=20",
                                      "workload.local_table={hot_pages: 0.5, hot_refs: 1, compute: 0.5, "
                                      "read: 0.3, write: 0.2}"})
          .model_config);
  EXPECT_EQ(runs(even.processes[0].local_table),
            (std::vector<std::tuple<int, double, NumaAccess>>{{5, 0.1, Compute},
                                                              {3, 0.1, Read},
                                                              {2, 0.1, Write},
                                                              {5, 0.0, Compute},
                                                              {3, 0.0, Read},
                                                              {2, 0.0, Write}}));
}

TEST_F(NumaScenario, HotPagesRoundToWholePagesAndAtLeastOne) {
  const auto file = write(R"(model: numa
platform: {file: tree.xml}
workload:
  local_table: {types: per-reference}
  processes:
    - {threads: 4, local_pages: 10, shared_pages: 5}
)");
  // 34 pages x 0.2 = 6.8: 7 hot pages.
  auto scenario = load_scenario(file, {"workload.processes.0.local_pages=34"});
  auto table = std::get<NumaConfig>(scenario.model_config).processes[0].local_table;
  ASSERT_EQ(table.entries.size(), 2u);
  EXPECT_EQ(table.entries[0].pages, 7);
  EXPECT_DOUBLE_EQ(table.entries[0].frequency, 0.8 / 7);
  EXPECT_EQ(table.entries[1].pages, 27);
  EXPECT_DOUBLE_EQ(table.entries[1].frequency, 0.2 / 27);
  // 2 pages x 0.2 = 0.4 rounds to 0: one hot page all the same, and one cold.
  scenario = load_scenario(file, {"workload.processes.0.local_pages=2"});
  table = std::get<NumaConfig>(scenario.model_config).processes[0].local_table;
  ASSERT_EQ(table.entries.size(), 2u);
  EXPECT_EQ(table.entries[0].pages, 1);
  EXPECT_DOUBLE_EQ(table.entries[0].frequency, 0.8);
  EXPECT_EQ(table.entries[1].pages, 1);
  EXPECT_DOUBLE_EQ(table.entries[1].frequency, 0.2);
  // Every page hot: one run, the references spread evenly (hot_refs has no cold pages to go to).
  scenario =
      load_scenario(file, {"workload.local_table={hot_pages: 1, hot_refs: 0.5, types: per-reference}"});
  table = std::get<NumaConfig>(scenario.model_config).processes[0].local_table;
  ASSERT_EQ(table.entries.size(), 1u);
  EXPECT_EQ(table.entries[0].pages, 10);
  EXPECT_DOUBLE_EQ(table.entries[0].frequency, 0.1);
}

TEST_F(NumaScenario, EntriesTablesAreKeptAsGivenAndAProcesssTableReplacesTheWorkloads) {
  const auto scenario = load_scenario(write(R"(model: numa
platform: {file: tree.xml}
workload:
  shared_rate: 0.25
  local_table: {hot_pages: 0.5, hot_refs: 0.9, compute: 0.2, read: 0.7, write: 0.1, types: per-reference}
  processes:
    - {threads: 4, local_pages: 10, shared_pages: 5}
    - threads: 2
      local_pages: 10
      shared_pages: 3
      shared_rate: 0.5
      sync_interval: 1000-2000
      local_table: {entries: [{pages: 4, frequency: 3, type: write}, {pages: 6, frequency: 1, type: compute}]}
)"));
  const auto& numa = std::get<NumaConfig>(scenario.model_config);
  ASSERT_EQ(numa.processes.size(), 2u);
  const auto& inherits = numa.processes[0];
  EXPECT_DOUBLE_EQ(inherits.shared_rate, 0.25);
  EXPECT_EQ(inherits.local_table.shape, "hot-cold");
  EXPECT_DOUBLE_EQ(inherits.local_table.read, 0.7);
  ASSERT_EQ(inherits.local_table.entries.size(), 2u);
  EXPECT_EQ(inherits.local_table.entries[0].pages, 5);
  EXPECT_DOUBLE_EQ(inherits.local_table.entries[0].frequency, 0.18);
  EXPECT_DOUBLE_EQ(inherits.shared_table.hot_pages, 0.2) << "no shared_table anywhere: the default";
  const auto& own = numa.processes[1];
  EXPECT_DOUBLE_EQ(own.shared_rate, 0.5);
  EXPECT_EQ(own.sync_min, 1000);
  EXPECT_EQ(own.sync_max, 2000);
  EXPECT_EQ(own.sync_given, "1000-2000");
  EXPECT_EQ(own.local_table.shape, "entries");
  ASSERT_EQ(own.local_table.entries.size(), 2u);
  EXPECT_EQ(own.local_table.entries[0].pages, 4);
  EXPECT_DOUBLE_EQ(own.local_table.entries[0].frequency, 3);
  EXPECT_EQ(own.local_table.entries[0].type, NumaAccess::Write);
  EXPECT_EQ(own.local_table.entries[1].type, NumaAccess::Compute);
}

TEST_F(NumaScenario, UnitsOfTheRatesAndBandwidths) {
  const auto file = write(kMinimal);
  auto numa_of = [&](std::vector<std::string> sets) {
    return std::get<NumaConfig>(load_scenario(file, sets).model_config);
  };
  EXPECT_DOUBLE_EQ(numa_of({"platform.clock_hz=500MHz"}).clock_hz, 5e8);
  EXPECT_DOUBLE_EQ(numa_of({"platform.clock_hz=2.5kHz"}).clock_hz, 2500);
  EXPECT_DOUBLE_EQ(numa_of({"platform.clock_hz=3e9"}).clock_hz, 3e9);
  EXPECT_DOUBLE_EQ(numa_of({"platform.reference_bandwidth=10Gbps"}).reference_bandwidth, 1.25e9);
  EXPECT_DOUBLE_EQ(numa_of({"platform.reference_bandwidth=0"}).reference_bandwidth, 0);
}

TEST_F(NumaScenario, ResolvedRecordHasEveryKeyTheTablesAndTheChoices) {
  const auto scenario = load_scenario(write(kMinimal), {"workload.barrier=pair", "scheduler.policy=policy2"});
  const auto resolved = resolved_json(scenario);
  EXPECT_EQ(resolved["end"], "first-finish");
  EXPECT_EQ(resolved["platform"]["file"], platform());
  EXPECT_EQ(resolved["platform"]["network"], "hops");
  EXPECT_EQ(resolved["platform"]["buffers"], true);
  EXPECT_EQ(resolved["scheduler"]["policy"], "policy2");
  EXPECT_EQ(resolved["scheduler"]["time_slice"], 100'000);
  EXPECT_EQ(resolved["memory"]["replacement"], "strategy1");
  EXPECT_EQ(resolved["memory"]["consistency"], "sequential");
  EXPECT_EQ(resolved["workload"]["barrier"], "pair");
  // Read once into the machine's types: no name is compared while the model runs.
  const auto& numa = std::get<NumaConfig>(scenario.model_config);
  EXPECT_EQ(numa.barrier, NumaSyncMembers::Pair);
  EXPECT_EQ(numa.consistency, NumaConsistency::Sequential);
  const auto release = load_scenario(write(kMinimal), {"memory.consistency=release", "workload.barrier=all"});
  EXPECT_EQ(std::get<NumaConfig>(release.model_config).consistency, NumaConsistency::Release);
  EXPECT_EQ(std::get<NumaConfig>(release.model_config).barrier, NumaSyncMembers::All);
  const auto& process = resolved["workload"]["processes"][0];
  EXPECT_EQ(process["threads"], 4);
  EXPECT_EQ(process["sync_interval"]["min"], 1000);
  EXPECT_EQ(process["local_table"]["shape"], "hot-cold");
  EXPECT_EQ(process["local_table"]["types"], "per-page");
  EXPECT_EQ(process["local_table"]["entries"][0]["pages"], 1);
  EXPECT_EQ(process["local_table"]["entries"][0]["type"], "compute")
      << "types per page: each run's pages typed";
  const auto per_reference =
      resolved_json(load_scenario(write(kMinimal), {"workload.local_table={types: per-reference}"}));
  const auto& table = per_reference["workload"]["processes"][0]["local_table"];
  EXPECT_EQ(table["types"], "per-reference");
  EXPECT_EQ(table["entries"][0]["pages"], 2);
  EXPECT_FALSE(table["entries"][0].contains("type")) << "types per reference: every page's are the mix";
  for (const char* a : {"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A9", "A10", "A14", "A28"})
    EXPECT_TRUE(resolved["choices"].contains(a))
        << "expected choice " << a << " in " << resolved["choices"].dump();
  EXPECT_NE(resolved["choices"]["A6"].get<std::string>().find("pair"), std::string::npos);
}

// Frames of the largest process's clusters (no platform yet) plus the pages, threads and copy bits.
TEST_F(NumaScenario, MemoryEstimateCountsFramesPagesAndThreads) {
  const auto scenario = load_scenario(write(kMinimal));
  const double frames = 4.0 * 400 * 32;      // 4 clusters at least, 400 frames of 32 bytes
  const double pages = (4.0 * 10 + 5) * 32;  // every local and shared page
  const double threads = 4.0 * 1024;         // each thread's state
  const double copy_bits = 5.0 * 4 / 8;      // a bit per shared page and cluster
  EXPECT_DOUBLE_EQ(numa::memory_bytes(std::get<NumaConfig>(scenario.model_config)),
                   64.0 * 1024 * 1024 + frames + pages + threads + copy_bits);
}

// scenarios/nobukuni/README.md: each set's parallelisms, processes and page counts against tables 5.2-5.3.
TEST_F(NumaScenario, ProcessSetsMatchTables52And53) {
  const struct {
    const char* set;
    int processes, parallelism, local_space, shared_space;
    Clocks sync_min, sync_max;
  } tables[] = {{"a", 12, 1050, 35500, 10120, 1000, 2000},
                {"k", 12, 1184, 49920, 6360, 1000, 1000},
                {"l", 11, 1472, 68480, 7280, 1000, 1000},
                {"m", 23, 812, 35480, 30320, 1000, 1000}};
  for (const auto& t : tables) {
    SCOPED_TRACE(t.set);
    const fs::path file =
        fs::path(COSCHED_SOURCE_DIR) / "scenarios" / "nobukuni" / fmt::format("set-{}.yaml", t.set);
    const auto scenario = load_scenario(file.string(), {"platform.file=" + platform()});
    const auto& numa = std::get<NumaConfig>(scenario.model_config);
    int processes = 0, parallelism = 0;
    for (const auto& p : numa.processes) {
      processes += p.copies;
      parallelism += p.threads * p.copies;
      // A3: local space per thread = total / parallelism, shared per process = total / processes, rounded.
      EXPECT_EQ(p.local_pages, std::lround(static_cast<double>(t.local_space) / t.parallelism)) << p.name;
      EXPECT_EQ(p.shared_pages, std::lround(static_cast<double>(t.shared_space) / t.processes)) << p.name;
      EXPECT_EQ(p.sync_min, t.sync_min) << p.name;
      EXPECT_EQ(p.sync_max, t.sync_max) << p.name;
    }
    EXPECT_EQ(processes, t.processes);
    EXPECT_EQ(parallelism, t.parallelism);
    EXPECT_EQ(numa.policy.name, "policy4");
    EXPECT_EQ(numa.replacement.name, "strategy1");
    EXPECT_EQ(scenario.end, EndCondition::FirstFinish);
  }
}

}  // namespace
}  // namespace cosched::config
