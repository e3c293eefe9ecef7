#pragma once
// `cosched host SCENARIO`: runs an SMP scenario's workload for real on this machine (issue 33; docs/host.md)
// and writes the same summary.json and jobs.csv as `cosched run`, with engine host.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "config/scenario.hpp"

namespace cosched::cli {

struct HostOptions {
  std::string scenario;
  std::string out_dir;  // default results/host/<name>/repetition-<K>/
  std::vector<std::string> sets;
  bool quiet = false;
  int repetition = 1;
};

// Adds `host` to `app`, its --seed bound to `seed`; returns it and sets `seed_option`.
CLI::App* add_host_command(CLI::App& app, HostOptions& options, std::string& seed, CLI::Option*& seed_option);

// Runs `scenario` (loaded from options.scenario with options.sets and the seed) on the host. Throws
// config::InputError for a scenario the host cannot run, before any thread starts or any file is written.
int run_host_command(const config::Scenario& scenario, const HostOptions& options);

}  // namespace cosched::cli
