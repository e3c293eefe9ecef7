#include "config/loader.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/field.hpp"
#include "config/input_error.hpp"
#include "config/now_section.hpp"
#include "config/smp_section.hpp"

namespace cosched::config {
namespace {

namespace fs = std::filesystem;

YAML::Node read_document(const std::string& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw InputError(fmt::format("{}: cannot read scenario: no such file", file));
  if (fs::is_directory(file, ec))
    throw InputError(fmt::format("{}: cannot read scenario: it is a directory, expected a YAML file", file));
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot read scenario: permission denied or unreadable", file));
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node document;
  try {
    document = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw InputError(
        fmt::format("{}:{}:{}: YAML syntax error: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!document || document.IsNull())
    throw InputError(
        fmt::format("{}: the scenario is empty; expected a mapping with at least 'model'", file));
  if (!document.IsMap())
    throw InputError(fmt::format("{}:{}:{}: expected a mapping of scenario keys at the top level", file,
                                 document.Mark().line + 1, document.Mark().column + 1));
  return document;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  std::string segment;
  std::istringstream in(path);
  while (std::getline(in, segment, '.')) out.push_back(segment);
  return out;
}

bool is_index(const std::string& segment) {
  return !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
}

// Applies one PATH=VALUE override to the document; VALUE is parsed as YAML (a scalar or a flow collection).
void apply_override(YAML::Node document, const std::string& text, Source& source) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--set {}: expected PATH=VALUE such as workload.nosync=43", text));
  const std::string path = text.substr(0, eq);
  const std::string where = "--set " + text;
  auto segments = split_path(path);
  for (const auto& s : segments)
    if (s.empty()) throw InputError(fmt::format("{}: {}: empty key in path", where, path));
  YAML::Node value;
  try {
    value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: {}: value is not valid YAML: {}", where, path, e.msg));
  }
  // Walk down; maps missing along the way are created (the validator rejects keys that do not exist).
  YAML::Node node = document;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& segment = segments[i];
    const bool last = i + 1 == segments.size();
    if (node.IsSequence()) {
      if (!is_index(segment))
        throw InputError(fmt::format("{}: {}: '{}' is a list, expected an item index", where, path, walked));
      auto index = std::stoul(segment);
      if (index >= node.size())
        throw InputError(fmt::format("{}: {}: '{}' has {} item(s), there is no item {}", where, path, walked,
                                     node.size(), index));
      if (last) {
        node[index] = value;
      } else {
        node.reset(node[index]);
      }
    } else {
      if (node.IsDefined() && !node.IsMap() && !node.IsNull())
        throw InputError(
            fmt::format("{}: {}: '{}' is a single value, it has no key '{}'", where, path, walked, segment));
      if (last) {
        node[segment] = value;
      } else {
        if (!node[segment]) node[segment] = YAML::Node(YAML::NodeType::Map);
        YAML::Node next = node[segment];
        node.reset(next);
      }
    }
    walked += (walked.empty() ? "" : ".") + segment;
  }
  source.overrides[path] = where;
}

}  // namespace

Scenario load_scenario(const std::string& file, const std::vector<std::string>& overrides) {
  YAML::Node document = read_document(file);
  // The Source must outlive every Field; keep it alive for the whole load.
  Source source{file, {}};
  for (const auto& text : overrides) apply_override(document, text, source);

  Field root(document, {}, &source);
  MapReader top(root, "a mapping of scenario keys");
  Scenario scenario;
  scenario.file = file;
  scenario.name = fs::path(file).stem().string();
  if (auto f = top.optional("name")) scenario.name = f->string();
  auto model = top.required("model");
  scenario.model = model.scalar("a model name: smp or now");
  if (auto f = top.optional("seed")) scenario.seed = f->seed();
  auto end_field = top.optional("end");
  if (auto& f = end_field) {
    auto text = f->scalar("all-jobs or first-finish");
    if (text == "all-jobs") {
      scenario.end = EndCondition::AllJobs;
    } else if (text == "first-finish") {
      scenario.end = EndCondition::FirstFinish;
    } else {
      f->fail("all-jobs or first-finish");
    }
  }
  const std::string dir = fs::path(file).parent_path().string();
  if (scenario.model == "smp") {
    scenario.model_config = read_smp(top, dir, scenario.end);
  } else if (scenario.model == "now") {
    if (scenario.end == EndCondition::FirstFinish)
      end_field->error("the now model supports end: all-jobs only");
    scenario.model_config = read_now(top, dir);
  } else {
    model.fail("a model name: smp or now");
  }
  top.finish();
  return scenario;
}

nlohmann::ordered_json resolved_json(const Scenario& scenario) {
  nlohmann::ordered_json out;
  out["name"] = scenario.name;
  out["model"] = scenario.model;
  out["seed"] = scenario.seed;
  out["end"] = scenario.end == EndCondition::AllJobs ? "all-jobs" : "first-finish";
  std::visit(
      [&](const auto& config) {
        nlohmann::ordered_json section;
        if constexpr (std::is_same_v<std::decay_t<decltype(config)>, SmpConfig>) {
          section = smp_json(config);
        } else {
          section = now_json(config);
        }
        for (const auto& [key, value] : section.items()) out[key] = value;
      },
      scenario.model_config);
  return out;
}

}  // namespace cosched::config
