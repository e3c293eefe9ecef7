#include "scenario/loader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "config/field.hpp"
#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "scenario/calibration_file.hpp"
#include "scenario/models.hpp"
#include "scenario/now_section.hpp"
#include "scenario/numa_section.hpp"
#include "util/nearest_name.hpp"

namespace cosched::config {
namespace {

namespace fs = std::filesystem;

// Parses YAML text; `where` names it in errors ("file" or "--set PATH=VALUE").
YAML::Node parse_yaml(const std::string& text, const std::string& where) {
  try {
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp stops at a few hundred levels with the message "bad file"; say what is wrong.
    throw InputError(
        fmt::format("{}:{}:{}: YAML nested too deeply; expected at most {} levels of mappings "
                    "and lists",
                    where, e.mark.line + 1, e.mark.column + 1, limits::kMaxNestingDepth));
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw InputError(fmt::format("{}: YAML syntax error: {}", where, e.msg));
    throw InputError(
        fmt::format("{}:{}:{}: YAML syntax error: {}", where, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

// Refuses a key given twice in one mapping (yaml-cpp keeps both and lookups find the first, so the second
// would be silently ignored) and nesting deeper than the limit. Iterative: depth is what it checks.
void check_structure(const Field& top) {
  std::vector<std::pair<Field, int>> pending{{top, 1}};
  while (!pending.empty()) {
    auto [field, depth] = pending.back();
    pending.pop_back();
    const YAML::Node& node = field.node();
    if (!node.IsMap() && !node.IsSequence()) continue;
    if (depth > limits::kMaxNestingDepth)
      field.error(fmt::format("nested too deeply; expected at most {} levels of mappings and lists",
                              limits::kMaxNestingDepth));
    if (node.IsSequence()) {
      for (std::size_t i = 0; i < node.size(); ++i)
        pending.emplace_back(field.child(node[i], std::to_string(i)), depth + 1);
      continue;
    }
    std::map<std::string, YAML::Mark> seen;
    for (const auto& entry : node) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "(a non-scalar key)";
      const auto [first, inserted] = seen.emplace(key, entry.first.Mark());
      if (!inserted) {
        const auto& mark = first->second;
        field.child(entry.first, key)
            .error(mark.is_null() ? std::string("key given twice in one mapping; expected each key once")
                                  : fmt::format("key given twice in one mapping (first at line {}, column "
                                                "{}); expected each key once",
                                                mark.line + 1, mark.column + 1));
      }
      pending.emplace_back(field.child(entry.second, key), depth + 1);
    }
  }
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80           ? 1
                               : (byte >> 5) == 0x6  ? 2
                               : (byte >> 4) == 0xE  ? 3
                               : (byte >> 3) == 0x1E ? 4
                                                     : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return false;
    i += length;
  }
  return true;
}

// The scenario's name names its default result folder, results/<name>/: one plain folder name, which
// cannot lead out of results/.
std::string result_name(const Field& f) {
  const std::string name = f.string();
  const std::string expected = fmt::format(
      "a name of 1 to {} bytes of UTF-8 text without '/', '\\' or control characters, other "
      "than '.' and '..' (it names the folder results/<name>/)",
      limits::kMaxNameBytes);
  if (name.size() > limits::kMaxNameBytes || name == "." || name == ".." ||
      name.find_first_of("/\\") != std::string::npos || !valid_utf8(name) ||
      std::any_of(name.begin(), name.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    f.fail(expected);
  return name;
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

// The item of a list of `size` items that `segment` names, when it is an index below `size`.
std::optional<std::size_t> item_index(const std::string& segment, std::size_t size) {
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), index);
  if (!is_index(segment) || ec != std::errc() || end != segment.data() + segment.size() || index >= size)
    return std::nullopt;
  return index;
}

// Applies `--set PATH=~` (or `=null`): removes the key or list item at PATH, which must be there.
void remove_key(YAML::Node document, const std::vector<std::string>& segments, const std::string& where,
                const std::string& path) {
  YAML::Node node = document;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& segment = segments[i];
    const bool last = i + 1 == segments.size();
    YAML::Node next;
    if (node.IsSequence()) {
      const auto index = item_index(segment, node.size());
      if (!index)
        throw InputError(fmt::format("{}: {}: '{}' is a list of {} item(s), there is no item {} to remove",
                                     where, path, walked, node.size(), segment));
      if (last) {
        node.remove(*index);
        return;
      }
      next = node[*index];
    } else {
      if (!node.IsMap() || !node[segment]) {
        std::vector<std::string> keys;
        if (node.IsMap())
          for (const auto& entry : node) keys.push_back(entry.first.Scalar());
        const auto nearest = util::nearest_name(segment, keys);
        throw InputError(fmt::format("{}: {}: {} has no key '{}' to remove{}", where, path,
                                     walked.empty() ? "the scenario" : "'" + walked + "'", segment,
                                     nearest ? fmt::format("; did you mean '{}'?", *nearest) : ""));
      }
      if (last) {
        node.remove(segment);
        return;
      }
      next = node[segment];
    }
    node.reset(next);
    walked += (walked.empty() ? "" : ".") + segment;
  }
}

// Applies one PATH=VALUE override to the document; VALUE is parsed as YAML (a scalar or a flow collection).
// A null VALUE (~ or null) removes the key instead.
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
  } catch (const YAML::DeepRecursion&) {
    throw InputError(
        fmt::format("{}: {}: value nested too deeply; expected at most {} levels of mappings "
                    "and lists",
                    where, path, limits::kMaxNestingDepth));
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: {}: value is not valid YAML: {}", where, path, e.msg));
  }
  if (text.size() == eq + 1)
    throw InputError(fmt::format("{}: {}: expected a value after '=' (PATH=~ removes the key)", where, path));
  if (value.IsNull()) {
    remove_key(document, segments, where, path);
    return;
  }
  Source value_source{where, {{path, where}}, {}};
  check_structure(Field(value, segments, &value_source));
  // Walk down; maps missing along the way are created (the validator rejects keys that do not exist).
  YAML::Node node = document;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& segment = segments[i];
    const bool last = i + 1 == segments.size();
    if (node.IsSequence()) {
      if (!is_index(segment))
        throw InputError(fmt::format("{}: {}: '{}' is a list, expected an item index", where, path, walked));
      const auto index = item_index(segment, node.size());
      if (!index)
        throw InputError(fmt::format("{}: {}: '{}' has {} item(s), there is no item {}", where, path, walked,
                                     node.size(), segment));
      if (last) {
        node[*index] = value;
      } else {
        node.reset(node[*index]);
      }
    } else {
      if (node.IsDefined() && !node.IsMap() && !node.IsNull())
        throw InputError(
            fmt::format("{}: {}: '{}' is a single value, it has no key '{}'", where, path, walked, segment));
      if (last) {
        node[segment] = value;
      } else {
        if (!node[segment]) {
          node[segment] = YAML::Node(YAML::NodeType::Map);
          // A mapping the override made is the override's: an unknown key in it is named by the --set.
          source.overrides[walked + (walked.empty() ? "" : ".") + segment] = where;
        }
        YAML::Node next = node[segment];
        node.reset(next);
      }
    }
    walked += (walked.empty() ? "" : ".") + segment;
  }
  source.overrides[path] = where;
}

}  // namespace

