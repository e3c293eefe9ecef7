#include "scenario/calibration_file.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "config/cycles.hpp"
#include "config/input_error.hpp"
#include "config/keys.hpp"
#include "scenario/loader.hpp"

namespace cosched::config {
namespace {

// calibration.yaml's keys, as calibrate/report.cpp writes them (docs/calibration.md, section 5).
constexpr const char* kLayout =
    "cpu_hz and scenario_keys, as cosched calibrate writes them (docs/calibration.md, section 5)";

}  // namespace

namespace {

CalibratedCost cycles_of(const Field& f) {
  const std::string expected = fmt::format("a whole number of cycles from 0 to {:g}", kMaxCycles);
  const std::string text = f.scalar(expected);
  const auto value = parse_integer(text);
  if (!value || *value < 0 || static_cast<double>(*value) > kMaxCycles) f.fail(expected);
  return {*value, text, f.path()};
}

// scenario_keys.not_positive: each key the writer marks ("smp_job.loop.dispatch") and the figure at or below
// 0 that fed it, by the key's path from the file's root. The marks of keys this model does not read are
// never looked up.
std::map<std::string, std::string> read_not_positive(const Field& flagged) {
  constexpr const char* kExpected = "a mapping of scenario keys to the figures at or below 0 that fed them";
  if (!flagged.is_map()) flagged.fail(kExpected);
  std::map<std::string, std::string> marks;
  for (const auto& entry : flagged.node())
    marks["scenario_keys." + entry.first.Scalar()] =
        flagged.child(entry.second, entry.first.Scalar()).scalar(kExpected);
  return marks;
}

}  // namespace

CalibratedCost calibrated_cycles(MapReader& section, const std::string& key) {
  return cycles_of(section.required(key));
}

std::optional<CalibratedCost> optional_calibrated_cycles(MapReader& section, const std::string& key) {
  if (auto f = section.optional(key)) return cycles_of(*f);
  return std::nullopt;
}

CalibratedCost calibrated_duration(MapReader& section, const std::string& key) {
  const Field f = section.required(key);
  return {duration(f, true), f.node().Scalar(), f.path()};
}

std::int64_t CalibratedCosts::resolve(const std::string& key_path, std::optional<std::int64_t> written,
                                      const CalibratedCost& cost) {
  if (written) {
    record.written.push_back(key_path);
    return *written;
  }
  const auto mark = not_positive.find(cost.from);
  const bool first = std::none_of(record.taken.begin(), record.taken.end(),
                                  [&cost](const CalibrationRecord::Taken& t) { return t.from == cost.from; });
  if (mark != not_positive.end() && first)
    warnings.push_back(fmt::format(
        "{} takes {} from {}, whose figure {} came out at or below 0, which is no cost (docs/calibration.md, "
        "section 1); calibrate again on a quiet machine, or write the key",
        key_path, cost.text, cost.from, mark->second));
  record.taken.push_back({key_path, cost.text, cost.from});
  return cost.value;
}

CalibratedCosts read_calibration(const Field& key, const std::string& scenario_dir,
                                 void (*read_keys)(MapReader& scenario_keys, CalibratedCosts& costs)) {
  const std::string file =
      resolve_input_file(key, scenario_dir, "a calibration file written by cosched calibrate");
  const YAML::Node document = read_yaml_mapping(file, "calibration file", kLayout);
  const Source source{file, {}, {}};  // outlives every Field below
  const Field root(document, {}, &source);
  MapReader top(root, "a mapping of calibration keys");  // other keys are the figures: never finished
  if (!top.has("scenario_keys"))
    root.error(fmt::format("not a calibration file (no scenario_keys); expected {}", kLayout));
  MapReader keys(top.required("scenario_keys"), "a mapping with now, smp and smp_job");

  CalibratedCosts costs;
  costs.record.file = file;
  {
    const Field hz = top.required("cpu_hz");
    const auto value = parse_number(hz.scalar("a positive clock rate in Hz"));
    if (!value || *value <= 0) hz.fail("a positive clock rate in Hz");
    costs.record.cpu_hz = *value;
  }
  if (auto quick = top.optional("quick")) costs.record.quick = quick->boolean();
  // Only the keys of the scenario's model: a file made by hand for one model need not have the other's.
  read_keys(keys, costs);
  if (auto flagged = keys.optional("not_positive")) costs.not_positive = read_not_positive(*flagged);
  return costs;
}

}  // namespace cosched::config
