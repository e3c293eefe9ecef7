#pragma once
// One run of the NUMA model (docs/models/numa.md): the machine, driven slice by slice from a SimGrid actor
// on the tree platform.

#include "config/scenario.hpp"
#include "metrics/progress.hpp"
#include "metrics/run_record.hpp"

namespace cosched::numa {

metrics::NumaRunRecord run(const config::Scenario& scenario, const metrics::RunHooks& hooks);

// Loads and checks the scenario's platform file (for `cosched validate` and the child-process check).
void check_platform(const config::Scenario& scenario);

}  // namespace cosched::numa
