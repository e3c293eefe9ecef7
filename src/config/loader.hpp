#pragma once
// Loading a scenario: read the YAML file, apply --set overrides, validate into a typed Scenario.

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/scenario.hpp"

namespace cosched::config {

// Reads a YAML file whose top level is a mapping (a scenario or a sweep file: `what`), within the input
// limits (a regular file, its size, nesting, no key twice). Throws InputError; `empty_hint` says what an
// empty file lacks.
YAML::Node read_yaml_mapping(const std::string& file, const std::string& what, const std::string& empty_hint);

// Throws InputError (one line, naming file:line:column and key path) on any problem.
Scenario load_scenario(const std::string& file, const std::vector<std::string>& overrides = {});

// The full scenario after defaults and overrides, as recorded in summary.json ("resolved").
nlohmann::ordered_json resolved_json(const Scenario& scenario);

}  // namespace cosched::config
