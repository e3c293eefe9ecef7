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
    for (const auto& [key, item] : value.items())
      flatten(item, prefix.empty() ? key : prefix + "_" + key, out);
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
  for (const char* name : {kSummaryFile, kJobsFile, kWorkstationsFile}) fs::remove(fs::path(dir) / name, ec);
}

void write_results(const std::string& dir, const nlohmann::ordered_json& summary,
                   const std::map<std::string, std::string>& extra_files) {
  fs::create_directories(dir);
  std::vector<std::pair<std::string, std::string>> files(extra_files.begin(), extra_files.end());
  files.emplace_back(kJobsFile, jobs_csv(summary.at("jobs")));
  files.emplace_back(kSummaryFile, summary.dump(2) + "\n");  // last: its presence means the run completed
  for (const auto& [name, content] : files) write_file(fs::path(dir) / (name + ".partial"), content);
  for (const auto& [name, content] : files)
    fs::rename(fs::path(dir) / (name + ".partial"), fs::path(dir) / name);
}

}  // namespace cosched::metrics
