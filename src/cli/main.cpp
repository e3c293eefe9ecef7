// cosched command line: `cosched run` and `cosched validate`.
// Exit codes: 0 success, 2 bad input (scenario or arguments), 1 internal failure.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <simgrid/s4u.hpp>
#include <variant>

#include "cli/calibrate_command.hpp"
#include "cli/host_command.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress_line.hpp"
#include "cli/summary_text.hpp"
#include "cli/sweep_command.hpp"
#include "cli/tree_command.hpp"
#include "config/input_error.hpp"
#include "metrics/result_files.hpp"
#include "metrics/run_record.hpp"
#include "now/simulation.hpp"
#include "scenario/loader.hpp"
#include "scenario/run.hpp"
#include "util/log.hpp"
#include "util/log_setting.hpp"
#include "util/signals_deferred.hpp"

namespace {

using namespace cosched;

constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

struct RunOptions {
  std::string scenario;
  std::string out_dir;
  std::optional<std::string> seed;
  std::vector<std::string> sets;
  bool quiet = false;
  now::RunOptions now;            // how a NOW run is driven
  std::vector<std::string> logs;  // SimGrid log settings (--log), e.g. cosched_now_wait.thresh:debug
};

config::Scenario load(const RunOptions& options) {
  auto scenario = config::load_scenario(options.scenario, options.sets);
  for (const auto& warning : scenario.warnings) fmt::print(stderr, "cosched: warning: {}\n", warning);
  if (options.seed) {
    const auto& text = *options.seed;
    std::uint64_t seed = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      throw config::InputError(fmt::format("--seed {}: expected a non-negative integer seed", text));
    config::set_seed(scenario, seed);  // draws the values given as distributions for this seed
  }
  return scenario;
}

// Errors are reported on one line, whatever a library put in their messages.
std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return text;
}

int validate(const RunOptions& options) {
  auto scenario = load(options);
  config::model_run(scenario).check_platform(scenario);
  fmt::print("{}: valid {} scenario '{}'\n", options.scenario, scenario.model, scenario.name);
  return 0;
}

int run(const RunOptions& options) {
  auto scenario = load(options);
  if (options.now.engine && !config::model_run(scenario).engines)
    throw config::InputError(fmt::format("--engine: applies to model {} only ({} is model {})",
                                         config::models_with_engines(), options.scenario, scenario.model));
  config::model_run(scenario).check_platform(scenario);
  // The output is checked, and its staging directory made, before the simulation: a run never ends in an
  // output it cannot write, and an earlier run's results stay until this run's are complete.
  std::optional<metrics::ResultStaging> staging;
  {
    util::SignalsDeferred deferred;  // an interruption from here on removes the staging directory
    staging.emplace(options.out_dir.empty() ? "results/" + scenario.name + "/" : options.out_dir);
    cli::remove_on_interrupt(staging->staging_dir());
  }
  cli::ProgressLine progress(!options.quiet);
  std::map<std::string, std::string> extra_files;
  const metrics::RunHooks hooks{progress.sink(), nullptr,
                                [&extra_files](const std::string& name, std::string content) {
                                  extra_files[name] = std::move(content);
                                }};
  const auto start = std::chrono::steady_clock::now();
  metrics::RunRecord record = config::run(scenario, hooks, options.now);
  progress.clear();
  const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  metrics::header(record).wall_seconds = wall_seconds;
  std::vector<std::string> file_names;
  {
    util::SignalsDeferred deferred;
    auto files = metrics::result_files(record);
    files.merge(extra_files);  // timeline.csv when output.timeline is on
    for (const auto& [name, content] : files) file_names.push_back(name);
    staging->commit(files);
    cli::remove_on_interrupt("");
  }
  if (!options.quiet)
    fmt::print("{}", cli::summary_text(metrics::summary_json(record), staging->out_dir(), file_names));
  return 0;
}