YAML::Node read_yaml_mapping(const std::string& file, const std::string& what,
                             const std::string& empty_hint) {
  std::error_code ec;
  const auto status = fs::status(file, ec);
  if (!fs::exists(status)) throw InputError(fmt::format("{}: cannot read {}: no such file", file, what));
  if (fs::is_directory(status))
    throw InputError(fmt::format("{}: cannot read {}: it is a directory, expected a YAML file", file, what));
  // A FIFO would block and a device such as /dev/zero never ends: only regular files are scenarios.
  if (!fs::is_regular_file(status))
    throw InputError(fmt::format("{}: cannot read {}: not a regular file, expected a YAML file", file, what));
  const auto size = fs::file_size(file, ec);
  if (!ec && size > limits::kMaxScenarioBytes)
    throw InputError(fmt::format("{}: cannot read {}: {} bytes, expected a YAML file of at most {} bytes",
                                 file, what, size, limits::kMaxScenarioBytes));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read {}: permission denied or unreadable", file, what));
  // Read at most one byte past the limit, in case the file grows while it is read.
  std::string text(limits::kMaxScenarioBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > limits::kMaxScenarioBytes)
    throw InputError(fmt::format("{}: cannot read {}: expected a YAML file of at most {} bytes", file, what,
                                 limits::kMaxScenarioBytes));
  YAML::Node document = parse_yaml(text, file);
  if (!document || document.IsNull())
    throw InputError(fmt::format("{}: the {} is empty; expected a mapping with {}", file, what, empty_hint));
  if (!document.IsMap())
    throw InputError(fmt::format("{}:{}:{}: expected a mapping of {} keys at the top level", file,
                                 document.Mark().line + 1, document.Mark().column + 1, what));
  Source source{file, {}, {}};
  check_structure(Field(document, {}, &source));
  return document;
}

