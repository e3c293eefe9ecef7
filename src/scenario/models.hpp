#pragma once
// The model registry: one entry per model a scenario's `model` key names (smp, now, numa), with what the
// loader asks of it. Each model declares its entry beside its section reader (scenario/<model>_section.cpp);
// the loader looks the model up and never branches on its name. The steps that need SimGrid (the platform
// check and the run) are the same lookup one library up, in scenario/run.cpp.

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "config/field.hpp"
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
  ModelConfig (*read)(ModelInput& input);
  nlohmann::ordered_json (*resolved)(const ModelConfig& config);  // the model's part of `resolved`
};

extern const ModelEntry kSmpModel;   // scenario/smp_section.cpp
extern const ModelEntry kNowModel;   // scenario/now_section.cpp
extern const ModelEntry kNumaModel;  // scenario/numa_section.cpp

// Every model, in the order the error for an unknown one lists them.
std::span<const ModelEntry* const> models();
const ModelEntry* find_model(std::string_view name);
// "a model name: smp, now or numa": what the `model` key expects.
std::string expected_model();

}  // namespace cosched::config
