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
};

// Adds `calibrate` to `app`; returns it.
CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options);

// Measures, prints the tables and writes the YAML. Throws config::InputError for an --out it cannot write,
// before measuring anything.
int run_calibrate_command(const CalibrateOptions& options);

}  // namespace cosched::cli
