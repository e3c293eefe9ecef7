#include "config/limits.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "config/input_error.hpp"

namespace cosched::config::limits {
namespace {

// output.trace's field (else output's, else the root's). Built by copies only: assigning a Field would assign
// its YAML node, which rebinds the node it held in the document.
Field trace_field(const Field& root) {
  const YAML::Node output = root.node()["output"];
  if (!output || !output.IsMap()) return root;
  const Field output_field = root.child(output, "output");
  const YAML::Node trace = output["trace"];
  return trace ? output_field.child(trace, "trace") : output_field;
}

}  // namespace

Field field_at(const Field& root, std::initializer_list<std::string> path) {
  Field field = root;
  for (const auto& key : path) {
    const YAML::Node& node = field.node();
    YAML::Node next;
    if (node.IsSequence()) {
      next = node[std::stoul(key)];
    } else if (node.IsMap()) {
      next = node[key];
    }
    if (!next) return field;
    field = field.child(next, key);
  }
  return field;
}

void check_memory(double bytes, const Field& where) {
  if (bytes > kMaxMemoryBytes)
    where.error(fmt::format(
        "the run would need about {:.1f} GiB of memory, more than the limit of {:.0f} GiB; expected a "
        "smaller scenario",
        bytes / (1ull << 30), kMaxMemoryBytes / (1ull << 30)));
}

TraceEstimate traced(const OutputConfig& output, TraceEstimate whole) {
  if (!output.trace_messages) whole.messages = 0;
  if (const auto& window = output.trace_window; window && whole.run_length > 0) {
    const double share = static_cast<double>(window->second - window->first) / whole.run_length;
    whole.intervals *= std::min(1.0, share);
    whole.messages *= std::min(1.0, share);
  }
  return whole;
}

double trace_bytes(const OutputConfig& output, const TraceEstimate& traced) {
  if (!output.traces()) return 0;
  const double per_interval =
      (output.trace_paje ? kPajeBytesPerInterval : 0) + (output.trace_chrome ? kChromeBytesPerInterval : 0);
  const double per_message =
      (output.trace_paje ? kPajeBytesPerMessage : 0) + (output.trace_chrome ? kChromeBytesPerMessage : 0);
  return traced.intervals * per_interval + traced.messages * per_message;
}

double check_trace(const OutputConfig& output, const TraceEstimate& traced, const Field& root,
                   std::string_view of, std::string_view also) {
  const double bytes = trace_bytes(output, traced);
  if (bytes > static_cast<double>(output.trace_limit_mb) * 1e6)
    trace_field(root).error(
        fmt::format("the trace would be about {:.0f} MB ({:.3g} intervals, {:.3g} messages{}), more than "
                    "output.trace_limit_mb ({} MB); expected a shorter output.trace_window, "
                    "output.trace_messages: false{} or a larger output.trace_limit_mb",
                    bytes / 1e6, traced.intervals, traced.messages, of, output.trace_limit_mb, also));
  return bytes;
}

void check_simulated_time(std::int64_t now, const std::string& scenario_file, const char* unit,
                          std::string_view expected) {
  if (now <= kMaxSimulatedTime) return;
  throw InputError(
      fmt::format("{}: the run passed {:g} {}, the largest simulated time the model represents; "
                  "expected {}",
                  scenario_file, static_cast<double>(kMaxSimulatedTime), unit, expected));
}

}  // namespace cosched::config::limits
