#pragma once
// From a scenario to an SMP machine, and from a finished machine to result fields. Pure: no SimGrid.

#include "config/scenario.hpp"
#include "metrics/run_record.hpp"
#include "smp/machine.hpp"

namespace cosched::smp {

// The machine a scenario describes, on `cpus` processors.
Machine build_machine(const config::Scenario& scenario, int cpus);

// The result record of a finished (or first-finish) machine: scenario, model, seed, makespan, jobs, events
// (the caller adds the platform, the resolved scenario and the wall-clock time).
metrics::SmpRunRecord summarize(const Machine& machine, const config::Scenario& scenario);

}  // namespace cosched::smp
