#pragma once
// Successful-spin rate (Tsafrir thesis 2.3.1): 100 x successful spins / spins entered, the last thread
// to arrive at each barrier excluded. Undefined (null in result files) when no spin happened.

#include <cstdint>
#include <optional>

namespace cosched::metrics {

inline std::optional<double> ssr(std::int64_t successful, std::int64_t total) {
  if (total == 0) return std::nullopt;
  return 100.0 * static_cast<double>(successful) / static_cast<double>(total);
}

}  // namespace cosched::metrics
