#pragma once
// The model registry: one entry per model a scenario's `model` key names (smp, now, numa), with what the
// loader asks of it. Each model declares its entry beside its section reader (scenario/<model>_section.cpp);
// the loader looks the model up and never branches on its name. The steps that need SimGrid (the platform
// check and the run) are the same lookup one library up, in scenario/run.cpp.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/field.hpp"
#include "config/limits.hpp"
#include "config/scenario.hpp"
#include "scenario/calibration_file.hpp"

namespace cosched::config {

using ModelConfig = decltype(Scenario::model_config);

// What a model's section reader is given: the scenario's top-level keys, its folder (for the files it
// names), the end condition (a model may refuse the one given or default the one left out, `end_field`
// being the key when given) and the costs of a calibration file, when the scenario names one.
struct ModelInput {
  MapReader& top;
  const std::string& dir;
  EndCondition& end;
  const std::optional<Field>& end_field;
  CalibratedCosts* calibration;
};

struct ModelEntry {
  std::string_view name;
  // Why the model takes no `calibration` file, the refusal's message; empty when it takes one.
  std::string_view no_calibration;
  // The costs it takes from a calibration file's scenario_keys (calibrated_cycles, calibrated_duration);
  // null exactly when no_calibration is given.
  void (*calibration_keys)(MapReader& scenario_keys, CalibratedCosts& costs);
  ModelConfig (*read)(ModelInput& input);
  nlohmann::ordered_json (*resolved)(const ModelConfig& config);  // the model's part of `resolved`
  // Draws the values the scenario gives as distributions, for the run's seed (null: the model has none).
  void (*draw)(ModelConfig& config, std::uint64_t seed);
  // Its footprint (docs/scenario-format.md, "Limits" and "Traces"; the rules are the model's own, in
  // <model>/footprint): the whole run's trace estimate, and the refusal of a scenario too large for the
  // limits, naming the key (below the document's `root`) that tips it over.
  limits::TraceEstimate (*trace_estimate)(const ModelConfig& config);
  void (*check_limits)(const ModelConfig& config, const Field& root);
  // What `cosched run` prints of a run, from its summary.json (metrics/summary_text.hpp).
  std::string (*summary_lines)(const nlohmann::ordered_json& summary);
};

extern const ModelEntry kSmpModel;   // scenario/smp_section.cpp
extern const ModelEntry kNowModel;   // scenario/now_section.cpp
extern const ModelEntry kNumaModel;  // scenario/numa_section.cpp

// Every model, in the order the error for an unknown one lists them.
std::span<const ModelEntry* const> models();
const ModelEntry* find_model(std::string_view name);
// Every model's name, in that order: smp, now, numa.
std::vector<std::string_view> model_names();
// "a model name: smp, now or numa": what the `model` key expects.
std::string expected_model();

}  // namespace cosched::config
