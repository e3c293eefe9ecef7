#pragma once
// `cosched calibrate`: measures this machine's context-switch and dispatch costs with the seed's method
// (issue 23, section 1; docs/calibration.md), prints the seed's tables and writes calibration.yaml.

#include <CLI/CLI.hpp>
#include <string>

namespace cosched::cli {

struct CalibrateOptions {
  bool quick = false;
  // The default is in results/, which git ignores, as `cosched run`'s folders are (made when missing).
  static constexpr const char* kDefaultOut = "results/calibration.yaml";
  std::string out = kDefaultOut;
  // --noise (docs/calibration.md section 7): this machine's noise as a trace, not the switch costs.
  bool noise = false;
  static constexpr const char* kDefaultNoiseOut = "results/noise-trace.csv";
  std::string seconds = "10";     // --seconds: how long each CPU's loop runs
  std::string threshold = "1us";  // --threshold: the shortest gap that is a detour
};

// Adds `calibrate` to `app`; returns it.
CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options);

// Measures, prints the tables and writes the YAML. Throws config::InputError for an --out it cannot write,
// before measuring anything.
int run_calibrate_command(const CalibrateOptions& options);

}  // namespace cosched::cli