YAML::Node scenario_document(const std::string& file, const std::vector<std::string>& overrides,
                             Source& source) {
  YAML::Node document = read_yaml_mapping(file, "scenario", "at least 'model'");
  for (const auto& text : overrides) apply_override(document, text, source);
  return document;
}

void set_seed(Scenario& scenario, std::uint64_t seed) {
  scenario.seed = seed;
  if (const auto draw = find_model(scenario.model)->draw) draw(scenario.model_config, seed);
}

Scenario load_scenario(const std::string& file, const std::vector<std::string>& overrides) {
  Source source{file, {}, {}};  // outlives every Field of the load
  YAML::Node document = scenario_document(file, overrides, source);

  Field root(document, {}, &source);
  MapReader top(root, "a mapping of scenario keys");
  Scenario scenario;
  scenario.file = file;
  scenario.name = fs::path(file).stem().string();
  if (auto f = top.optional("name")) scenario.name = result_name(*f);
  auto model_field = top.required("model");
  scenario.model = model_field.scalar(expected_model());
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
  const ModelEntry* model = find_model(scenario.model);
  if (!model) model_field.fail(expected_model());
  const std::string dir = fs::path(file).parent_path().string();
  // calibration: FILE, the costs `cosched calibrate` measured as defaults (docs/calibration.md, section 6).
  auto calibration_field = top.optional("calibration");
  std::optional<CalibratedCosts> calibration;
  if (calibration_field) {
    if (!model->no_calibration.empty()) calibration_field->error(model->no_calibration);
    calibration = read_calibration(*calibration_field, dir, model->calibration_keys);
  }
  ModelInput input{top, dir, scenario.end, end_field, calibration ? &*calibration : nullptr};
  scenario.model_config = model->read(input);
  top.finish();
  if (calibration) {
    for (const auto& warning : calibration->warnings) calibration_field->warn(warning);
    scenario.calibration = std::move(calibration->record);
  }
  // The model's limits: the trace's first (the other checks look keys up in the document, which rebinds
  // its nodes as they go down).
  const auto& output = std::visit([](const auto& config) -> const OutputConfig& { return config.output; },
                                  scenario.model_config);
  limits::check_trace(output, limits::traced(output, model->trace_estimate(scenario.model_config)), root);
  model->check_limits(scenario.model_config, root);
  scenario.warnings = std::move(source.warnings);
  set_seed(scenario, scenario.seed);  // the values given as distributions, drawn for this seed
  return scenario;
}

nlohmann::ordered_json resolved_json(const Scenario& scenario) {
  nlohmann::ordered_json out;
  out["name"] = scenario.name;
  out["model"] = scenario.model;
  out["seed"] = scenario.seed;
  out["end"] = scenario.end == EndCondition::AllJobs ? "all-jobs" : "first-finish";
  const auto section = find_model(scenario.model)->resolved(scenario.model_config);
  for (const auto& [key, value] : section.items()) out[key] = value;
  if (const auto& calibration = scenario.calibration) {
    // Only with a calibration, so that every scenario without one resolves as before (and keeps its run id).
    auto& record = out["calibration"];
    record["file"] = calibration->file;
    record["cpu_hz"] = calibration->cpu_hz;
    record["quick"] = calibration->quick;
    auto& taken = record["taken"] = nlohmann::ordered_json::array();
    for (const auto& t : calibration->taken)
      taken.push_back({{"key", t.key}, {"value", t.value}, {"from", t.from}});
    record["written"] = calibration->written;
  }
  return out;
}

}  // namespace cosched::config
