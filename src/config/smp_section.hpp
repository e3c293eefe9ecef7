#pragma once
// The SMP model's keys (platform, scheduler, workload), Tsafrir thesis table 2.1.

#include <nlohmann/json.hpp>

#include "config/field.hpp"
#include "config/scenario.hpp"

namespace cosched::config {

SmpConfig read_smp(MapReader& top, const std::string& scenario_dir, EndCondition end);
nlohmann::ordered_json smp_json(const SmpConfig& smp);

// A duration in whole cycles or a percentage of the quantum (rounded to the nearest cycle), checked.
Cycles smp_cycles(const Field& f, Cycles quantum, std::string_view expected);

// Exposed for tests: thesis 2.2.2, sigma = INTERVAL / z((1 + DENSITY/100) / 2).
double sigma_from_symbolic(double density_percent, double interval_cycles);

}  // namespace cosched::config
