#pragma once
// `cosched sweep`: expand a sweep file and run it locally or as a Slurm job array; `sweep status` and
// `sweep collect` report and merge the results of a sweep folder (docs/sweeps.md).

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace cosched::cli {

struct SweepOptions {
  std::string sweep_file;
  std::string out_dir;
  std::string executor = "local";
  int jobs = 0;  // 0: the number of cores
  bool dry_run = false;
  bool quick = false;
  std::optional<double> run_timeout_s;
  std::string partition, time_limit;
  int array_size = 0;  // 0: one task per pending run, at most 1000
  bool quiet = false;
  // Subcommands of `sweep` that work on a sweep folder.
  std::string folder;
  std::size_t slice = 0, slices = 1;
};

// Adds `sweep` and its subcommands to `app`; returns the `sweep` subcommand.
CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options);

// Runs whichever of them was given. Throws config::InputError for bad input.
int run_sweep_command(CLI::App& sweep, const SweepOptions& options);

}  // namespace cosched::cli
