#include "scenario/run.hpp"

#include "numa/simulation.hpp"
#include "scenario/loader.hpp"
#include "smp/simulation.hpp"

namespace cosched::config {

metrics::RunRecord run(const Scenario& scenario, const metrics::RunHooks& hooks,
                       const now::RunOptions& now_options) {
  Scenario as_run = scenario;
  if (auto* now = std::get_if<NowConfig>(&as_run.model_config)) {
    auto record = now::run(scenario, hooks, now_options);
    now->workstations = record.platform.workstations;
    // An open workload's arrival_scale as applied (derived from `load` when given).
    if (now->stream && record.stream) now->stream->arrival_scale = record.stream->arrival_scale;
    record.resolved = resolved_json(as_run);
    return record;
  }
  if (auto* numa_config = std::get_if<NumaConfig>(&as_run.model_config)) {
    auto record = numa::run(scenario, hooks);
    numa_config->clusters = record.platform.clusters;
    record.resolved = resolved_json(as_run);
    return record;
  }
  auto record = smp::run(scenario, hooks);
  std::get<SmpConfig>(as_run.model_config).cpus = record.platform.cpus;
  record.resolved = resolved_json(as_run);
  return record;
}

}  // namespace cosched::config
