#pragma once
// Result files of one run (summary.json, jobs.csv, and a model's extra files such as workstations.csv).
//
// They are written into a staging directory beside the output directory and moved into place only when
// every file is complete, summary.json last, so that an earlier run's results survive any failure or
// interruption of this one and nothing half-written ever looks complete (docs/scenario-format.md,
// "Result files").

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace cosched::metrics {

// The version of summary.json's contract: raised whenever a field changes meaning or goes away.
inline constexpr int kSchemaVersion = 1;

inline const char* const kSummaryFile = "summary.json";
inline const char* const kJobsFile = "jobs.csv";
inline const char* const kWorkstationsFile = "workstations.csv";
inline const char* const kBarriersFile = "barriers.csv";  // NOW: one line per job instance and barrier
inline const char* const kNetworkFile = "network.csv";    // NUMA: one line per switch level
inline const char* const kClassesFile = "classes.csv";    // NOW under fcs: one line per change of class
inline const char* const kPairsFile = "pairs.csv";  // NOW under paired-gang: one line per change of pair

// The staging directory of one run. Creating it checks, before anything is simulated, that the output
// directory can receive results (throws config::InputError naming `--out` otherwise); destroying it
// without commit() removes it and leaves the output directory as it was.
class ResultStaging {
 public:
  explicit ResultStaging(std::string out_dir);
  ~ResultStaging();
  ResultStaging(const ResultStaging&) = delete;
  ResultStaging& operator=(const ResultStaging&) = delete;

  // Writes `files` (name -> content; summary.json among them, as metrics::result_files makes them) into the
  // staging directory, then moves them into the output directory, summary.json last, replacing an earlier
  // run's result files (those of the earlier run that this one does not write are removed). SIGINT and
  // SIGTERM wait until it is done.
  void commit(const std::map<std::string, std::string>& files);

  const std::string& out_dir() const { return out_dir_; }
  // The staging directory ("" once committed): what an interrupted run must remove.
  const std::string& staging_dir() const { return staging_dir_; }

 private:
  std::string out_dir_;           // as given
  std::filesystem::path target_;  // absolute and normalized
  std::string staging_dir_;
};

// jobs.csv: one row per element of `jobs` (summary.json's), nested objects flattened with '_', e.g.
// spins_successful.
std::string jobs_csv(const nlohmann::ordered_json& jobs);

// A JSON scalar as a CSV cell: null empty, a string through csv_cell, anything else as JSON prints it.
std::string csv_value(const nlohmann::ordered_json& value);

// Writes `content` to `path`, throwing when it cannot; write_atomically goes through `path`.partial and a
// rename, so that `path` is either absent, as it was, or complete.
void write_file(const std::filesystem::path& path, const std::string& content);
void write_atomically(const std::filesystem::path& path, const std::string& content);

// One CSV cell (RFC 4180): quoted, with inner quotes doubled, when it holds a comma, a quote or a newline.
std::string csv_cell(const std::string& text);

}  // namespace cosched::metrics
