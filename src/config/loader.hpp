#pragma once
// Loading a scenario: read the YAML file, apply --set overrides, validate into a typed Scenario.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/scenario.hpp"

namespace cosched::config {

// Throws InputError (one line, naming file:line:column and key path) on any problem.
Scenario load_scenario(const std::string& file, const std::vector<std::string>& overrides = {});

// The full scenario after defaults and overrides, as recorded in summary.json ("resolved").
nlohmann::ordered_json resolved_json(const Scenario& scenario);

}  // namespace cosched::config
