#include "scenario/run.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "numa/simulation.hpp"
#include "platform/engine.hpp"
#include "platform/platform_check.hpp"
#include "platform/smp_platform.hpp"
#include "scenario/loader.hpp"
#include "smp/setup.hpp"
#include "smp/simulation.hpp"
#include "util/registry.hpp"

namespace cosched::config {
namespace {

// Each model's run writes the platform's size it found into `as_run` (the scenario as it was run).
const ModelRun kModelRuns[] = {
    {"smp",
     [](const Scenario& scenario, const metrics::RunHooks& hooks, const now::RunOptions&,
        Scenario& as_run) -> metrics::RunRecord {
       auto record = smp::run(scenario, hooks);
       std::get<SmpConfig>(as_run.model_config).cpus = record.platform.cpus;
       return record;
     },
     [](const Scenario& scenario) {
       const auto& smp = std::get<SmpConfig>(scenario.model_config);
       if (smp.platform_file.empty()) return;
       platform::check_in_child_process(smp.platform_file, [&smp, &scenario] {
         auto engine = platform::make_engine();
         const auto host = platform::build_smp_platform(*engine, smp);
         smp::build_machine(scenario, host.cpus);  // what only the file's core count can tell
       });
     }},
    {"now",
     [](const Scenario& scenario, const metrics::RunHooks& hooks, const now::RunOptions& now_options,
        Scenario& as_run) -> metrics::RunRecord {
       auto record = now::run(scenario, hooks, now_options);
       auto& now = std::get<NowConfig>(as_run.model_config);
       now.workstations = record.platform.workstations;
       // An open workload's arrival_scale as applied (derived from `load` when given).
       if (now.stream && record.stream) now.stream->arrival_scale = record.stream->arrival_scale;
       return record;
     },
     [](const Scenario& scenario) {
       const auto& now = std::get<NowConfig>(scenario.model_config);
       if (!now.platform_file.empty())
         platform::check_in_child_process(now.platform_file, [&scenario] { now::check_platform(scenario); });
     },
     true},
    {"numa",
     [](const Scenario& scenario, const metrics::RunHooks& hooks, const now::RunOptions&,
        Scenario& as_run) -> metrics::RunRecord {
       auto record = numa::run(scenario, hooks);
       std::get<NumaConfig>(as_run.model_config).clusters = record.platform.clusters;
       return record;
     },
     [](const Scenario& scenario) {
       platform::check_in_child_process(std::get<NumaConfig>(scenario.model_config).platform_file,
                                        [&scenario] { numa::check_platform(scenario); });
     }},
};

}  // namespace

const ModelRun& model_run(const Scenario& scenario) {
  const auto it = std::find_if(std::begin(kModelRuns), std::end(kModelRuns),
                               [&](const ModelRun& m) { return m.name == scenario.model; });
  if (it == std::end(kModelRuns))
    throw std::logic_error("model_run: no run for model '" + scenario.model +
                           "'");  // a loaded scenario has one
  return *it;
}

std::string models_with_engines() {
  std::vector<std::string_view> names;
  for (const auto& m : kModelRuns)
    if (m.engines) names.push_back(m.name);
  return util::join_list(names, " and ");
}

metrics::RunRecord run(const Scenario& scenario, const metrics::RunHooks& hooks,
                       const now::RunOptions& now_options) {
  Scenario as_run = scenario;
  auto record = model_run(scenario).run(scenario, hooks, now_options, as_run);
  metrics::header(record).resolved = resolved_json(as_run);
  return record;
}

}  // namespace cosched::config
