#pragma once
// The NOW model's keys (platform, scheduler, workload), Brim & Miller 3.1 and docs/models/now.md.

#include <nlohmann/json.hpp>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "scenario/calibration_file.hpp"

namespace cosched::config {

// `calibration`, when the scenario names one, gives scheduler.context_switch's default.
NowConfig read_now(MapReader& top, const std::string& scenario_dir, CalibratedCosts* calibration);
nlohmann::ordered_json now_json(const NowConfig& now);

}  // namespace cosched::config
