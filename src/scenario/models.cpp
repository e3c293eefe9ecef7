#include "scenario/models.hpp"

#include <algorithm>
#include <vector>

#include "util/registry.hpp"

namespace cosched::config {

std::span<const ModelEntry* const> models() {
  static const ModelEntry* const kModels[] = {&kSmpModel, &kNowModel, &kNumaModel};
  return kModels;
}

const ModelEntry* find_model(std::string_view name) {
  const auto all = models();
  const auto it =
      std::find_if(all.begin(), all.end(), [name](const ModelEntry* m) { return m->name == name; });
  return it == all.end() ? nullptr : *it;
}

std::vector<std::string_view> model_names() {
  std::vector<std::string_view> names;
  for (const auto* model : models()) names.push_back(model->name);
  return names;
}

std::string expected_model() {
  return "a model name: " + util::join_list(model_names(), " or ");
}

}  // namespace cosched::config
