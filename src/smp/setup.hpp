#pragma once
// From a scenario to an SMP machine, and from a finished machine to result fields. Pure: no SimGrid.

#include <nlohmann/json.hpp>

#include "config/scenario.hpp"
#include "smp/machine.hpp"

namespace cosched::smp {

// The machine a scenario describes, on `cpus` processors.
Machine build_machine(const config::Scenario& scenario, int cpus);

// Result fields of a finished (or first-finish) machine: scenario, model, seed, makespan, ssr, jobs, events.
nlohmann::ordered_json summarize(const Machine& machine, const config::Scenario& scenario);

}  // namespace cosched::smp
