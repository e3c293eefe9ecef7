#pragma once
// A YAML node together with its key path and where it came from, so that every validation error can say
// `file:line:column: key.path: expected ..., got ...` (or name the --set override that produced it).

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "config/scenario.hpp"

namespace cosched::config {

// Where the nodes of one scenario document came from.
struct Source {
  std::string file;                              // as the user named it
  std::map<std::string, std::string> overrides;  // dotted path -> "--set PATH=VALUE"
  // Located warnings on valid input that is likely not what was meant (Field::warn): the reading of a
  // document adds them as it goes, so they are not part of the document's identity.
  mutable std::vector<std::string> warnings;
};

class Field {
 public:
  Field(YAML::Node node, std::vector<std::string> path, const Source* source);

  const YAML::Node& node() const { return node_; }
  // Display form: workload.jobs[0].sigma
  std::string path() const;
  // "file:line:col" or "--set a.b=c"
  std::string location() const;

  [[noreturn]] void fail(std::string_view expected) const;  // "expected <expected>, got <value>"
  [[noreturn]] void error(std::string_view message) const;  // "<message>"
  void warn(std::string_view message) const;  // "<location>: <path>: <message>", kept in the Source

  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }

  // The scalar text; fails with `expected` when the node is not a scalar.
  std::string scalar(std::string_view expected) const;
  std::string string() const;
  std::int64_t integer() const;
  std::int64_t positive_integer() const;
  std::int64_t non_negative_integer() const;
  double number() const;
  bool boolean() const;
  std::uint64_t seed() const;

  Field child(const YAML::Node& node, std::string key) const;
  std::vector<Field> items(std::string_view expected) const;

 private:
  std::string got() const;

  YAML::Node node_;
  std::vector<std::string> path_;
  const Source* source_;
};

// Reads the keys of one mapping; keys never asked for are reported as unknown by finish().
class MapReader {
 public:
  MapReader(const Field& map, std::string_view what);
  std::optional<Field> optional(const std::string& key);
  Field required(const std::string& key);
  bool has(const std::string& key) const;
  void finish() const;
  const Field& field() const { return map_; }

 private:
  Field map_;
  std::vector<std::string> known_;
};

// A platform file named by `f`: relative to the scenario file's folder, to its parent folders (so that
// scenarios/x/y.yaml can name platforms/z.xml), or to the current directory. Fails when none exists.
std::string resolve_platform_file(const Field& f, const std::string& scenario_dir);
// The file named by `f`, found as platform files are (relative to the scenario file's folder, a folder above
// it, or the current directory); refused as not being `what` ("a Standard Workload Format file") that exists.
std::string resolve_input_file(const Field& f, const std::string& scenario_dir, std::string_view what);

// The unit of output.trace_window's bounds, the model's timeline unit: a count (SMP cycles, NUMA clocks) or a
// duration with a unit (NOW).
enum class WindowUnit { Count, Duration };

// The scenario's `output` section (every model): which extra result files a run writes.
OutputConfig read_output(MapReader& top, WindowUnit window_unit = WindowUnit::Count);

// Strict scalar parsing shared by the readers.
std::optional<std::int64_t> parse_integer(std::string_view text);
std::optional<double> parse_number(std::string_view text);

}  // namespace cosched::config
