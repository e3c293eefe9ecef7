#include "cli/calibrate_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "calibrate/measurements.hpp"
#include "calibrate/report.hpp"
#include "config/input_error.hpp"
#include "metrics/result_files.hpp"
#include "util/signals_deferred.hpp"

namespace cosched::cli {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse_out(const std::string& out, const std::string& why) {
  throw config::InputError(
      fmt::format("--out {}: {}; expected a file path where calibration.yaml can be written", out, why));
}

// Checks, before a minute of measuring, that `out` can be written: not a directory, and a file can be
// created beside it (metrics::write_atomically writes `out`.partial there, then renames it).
void check_out(const std::string& out) {
  if (out.empty()) refuse_out(out, "empty path");
  std::error_code ec;
  const fs::path path = fs::absolute(out, ec).lexically_normal();
  if (ec || !path.has_filename() || fs::is_directory(path, ec)) refuse_out(out, "it is a directory");
  const fs::path parent = path.parent_path();
  if (!fs::is_directory(parent, ec)) refuse_out(out, fmt::format("no directory {}", parent.string()));
  std::string probe = (parent / ("." + path.filename().string() + ".probe-XXXXXX")).string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) refuse_out(out, fmt::format("cannot write in {}: {}", parent.string(), std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

// What is being measured, on stderr when it is a terminal (as cosched run's progress line).
void show_progress(const std::string& what) {
  fmt::print(stderr, "\r\033[Kcosched calibrate: measuring {}...", what);
  std::fflush(stderr);
}

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options) {
  auto* calibrate = app.add_subcommand("calibrate",
                                       "Measure this machine's context-switch and dispatch costs "
                                       "(docs/calibration.md) and write them as YAML");
  calibrate->add_flag(
      "--quick", options.quick,
      "Fewer switches and repetitions: about a second, rough figures for tests, not for studies");
  calibrate->add_option("--out", options.out,
                        fmt::format("The YAML file to write (default {})", CalibrateOptions::kDefaultOut));
  return calibrate;
}

int run_calibrate_command(const CalibrateOptions& options) {
  if (options.out == CalibrateOptions::kDefaultOut) {
    std::error_code ec;
    fs::create_directories(fs::path(options.out).parent_path(), ec);  // check_out reports a failure
  }
  check_out(options.out);
  const bool terminal = ::isatty(STDERR_FILENO);
  auto calibration =
      calibrate::calibrate(options.quick ? calibrate::quick_plan() : calibrate::full_plan(),
                           terminal ? show_progress : std::function<void(const std::string&)>{});
  if (terminal) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  calibration.quick = options.quick;
  const std::string yaml = calibrate::calibration_yaml(calibration);
  try {
    util::SignalsDeferred deferred;  // an interruption leaves the file as it was or complete
    metrics::write_atomically(options.out, yaml);
  } catch (const std::exception& e) {
    refuse_out(options.out, e.what());
  }
  fmt::print("{}\nwrote {}\n", calibrate::calibration_text(calibration), options.out);
  return 0;
}

}  // namespace cosched::cli
