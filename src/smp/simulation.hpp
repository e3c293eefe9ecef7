#pragma once
// Runs the SMP model of a scenario on SimGrid: the machine actor drives the SMP machine on the SMP host.

#include "config/scenario.hpp"
#include "metrics/progress.hpp"
#include "metrics/run_record.hpp"

namespace cosched::smp {

// The SimGrid engine is a process-wide singleton: call once per process. The record's wall_seconds is the
// caller's to set.
metrics::SmpRunRecord run(const config::Scenario& scenario, const metrics::RunHooks& hooks);

}  // namespace cosched::smp
