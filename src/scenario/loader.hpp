#pragma once
// Loading a scenario: read the YAML file, apply --set overrides, validate into a typed Scenario.

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/field.hpp"
#include "config/scenario.hpp"

namespace cosched::config {

// Reads a YAML file whose top level is a mapping (a scenario or a sweep file: `what`), within the input
// limits (a regular file, its size, nesting, no key twice). Throws InputError; `empty_hint` says what an
// empty file lacks.
YAML::Node read_yaml_mapping(const std::string& file, const std::string& what, const std::string& empty_hint);

// Throws InputError (one line, naming file:line:column and key path) on any problem.
Scenario load_scenario(const std::string& file, const std::vector<std::string>& overrides = {});

// The scenario file's document with the overrides applied, not validated (a sweep's series reads its job
// template from it). `source` learns where each overridden value came from; it must outlive the Fields read
// from the document.
YAML::Node scenario_document(const std::string& file, const std::vector<std::string>& overrides,
                             Source& source);

// Sets the run's seed and draws the values given as distributions for it (thesis 5.1.3): a seed given
// after loading (--seed, a sweep's seeds) goes through here, never straight into scenario.seed.
void set_seed(Scenario& scenario, std::uint64_t seed);

// The full scenario after defaults and overrides, as recorded in summary.json ("resolved").
nlohmann::ordered_json resolved_json(const Scenario& scenario);

}  // namespace cosched::config
