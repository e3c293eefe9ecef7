// The result contract (src/metrics/run_record.*): the records' serializers give summary.json's fields in the
// documented order with the derived values (SSR) computed from the record, jobs.csv from the same fields, and
// read_summary gives the collector the cells of a summary of this contract only.

#include "metrics/run_record.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "config/input_error.hpp"
#include "metrics/result_files.hpp"

namespace cosched::metrics {
namespace {

// A summary of any of the three models (the model registry's names, which the sweep's collector passes).
SummaryCells read_any_model(const std::filesystem::path& file) {
  static constexpr std::string_view kModels[] = {"smp", "now", "numa"};
  return read_summary(file, kModels);
}

namespace fs = std::filesystem;

std::vector<std::string> keys(const nlohmann::ordered_json& object) {
  std::vector<std::string> out;
  for (const auto& [key, value] : object.items()) out.push_back(key);
  return out;
}

SmpRunRecord two_job_smp_record() {
  SmpRunRecord r;
  r.scenario = "s";
  r.seed = 7;
  r.makespan = 900;
  r.jobs.push_back({"a", 0, 900, {3, 4}, 5, 700, 1, 2, 30, std::nullopt, {}});
  r.jobs.push_back({"b", 0, std::nullopt, {0, 0}, 2, std::nullopt, 0, 1, 0, std::nullopt, {}});
  r.events = 42;
  r.platform = {"smp", 2, 1e9, 9e-7};
  r.wall_seconds = 0.5;
  r.resolved = {{"name", "s"}};
  return r;
}

TEST(RunRecord, SmpUserLevelSumsPerJobAndThreadsListed) {
  // Job a ran a loop on two threads; job b has no user-level runtime: its user_level fields are null, so
  // that jobs.csv keeps one set of columns.
  auto r = two_job_smp_record();
  r.user_level = true;
  r.jobs[0].user_level_threads = {{10, 2, 0, 2, 0, 100, 0, 0, 0}, {6, 3, 0, 3, 0, 150, 0, 0, 5}};
  const auto s = summary_json(r);
  EXPECT_EQ(s["jobs"][0]["user_level"]["iterations"], 16);
  EXPECT_EQ(s["jobs"][0]["user_level"]["chunks"], 5);
  EXPECT_EQ(s["jobs"][0]["user_level"]["dispatch_cycles"], 250);
  EXPECT_EQ(s["jobs"][0]["user_level"]["waiting_for_work"], 5);
  EXPECT_TRUE(s["jobs"][1]["user_level"]["iterations"].is_null());
  ASSERT_EQ(s["user_level_threads"].size(), 2u);
  EXPECT_EQ(s["user_level_threads"][1]["thread"], 1);
  EXPECT_EQ(s["user_level_threads"][1]["iterations"], 6);
  const auto csv = jobs_csv(s["jobs"]);
  EXPECT_NE(csv.find(",spin_cycles,user_level_iterations,user_level_chunks,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nb,0,,,0,0,2,,0,1,0,,,,,,,,,\n"), std::string::npos) << csv;
  EXPECT_FALSE(summary_json(two_job_smp_record()).contains("user_level_threads"))
      << "runs without a user-level runtime keep their fields";
}

TEST(RunRecord, SmpSummaryHasTheContractsFieldsInOrder) {
  const auto s = summary_json(two_job_smp_record());
  EXPECT_EQ(keys(s), (std::vector<std::string>{"schema_version", "scenario", "model", "seed", "makespan",
                                               "ssr", "spins", "jobs", "events", "time_unit", "platform",
                                               "wall_seconds", "resolved"}));
  EXPECT_EQ(s["schema_version"], kSchemaVersion);
  EXPECT_EQ(s["time_unit"], "cycles");
  // 3 of 4 spins of job a, none of job b: 75% over the run, b's SSR undefined.
  EXPECT_EQ(s["spins"]["successful"], 3);
  EXPECT_EQ(s["spins"]["total"], 4);
  EXPECT_DOUBLE_EQ(s["ssr"].get<double>(), 75.0);
  EXPECT_EQ(keys(s["jobs"][0]),
            (std::vector<std::string>{"name", "copy", "completion_time", "ssr", "spins", "barriers_completed",
                                      "transition_point", "blocks", "context_switches", "spin_cycles"}))
      << "no barrier_overhead_per_phase outside partitioned runs";
  EXPECT_TRUE(s["jobs"][1]["ssr"].is_null());
  EXPECT_TRUE(s["jobs"][1]["completion_time"].is_null());
  EXPECT_TRUE(s["jobs"][1]["transition_point"].is_null());
}

TEST(RunRecord, PartitionedJobsCarryTheBarrierOverhead) {
  auto r = two_job_smp_record();
  r.partitioned = true;
  r.jobs[0].barrier_overhead_per_phase = 14.0;
  const auto s = summary_json(r);
  EXPECT_DOUBLE_EQ(s["jobs"][0]["barrier_overhead_per_phase"].get<double>(), 14.0);
  EXPECT_TRUE(s["jobs"][1]["barrier_overhead_per_phase"].is_null()) << "job b did not complete";
  const auto files = result_files(r);
  EXPECT_EQ(files.at(kJobsFile),
            "name,copy,completion_time,ssr,spins_successful,spins_total,barriers_completed,transition_point,"
            "blocks,context_switches,spin_cycles,barrier_overhead_per_phase\n"
            "a,0,900,75.0,3,4,5,700,1,2,30,14.0\n"
            "b,0,,,0,0,2,,0,1,0,\n");
}

TEST(RunRecord, NowFilesComeFromTheRecord) {
  NowRunRecord r;
  r.scenario = "n";
  r.engine = "sequential";
  r.makespan = 0.25;
  NowJobRecord job;
  job.name = "j,1";  // quoted in jobs.csv
  job.completion_time = 0.25;
  job.spins = {1, 2};
  r.jobs.push_back(job);
  r.workstations.push_back({0, "ws-00000", 0.125, 0.5, 0.0625, 3, 4, std::nullopt});
  r.barriers.push_back({"j,1", 0, 0, 0.1, 0.2, 0.25, 0.15, 2});
  const auto s = summary_json(r);
  EXPECT_EQ(keys(s), (std::vector<std::string>{"schema_version", "scenario", "model", "seed", "engine",
                                               "makespan", "ssr", "spins", "jobs", "messages", "events",
                                               "time_unit", "platform", "wall_seconds", "resolved"}));
  EXPECT_DOUBLE_EQ(s["ssr"].get<double>(), 50.0);
  EXPECT_TRUE(s["jobs"][0]["reads"]["partner_ready"]["mean_s"].is_null()) << "no read counted";
  const auto files = result_files(r);
  EXPECT_EQ(files.at(kWorkstationsFile),
            "workstation,host,busy_s,utilisation,spinning_s,messages_sent,messages_received\n"
            "0,ws-00000,0.125000000,0.500000,0.062500000,3,4\n");
  EXPECT_EQ(files.at(kBarriersFile).substr(files.at(kBarriersFile).find('\n') + 1),
            "\"j,1\",0,0,0.100000000,0.200000000,0.250000000,0.150000000,2\n");
  EXPECT_EQ(files.at(kJobsFile).substr(files.at(kJobsFile).find('\n') + 1, 8), "\"j,1\",0,");
  EXPECT_TRUE(files.count(kSummaryFile));
}

class SummaryFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cosched-run-record-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& text) {
    const auto path = dir_ / "summary.json";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
  }
  fs::path dir_;
};

