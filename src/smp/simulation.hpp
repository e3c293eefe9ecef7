#pragma once
// Runs the SMP model of a scenario on SimGrid: the machine actor drives the SMP machine on the SMP host.

#include <nlohmann/json.hpp>

#include "config/scenario.hpp"
#include "metrics/progress.hpp"

namespace cosched::smp {

// The SimGrid engine is a process-wide singleton: call once per process.
nlohmann::ordered_json run(const config::Scenario& scenario, const metrics::RunHooks& hooks);

}  // namespace cosched::smp
