#pragma once
// What the JSON writers (summary.json's records, the resolved scenario) share.

#include <nlohmann/json.hpp>
#include <optional>

namespace cosched::util {

// The value, or null when there is none.
template <typename T>
nlohmann::ordered_json or_null(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace cosched::util
