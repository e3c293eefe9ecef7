#include "metrics/result_files.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "config/input_error.hpp"
#include "metrics/timeline.hpp"
#include "metrics/trace.hpp"
#include "util/signals_deferred.hpp"

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
  out.emplace_back(prefix, csv_value(value));
}

}  // namespace

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_atomically(const std::filesystem::path& path, const std::string& content) {
  const fs::path temporary = path.string() + ".partial";
  write_file(temporary, content);
  fs::rename(temporary, path);
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_value(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return csv_cell(value.get<std::string>());
  return value.dump();
}

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

ResultStaging::ResultStaging(std::string out_dir) : out_dir_(std::move(out_dir)) {
  const auto fail = [this](const std::string& why) {
    throw config::InputError(
        fmt::format("--out {}: {}; expected a directory where results can be written", out_dir_, why));
  };
  std::error_code ec;
  // Absolute, without "." or ".." or a trailing slash, so that it has a name and a parent.
  target_ = fs::absolute(out_dir_, ec).lexically_normal();
  if (!target_.has_filename()) target_ = target_.parent_path();
  if (fs::exists(target_, ec) && !fs::is_directory(target_, ec)) fail("it is a file");
  // The staging directory is a hidden sibling of the output directory: on the same file system, so that
  // moving a file into place is an atomic rename.
  const fs::path parent = target_.parent_path();
  fs::create_directories(parent, ec);
  if (ec) fail(fmt::format("cannot create {}: {}", parent.string(), ec.message()));
  std::string pattern = (parent / fmt::format(".{}.partial-XXXXXX", target_.filename().string())).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    fail(fmt::format("cannot write in {}: {}", parent.string(), std::strerror(errno)));
  // mkdtemp makes it private (0700); it becomes the output directory, which gets the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(pattern.c_str(), 0777 & ~mask);
  staging_dir_ = pattern;
}

ResultStaging::~ResultStaging() {
  if (staging_dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(staging_dir_, ec);
}

void ResultStaging::commit(const std::map<std::string, std::string>& files) {
  if (!files.count(kSummaryFile)) throw std::logic_error("result files without summary.json");
  // Signals wait: an interruption must leave either the earlier results or this run's, never a mix.
  util::SignalsDeferred deferred;
  const fs::path staging(staging_dir_);
  for (const auto& [name, content] : files) write_file(staging / name, content);

  std::error_code ec;
  if (!fs::exists(target_, ec)) {
    fs::rename(staging, target_);  // the whole directory at once
    staging_dir_.clear();
    return;
  }
  // An earlier run's summary goes first, so that the directory never looks complete with mixed files;
  // then its other result files are replaced or removed, and this run's summary comes last.
  fs::remove(target_ / kSummaryFile);
  // A result file of the earlier run that this one does not write (a NOW run's, replaced by an SMP run).
  for (const char* name :
       {kWorkstationsFile, kBarriersFile, kClassesFile, kPairsFile, kTimelineFile, kPajeFile, kChromeFile})
    if (!files.count(name)) fs::remove(target_ / name);
  for (const auto& [name, content] : files)
    if (name != kSummaryFile) fs::rename(staging / name, target_ / name);
  fs::rename(staging / kSummaryFile, target_ / kSummaryFile);
  fs::remove_all(staging);
  staging_dir_.clear();
}

}  // namespace cosched::metrics
