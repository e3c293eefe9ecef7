#pragma once
// Result files of one run (summary.json, jobs.csv). Each is written to a temporary name and renamed
// into place only when all are written, so a failed run never leaves a file that looks complete.

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace cosched::metrics {

inline const char* const kSummaryFile = "summary.json";
inline const char* const kJobsFile = "jobs.csv";
inline const char* const kWorkstationsFile = "workstations.csv";

// Removes result files of an earlier run in `dir`, so that they cannot be mistaken for this run's.
void remove_stale_results(const std::string& dir);

// Writes summary.json and jobs.csv (one row per element of summary["jobs"], nested objects flattened
// with '_', e.g. spins_successful).
// `extra_files` (name -> content, e.g. workstations.csv) are written alongside.
void write_results(const std::string& dir, const nlohmann::ordered_json& summary,
                   const std::map<std::string, std::string>& extra_files = {});

std::string jobs_csv(const nlohmann::ordered_json& jobs);

}  // namespace cosched::metrics
