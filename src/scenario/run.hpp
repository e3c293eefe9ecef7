#pragma once
// One run of a loaded scenario: the model it names runs it, and the record gets the scenario as it was run
// (summary.json "resolved"), with the platform's size as the model found it (also from a platform file).
// The SimGrid side of the model registry (scenario/models.hpp): each model's run and platform check.

#include <string>
#include <string_view>

#include "config/scenario.hpp"
#include "metrics/run_record.hpp"
#include "now/simulation.hpp"

namespace cosched::config {

struct ModelRun {
  std::string_view name;  // the model's name, as in its ModelEntry
  // Runs the scenario; the record's `resolved` is filled in by run() below.
  metrics::RunRecord (*run)(const Scenario& scenario, const metrics::RunHooks& hooks,
                            const now::RunOptions& now_options, Scenario& as_run);
  // Loads and checks the scenario's platform file, if it names one, in a child process: SimGrid aborts or
  // crashes on some bad files, and that must end as one line of bad input.
  void (*check_platform)(const Scenario& scenario);
  // It takes `cosched run --engine` (the NOW model: its sequential and SimGrid engines).
  bool engines = false;
};

// The run side of the scenario's model.
const ModelRun& model_run(const Scenario& scenario);
// The models that take --engine: "now".
std::string models_with_engines();

metrics::RunRecord run(const Scenario& scenario, const metrics::RunHooks& hooks,
                       const now::RunOptions& now_options = {});

}  // namespace cosched::config
