#pragma once
// The NOW model's keys (platform, scheduler, workload), Brim & Miller 3.1 and docs/models/now.md.

#include <nlohmann/json.hpp>

#include "config/field.hpp"
#include "config/scenario.hpp"

namespace cosched::config {

NowConfig read_now(MapReader& top, const std::string& scenario_dir);
nlohmann::ordered_json now_json(const NowConfig& now);

}  // namespace cosched::config
