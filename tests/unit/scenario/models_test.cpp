// The model registry (src/scenario/models.hpp): every model once, in the order the unknown-model error lists
// them, found by name only as written, and each entry's own rules (calibration, end condition, resolved
// form, draws, footprint).

#include "scenario/models.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"

namespace cosched::config {
namespace {

const std::filesystem::path kScenarios = std::filesystem::path(COSCHED_SOURCE_DIR) / "scenarios";

TEST(ModelRegistry, EveryModelOnceInTheErrorsOrder) {
  std::vector<std::string_view> names;
  for (const auto* model : models()) names.push_back(model->name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"smp", "now", "numa"}));
  EXPECT_EQ(expected_model(), "a model name: smp, now or numa");
  for (const auto* model : models()) EXPECT_EQ(find_model(model->name), model);
  EXPECT_EQ(find_model("NOW"), nullptr) << "names are matched as written";
  EXPECT_EQ(find_model(""), nullptr);
}

TEST(ModelRegistry, OnlyNumaRefusesACalibration) {
  EXPECT_TRUE(kSmpModel.no_calibration.empty());
  EXPECT_TRUE(kNowModel.no_calibration.empty());
  EXPECT_NE(kNumaModel.no_calibration.find("no key a calibration feeds"), std::string_view::npos);
  for (const auto* model : models())
    EXPECT_EQ(model->calibration_keys == nullptr, !model->no_calibration.empty())
        << model->name << ": reads a calibration's keys exactly when it takes one";
}

// Only SMP scenarios give values as distributions (thesis 5.1.3), drawn per seed by the entry's draw.
TEST(ModelRegistry, OnlySmpDrawsValuesForTheSeed) {
  EXPECT_NE(kSmpModel.draw, nullptr);
  EXPECT_EQ(kNowModel.draw, nullptr);
  EXPECT_EQ(kNumaModel.draw, nullptr);
}

// Every entry's footprint and summary lines are set: the loader and the CLI call them unchecked.
TEST(ModelRegistry, EveryEntryHasItsFootprintAndSummaryLines) {
  for (const auto* model : models()) {
    EXPECT_NE(model->trace_estimate, nullptr) << model->name;
    EXPECT_NE(model->check_limits, nullptr) << model->name;
    EXPECT_NE(model->summary_lines, nullptr) << model->name;
  }
}

// The entry's resolved form is the model's part of `resolved`, after the keys every scenario has.
TEST(ModelRegistry, EachEntryGivesItsModelsPartOfResolved) {
  for (const char* file : {"quickstart.yaml", "now-quickstart.yaml", "nobukuni/set-a.yaml"}) {
    const auto scenario = load_scenario((kScenarios / file).string());
    const auto whole = resolved_json(scenario);
    const auto part = find_model(scenario.model)->resolved(scenario.model_config);
    ASSERT_FALSE(part.empty()) << file;
    for (const auto& [key, value] : part.items()) EXPECT_EQ(whole.at(key), value) << file << ": " << key;
  }
}

// The models' own rules on `end`: numa defaults to first-finish, now refuses it.
TEST(ModelRegistry, TheModelsRulesOnTheEndCondition) {
  EXPECT_EQ(load_scenario((kScenarios / "nobukuni/set-a.yaml").string()).end, EndCondition::FirstFinish);
  EXPECT_EQ(load_scenario((kScenarios / "now-quickstart.yaml").string()).end, EndCondition::AllJobs);
  EXPECT_THROW(load_scenario((kScenarios / "now-quickstart.yaml").string(), {"end=first-finish"}),
               InputError);
}

}  // namespace
}  // namespace cosched::config