// The --log settings cosched passes to SimGrid, as SimGrid's parser takes them (it aborts on others).
CLI::Validator log_setting_check() {
  return CLI::Validator(
      [](const std::string& setting) -> std::string {
        const auto error = util::log_setting_error(setting);
        return error ? setting + ": " + *error : std::string();
      },
      "CATEGORY.thresh:LEVEL");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "cosched: simulates parallel jobs time-sharing machines, in three models: now (a network of "
      "workstations with local schedulers and implicit coscheduling), smp (a shared-memory multiprocessor, "
      "in "
      "cycles) and numa (SSS-CORE's gang-scheduled distributed shared memory)",
      "cosched"};
  app.footer(
      "A command's own options: cosched COMMAND --help. cosched run takes --out DIR, --seed N, --set "
      "PATH=VALUE "
      "(repeatable; PATH=~ removes the key), --quiet, and --log CATEGORY.thresh:LEVEL for the models' "
      "decision "
      "lines (repeatable; README, 'Why did it do that?').");
  app.set_version_flag("--version", std::string("cosched ") + COSCHED_VERSION);
  app.require_subcommand(1);
  RunOptions options;
  std::string seed;

  auto* run_cmd = app.add_subcommand("run", "Run one simulation, print a summary and write result files");
  run_cmd->add_option("scenario", options.scenario, "Scenario file (YAML)")->required();
  run_cmd->add_option("--out", options.out_dir,
                      "Directory for summary.json and jobs.csv (default results/<name>/)");
  auto* seed_opt = run_cmd->add_option("--seed", seed, "Random seed, overriding the scenario's 'seed'");
  run_cmd
      ->add_option("--set", options.sets,
                   "Override a scenario key: PATH=VALUE, e.g. workload.jobs.0.wait.spin=2CS+; PATH=~ removes "
                   "the key")
      ->allow_extra_args(false);
  run_cmd->add_flag("--quiet", options.quiet, "Print nothing on success and show no progress");
  run_cmd
      ->add_option_function<std::string>(
          "--engine",
          [&options](const std::string& name) {
            options.now.engine =
                name == "sequential" ? now::EngineKind::Sequential : now::EngineKind::SimGrid;
          },
          "NOW: who drives the workstations, sequential (default under platform.network logp) or simgrid "
          "(one SimGrid actor each; the only engine under shared)")
      ->check(CLI::IsMember({"sequential", "simgrid"}));
  // Diagnostics of the NOW model's simgrid engine: slower ways to the same results (tested).
  run_cmd
      ->add_flag("!--no-lookahead", options.now.lookahead,
                 "NOW, simgrid engine: wake every workstation's actor at each of its events")
      ->group("Diagnostics");
  run_cmd
      ->add_flag("--mailbox-per-pair", options.now.mailbox_per_pair,
                 "NOW, simgrid engine: one mailbox per talking pair of workstations")
      ->group("Diagnostics");
  run_cmd
      ->add_option("--log", options.logs,
                   "SimGrid log setting, e.g. --log=cosched_now_wait.thresh:debug (repeatable; README, "
                   "'Why did it do that?')")
      ->allow_extra_args(false)
      ->check(log_setting_check())
      ->group("Diagnostics");

  auto* validate_cmd = app.add_subcommand("validate", "Check a scenario file without running it");
  validate_cmd->add_option("scenario", options.scenario, "Scenario file (YAML)")->required();
  validate_cmd
      ->add_option("--set", options.sets, "Override a scenario key: PATH=VALUE; PATH=~ removes the key")
      ->allow_extra_args(false);

  cli::SweepOptions sweep_options;
  auto* sweep_cmd = cli::add_sweep_command(app, sweep_options);
  cli::TreeOptions tree_options;
  auto* tree_cmd = cli::add_tree_command(app, tree_options);
  cli::CalibrateOptions calibrate_options;
  auto* calibrate_cmd = cli::add_calibrate_command(app, calibrate_options);
  cli::HostOptions host_options;
  CLI::Option* host_seed_opt = nullptr;
  auto* host_cmd = cli::add_host_command(app, host_options, seed, host_seed_opt);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    std::cerr << "cosched: error: " << message << " (see cosched --help)\n";
    return kExitBadInput;
  }
  if (*seed_opt || *host_seed_opt) options.seed = seed;
  // Applied before any engine exists, so that they hold for the sequential engine, which never makes one.
  for (const auto& setting : options.logs) xbt_log_control_set(setting.c_str());
  cli::install_interrupt_handlers();

  try {
    if (*validate_cmd) return validate(options);
    if (*sweep_cmd) return cli::run_sweep_command(*sweep_cmd, sweep_options);
    if (*tree_cmd) return cli::run_tree_command(tree_options);
    if (*calibrate_cmd) return cli::run_calibrate_command(calibrate_options);
    if (*host_cmd) {
      options.scenario = host_options.scenario;  // loaded as `run` loads it: --set, then --seed
      options.sets = host_options.sets;
      return cli::run_host_command(load(options), host_options);
    }
    return run(options);
  } catch (const config::InputError& e) {
    std::cerr << "cosched: error: " << one_line(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "cosched: internal error: " << one_line(e.what()) << "\n";
    return kExitInternal;
  }
}
