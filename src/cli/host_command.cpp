#include "cli/host_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <optional>

#include "cli/interrupt.hpp"
#include "host/host_run.hpp"
#include "metrics/result_files.hpp"
#include "metrics/run_record.hpp"
#include "metrics/summary_text.hpp"
#include "platform/engine.hpp"
#include "platform/smp_platform.hpp"
#include "scenario/loader.hpp"
#include "scenario/run.hpp"
#include "util/signals_deferred.hpp"

namespace cosched::cli {
namespace {

// The SMP platform's size as the model finds it: a platform file is checked in a child process first (SimGrid
// aborts on some bad files), as `cosched run` does, then loaded for its host's cores and speed.
host::PlatformSize platform_size(const config::Scenario& scenario) {
  const auto* smp = std::get_if<config::SmpConfig>(&scenario.model_config);
  if (!smp) return {};  // refused by plan_host_run, at `model`
  if (smp->platform_file.empty()) return {smp->cpus, platform::kDefaultCyclesPerSecond, false};
  config::model_run(scenario).check_platform(scenario);
  auto engine = platform::make_engine();
  const auto host = platform::build_smp_platform(*engine, *smp);
  return {host.cpus, host.cycles_per_second, true};
}

std::string summary_text(const nlohmann::ordered_json& s, const std::string& out_dir,
                         const std::vector<std::string>& files) {
  const auto& host = s.at("host");
  return fmt::format("cosched: host run of scenario '{}' (model smp, seed {}, repetition {})\n",
                     s.at("scenario").get<std::string>(), s.at("seed").get<unsigned long long>(),
                     s.at("repetition").get<int>()) +
         fmt::format(
             "  host         {} ({}) on CPUs {}, Linux {}, {:.6g} cycles/s ({})\n",
             s.at("host_policy").get<std::string>(), host.at("kernel_scheduler").get<std::string>(),
             fmt::join(host.at("cpus").get<std::vector<int>>(), ","), s.at("kernel").get<std::string>(),
             s.at("platform").at("cycles_per_second").get<double>(), host.at("clock").get<std::string>()) +
         metrics::smp_summary_lines(s) +
         fmt::format("  wall         {:.3f} s\n  results      {} ({})\n", s.at("wall_seconds").get<double>(),
                     out_dir, fmt::join(files, ", "));
}

}  // namespace

CLI::App* add_host_command(CLI::App& app, HostOptions& options, std::string& seed,
                           CLI::Option*& seed_option) {
  auto* host = app.add_subcommand("host",
                                  "Run an SMP scenario's threads for real on this machine (SCHED_OTHER or "
                                  "SCHED_RR; docs/host.md) and write "
                                  "the same result files as run");
  host->add_option("scenario", options.scenario, "Scenario file (YAML), model smp")->required();
  host->add_option("--out", options.out_dir,
                   "Directory for summary.json and jobs.csv (default results/host/<name>/repetition-<K>/)");
  seed_option = host->add_option("--seed", seed, "Random seed, overriding the scenario's 'seed'");
  host->add_option("--set", options.sets, "Override a scenario key: PATH=VALUE; PATH=~ removes the key")
      ->allow_extra_args(false);
  host->add_option("--repetition", options.repetition,
                   "Which run of a series this is, recorded in summary.json (default 1)")
      ->check(CLI::Range(1, 1'000'000));
  host->add_flag("--quiet", options.quiet, "Print nothing on success");
  return host;
}

int run_host_command(const config::Scenario& scenario, const HostOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const host::HostPlan plan =
      host::plan_host_run(scenario, options.sets, platform_size(scenario), options.repetition);
  // As `cosched run`: the output is checked and staged before anything runs, and an earlier run's results
  // stay until this run's are complete.
  std::optional<metrics::ResultStaging> staging;
  {
    util::SignalsDeferred deferred;
    staging.emplace(options.out_dir.empty()
                        ? fmt::format("results/host/{}/repetition-{}/", scenario.name, options.repetition)
                        : options.out_dir);
    remove_on_interrupt(staging->staging_dir());
  }
  metrics::SmpRunRecord record = host::run_on_host(scenario, plan);
  config::Scenario as_run = scenario;
  std::get<config::SmpConfig>(as_run.model_config).cpus = static_cast<int>(plan.cpus.size());
  record.resolved = config::resolved_json(as_run);
  record.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> file_names;
  {
    util::SignalsDeferred deferred;
    const auto files = metrics::result_files(record);
    for (const auto& [name, content] : files) file_names.push_back(name);
    staging->commit(files);
    remove_on_interrupt("");
  }
  if (!options.quiet)
    fmt::print("{}", summary_text(metrics::summary_json(record), staging->out_dir(), file_names));
  return 0;
}

}  // namespace cosched::cli
