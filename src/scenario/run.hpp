#pragma once
// One run of a loaded scenario: the model it names runs it, and the record gets the scenario as it was run
// (summary.json "resolved"), with the platform's size as the model found it (also from a platform file).

#include "config/scenario.hpp"
#include "metrics/run_record.hpp"
#include "now/simulation.hpp"

namespace cosched::config {

metrics::RunRecord run(const Scenario& scenario, const metrics::RunHooks& hooks,
                       const now::RunOptions& now_options = {});

}  // namespace cosched::config
