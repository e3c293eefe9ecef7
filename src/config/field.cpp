#include "config/field.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "config/input_error.hpp"
#include "config/units.hpp"
#include "util/nearest_name.hpp"

namespace cosched::config {

Field::Field(YAML::Node node, std::vector<std::string> path, const Source* source)
    : node_(std::move(node)), path_(std::move(path)), source_(source) {}

std::string Field::path() const {
  std::string out;
  for (const auto& segment : path_) {
    bool index = !segment.empty() && std::all_of(segment.begin(), segment.end(), ::isdigit);
    if (index) {
      out += "[" + segment + "]";
    } else {
      if (!out.empty()) out += ".";
      out += segment;
    }
  }
  return out.empty() ? "(document)" : out;
}

std::string Field::location() const {
  // Values given by --set are named by their override (the longest one whose path is a prefix of ours);
  // the nodes an override parsed carry marks of their own little document, not of the file.
  std::string dotted;
  const std::string* best = nullptr;
  for (const auto& segment : path_) {
    dotted += (dotted.empty() ? "" : ".") + segment;
    if (auto it = source_->overrides.find(dotted); it != source_->overrides.end()) best = &it->second;
  }
  if (best) return *best;
  if (node_ && !node_.Mark().is_null()) {
    return fmt::format("{}:{}:{}", source_->file, node_.Mark().line + 1, node_.Mark().column + 1);
  }
  return source_->file;
}

void Field::fail(std::string_view expected) const {
  throw InputError(fmt::format("{}: {}: expected {}, got {}", location(), path(), expected, got()));
}

void Field::error(std::string_view message) const {
  throw InputError(fmt::format("{}: {}: {}", location(), path(), message));
}

void Field::warn(std::string_view message) const {
  source_->warnings.push_back(fmt::format("{}: {}: {}", location(), path(), message));
}

std::string Field::got() const {
  if (!node_ || node_.IsNull()) return "nothing";
  if (node_.IsMap()) return "a mapping";
  if (node_.IsSequence()) return "a list";
  return fmt::format("\"{}\"", node_.Scalar());
}

std::string Field::scalar(std::string_view expected) const {
  if (!node_ || !node_.IsScalar()) fail(expected);
  return node_.Scalar();
}

std::string Field::string() const {
  auto text = scalar("a string");
  if (text.empty()) fail("a non-empty string");
  return text;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  std::int64_t value = 0;
  auto begin = text.data();
  if (!text.empty() && text.front() == '+') ++begin;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || begin == end) return std::nullopt;
  return value;
}

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  auto begin = text.data();
  if (!text.empty() && text.front() == '+') ++begin;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || begin == end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::int64_t Field::integer() const {
  auto value = parse_integer(scalar("an integer"));
  if (!value) fail("an integer");
  return *value;
}

std::int64_t Field::positive_integer() const {
  auto value = parse_integer(scalar("a positive integer"));
  if (!value || *value <= 0) fail("a positive integer");
  return *value;
}

std::int64_t Field::non_negative_integer() const {
  auto value = parse_integer(scalar("a non-negative integer"));
  if (!value || *value < 0) fail("a non-negative integer");
  return *value;
}

double Field::number() const {
  auto value = parse_number(scalar("a number"));
  if (!value) fail("a number");
  return *value;
}

bool Field::boolean() const {
  auto text = scalar("true or false");
  if (text == "true") return true;
  if (text == "false") return false;
  fail("true or false");
}

std::uint64_t Field::seed() const {
  auto text = scalar("a non-negative integer seed");
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    fail("a non-negative integer seed");
  return value;
}

Field Field::child(const YAML::Node& node, std::string key) const {
  auto path = path_;
  path.push_back(std::move(key));
  return Field(node, std::move(path), source_);
}

std::vector<Field> Field::items(std::string_view expected) const {
  if (!node_ || !node_.IsSequence()) fail(expected);
  std::vector<Field> out;
  for (std::size_t i = 0; i < node_.size(); ++i) out.push_back(child(node_[i], std::to_string(i)));
  return out;
}

MapReader::MapReader(const Field& map, std::string_view what) : map_(map) {
  if (!map.is_map()) map.fail(what);
}

bool MapReader::has(const std::string& key) const {
  return static_cast<bool>(map_.node()[key]);
}