TEST_F(SummaryFile, ReadGivesTheRunsAndTheJobsCellsInFileOrder) {
  auto r = two_job_smp_record();
  const auto cells = read_any_model(write(result_files(r).at(kSummaryFile)));
  ASSERT_GE(cells.run.size(), 4u);
  EXPECT_EQ(cells.run[0], (std::pair<std::string, std::string>{"schema_version", "1"}));
  EXPECT_EQ(cells.run[1], (std::pair<std::string, std::string>{"scenario", "s"}));
  EXPECT_EQ(cells.run[4], (std::pair<std::string, std::string>{"makespan", "900"}));
  bool platform_cpus = false;
  for (const auto& [path, text] : cells.run) {
    EXPECT_NE(path.rfind("jobs", 0), 0u) << "job values are not run cells: " << path;
    if (path == "platform.cpus") platform_cpus = text == "2";
  }
  EXPECT_TRUE(platform_cpus) << "nested objects are joined with '.'";
  ASSERT_EQ(cells.jobs.size(), 2u);
  EXPECT_EQ(cells.jobs[1].name, "b");
  EXPECT_EQ(cells.jobs[0].fields[0], (std::pair<std::string, std::string>{"completion_time", "900"}));
  EXPECT_EQ(cells.jobs[0].fields[1], (std::pair<std::string, std::string>{"ssr", "75.0"}));
  EXPECT_EQ(cells.jobs[0].fields[2], (std::pair<std::string, std::string>{"spins.successful", "3"}));
  EXPECT_EQ(cells.jobs[1].fields[1], (std::pair<std::string, std::string>{"ssr", ""})) << "null is empty";
}

TEST_F(SummaryFile, AnotherSchemaVersionIsRefusedNamingTheFile) {
  const auto path = write(R"({"schema_version": 2, "model": "smp", "jobs": []})");
  try {
    read_any_model(path);
    FAIL() << "expected an InputError";
  } catch (const config::InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        path.string() +
            ": schema_version 2; expected 1, the version this cosched writes (rerun that run: delete its "
            "folder and run the sweep again)");
  }
  EXPECT_THROW(read_any_model(write(R"({"model": "smp", "jobs": []})")), config::InputError) << "no version";
  EXPECT_THROW(read_any_model(write(R"({"schema_version": 1, "model": "smp", "jobs": [{"name": "a"}]})")),
               config::InputError)
      << "a job without copy";
  const auto grid = write(R"({"schema_version": 1, "model": "grid", "jobs": []})");
  try {
    read_any_model(grid);
    FAIL() << "expected an InputError";
  } catch (const config::InputError& e) {
    EXPECT_EQ(std::string(e.what()), grid.string() + ": expected 'model' smp, now or numa");
  }
  EXPECT_THROW(read_any_model(write(R"({"schema_version": 1, "model": "smp"})")), config::InputError);
  EXPECT_THROW(read_any_model(write("{\"schema_version\": 1, ")), UnreadableSummary);
}

}  // namespace
}  // namespace cosched::metrics
