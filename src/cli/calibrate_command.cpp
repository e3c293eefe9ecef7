#include "cli/calibrate_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "calibrate/measurements.hpp"
#include "calibrate/noise.hpp"
#include "calibrate/report.hpp"
#include "config/field.hpp"
#include "config/input_error.hpp"
#include "config/units.hpp"
#include "metrics/result_files.hpp"
#include "util/signals_deferred.hpp"

namespace cosched::cli {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse_out(const std::string& out, const std::string& why) {
  throw config::InputError(
      fmt::format("--out {}: {}; expected a file path where the results can be written", out, why));
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
                        fmt::format("The file to write (default {}, with --noise {})",
                                    CalibrateOptions::kDefaultOut, CalibrateOptions::kDefaultNoiseOut));
  calibrate->add_flag(
      "--noise", options.noise,
      "Measure this machine's operating-system noise (selfish detour on every allowed CPU) and "
      "write it as a noise trace a NOW scenario replays");
  calibrate->add_option("--seconds", options.seconds,
                        "With --noise: how long each CPU's loop runs (default 10)");
  calibrate->add_option(
      "--threshold", options.threshold,
      "With --noise: the shortest gap between two clock readings that is a detour (default 1us)");
  return calibrate;
}

namespace {

// --noise's plan from --seconds and --threshold, checked before anything is measured.
calibrate::NoisePlan noise_plan(const CalibrateOptions& options) {
  calibrate::NoisePlan plan;
  if (options.quick)
    throw config::InputError(
        "--quick: expected no --quick with --noise (--seconds sets how long the noise is measured)");
  const auto seconds = config::parse_number(options.seconds);
  if (!seconds || !(*seconds > 0) || *seconds > 3600)
    throw config::InputError(
        fmt::format("--seconds {}: expected a number of seconds above 0 and at most 3600, "
                    "such as 10",
                    options.seconds));
  plan.seconds = *seconds;
  const auto threshold = config::parse_duration_ns(options.threshold);
  if (!threshold || *threshold < 100 || *threshold > 1'000'000'000)
    throw config::InputError(
        fmt::format("--threshold {}: expected a duration with a unit from 100ns to 1s, such "
                    "as 1us",
                    options.threshold));
  plan.threshold_ns = *threshold;
  return plan;
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("this machine");
}

int run_noise_calibration(const calibrate::NoisePlan& plan, const std::string& out) {
  check_out(out);
  const bool terminal = ::isatty(STDERR_FILENO);
  const auto measured =
      calibrate::measure_noise(plan, terminal ? show_progress : std::function<void(const std::string&)>{});
  if (terminal) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  try {
    util::SignalsDeferred deferred;  // an interruption leaves the file as it was or complete
    metrics::write_atomically(out, calibrate::noise_trace_csv(measured, host_name()));
  } catch (const std::exception& e) {
    refuse_out(out, e.what());
  }
  fmt::print("{}\nwrote {}\n", calibrate::noise_text(measured), out);
  return 0;
}

}  // namespace

int run_calibrate_command(const CalibrateOptions& options) {
  // The arguments are checked before anything is written or measured.
  const auto plan = options.noise ? std::optional(noise_plan(options)) : std::nullopt;
  if (!options.noise && (options.seconds != "10" || options.threshold != "1us"))
    throw config::InputError(
        "--seconds and --threshold: expected --noise with them (they time the noise loop)");
  const bool default_out = options.out == CalibrateOptions::kDefaultOut;
  if (default_out) {
    std::error_code ec;
    fs::create_directories(fs::path(options.out).parent_path(), ec);  // check_out reports a failure
  }
  if (plan)
    return run_noise_calibration(*plan, default_out ? CalibrateOptions::kDefaultNoiseOut : options.out);
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
