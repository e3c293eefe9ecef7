#include "metrics/result_files.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace cosched::metrics {
namespace {

namespace fs = std::filesystem;

void flatten(const nlohmann::ordered_json& value, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) flatten(item, prefix.empty() ? key : prefix + "_" + key, out);
    return;
  }
  std::string text;
  if (value.is_null()) {
    text = "";
  } else if (value.is_string()) {
    text = value.get<std::string>();
    if (text.find_first_of(",\"\n") != std::string::npos) {
      std::string quoted = "\"";
      for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      text = quoted + "\"";
    }
  } else {
    text = value.dump();
  }
  out.emplace_back(prefix, text);
}

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

std::string jobs_csv(const nlohmann::ordered_json& jobs) {
  std::string csv;
  bool header = false;
  for (const auto& job : jobs) {
    std::vector<std::pair<std::string, std::string>> row;
    flatten(job, "", row);
    if (!header) {
      for (std::size_t i = 0; i < row.size(); ++i) csv += (i ? "," : "") + row[i].first;
      csv += "\n";
      header = true;
    }
    for (std::size_t i = 0; i < row.size(); ++i) csv += (i ? "," : "") + row[i].second;
    csv += "\n";
  }
  return csv;
}

void remove_stale_results(const std::string& dir) {
  std::error_code ec;
  for (const char* name : {kSummaryFile, kJobsFile}) fs::remove(fs::path(dir) / name, ec);
}

void write_results(const std::string& dir, const nlohmann::ordered_json& summary) {
  fs::create_directories(dir);
  const fs::path summary_path = fs::path(dir) / kSummaryFile;
  const fs::path jobs_path = fs::path(dir) / kJobsFile;
  const fs::path summary_tmp = summary_path.string() + ".partial";
  const fs::path jobs_tmp = jobs_path.string() + ".partial";
  write_file(jobs_tmp, jobs_csv(summary.at("jobs")));
  write_file(summary_tmp, summary.dump(2) + "\n");
  fs::rename(jobs_tmp, jobs_path);
  fs::rename(summary_tmp, summary_path);  // last: summary.json present means the run completed
}

}  // namespace cosched::metrics
