#pragma once
// The NUMA model's keys (platform, scheduler, memory, workload; docs/scenario-format.md section 10),
// Nobukuni 1997 tables 5.1-5.3.

#include <nlohmann/json.hpp>
#include <string>

#include "config/field.hpp"
#include "config/scenario.hpp"

namespace cosched::config {

NumaConfig read_numa(MapReader& top, const std::string& scenario_dir, EndCondition end);
nlohmann::ordered_json numa_json(const NumaConfig& numa);

}  // namespace cosched::config