std::optional<Field> MapReader::optional(const std::string& key) {
  known_.push_back(key);
  const YAML::Node& map = map_.node();
  YAML::Node value = map[key];
  if (!value) return std::nullopt;
  return map_.child(value, key);
}

Field MapReader::required(const std::string& key) {
  auto value = optional(key);
  if (!value) map_.error(fmt::format("missing required key '{}'", key));
  return *value;
}

void MapReader::finish() const {
  for (const auto& entry : map_.node()) {
    const auto key = entry.first.Scalar();
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) {
      Field where = map_.child(entry.first, key);
      const auto nearest = util::nearest_name(key, known_);
      where.error(fmt::format("unknown key; {}expected one of: {}",
                              nearest ? fmt::format("did you mean '{}'? ", *nearest) : "",
                              fmt::join(known_, ", ")));
    }
  }
}

OutputConfig read_output(MapReader& top, WindowUnit window_unit) {
  OutputConfig output;
  auto section = top.optional("output");
  if (!section) return output;
  MapReader keys(*section, "a mapping with timeline, trace, trace_window, trace_limit_mb, trace_messages");
  if (auto v = keys.optional("timeline")) output.timeline = v->boolean();
  if (auto v = keys.optional("trace")) {
    // One format or a list of them (docs/scenario-format.md, "Traces").
    constexpr const char* kExpected = "paje, chrome or a list of them, such as [paje, chrome]";
    std::vector<Field> formats;
    if (v->is_sequence()) {
      formats = v->items(kExpected);
      if (formats.empty()) v->fail(kExpected);
    } else {
      formats.push_back(*v);
    }
    for (const auto& format : formats) {
      const auto name = format.scalar(kExpected);
      if (name == "paje") {
        output.trace_paje = true;
      } else if (name == "chrome") {
        output.trace_chrome = true;
      } else {
        format.fail(kExpected);
      }
    }
  }
  if (auto v = keys.optional("trace_window")) {
    const char* expected =
        window_unit == WindowUnit::Duration
            ? "[start, end], two durations with a unit (such as [0s, 150ms]), start before end"
            : "[start, end], two integers (the timeline's unit), 0 <= start < end";
    const auto bounds = v->items(expected);
    if (bounds.size() != 2) v->fail(expected);
    const auto bound = [&](const Field& f) {
      if (window_unit == WindowUnit::Duration) {
        auto value = parse_duration_ns(f.scalar(expected));
        if (!value || *value < 0 || *value > 1'000'000'000'000'000) f.fail(expected);
        return *value;
      }
      auto value = parse_integer(f.scalar(expected));
      if (!value || *value < 0) f.fail(expected);
      return *value;
    };
    const auto start = bound(bounds[0]), end = bound(bounds[1]);
    if (start >= end) bounds[1].fail(expected);
    output.trace_window = std::make_pair(start, end);
  }
  if (auto v = keys.optional("trace_limit_mb")) {
    // The trace is built in memory before it is written: the bound is the memory limit (config/limits.hpp).
    constexpr const char* kExpected = "a positive integer of megabytes, at most 8192";
    auto value = parse_integer(v->scalar(kExpected));
    if (!value || *value <= 0 || *value > 8192) v->fail(kExpected);
    output.trace_limit_mb = *value;
  }
  if (auto v = keys.optional("trace_messages")) output.trace_messages = v->boolean();
  keys.finish();
  return output;
}

std::string resolve_input_file(const Field& f, const std::string& scenario_dir, std::string_view what) {
  namespace fs = std::filesystem;
  const fs::path given(f.string());
  std::vector<fs::path> candidates;
  if (given.is_relative() && !scenario_dir.empty()) {
    for (fs::path dir = scenario_dir; !dir.empty(); dir = dir.parent_path()) {
      candidates.push_back(dir / given);
      if (!dir.has_relative_path() || dir == dir.parent_path()) break;
    }
  }
  candidates.push_back(given);
  std::error_code ec;
  for (const auto& candidate : candidates)
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  f.fail(fmt::format(
      "{} that exists (relative to the scenario file, a folder above it, or the current directory)", what));
}

std::string resolve_platform_file(const Field& f, const std::string& scenario_dir) {
  return resolve_input_file(f, scenario_dir, "a SimGrid XML platform file");
}

}  // namespace cosched::config
