#include "config/units.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "config/field.hpp"

namespace cosched::config {
namespace {

// Splits "1.5ms" into 1.5 and "ms".
std::optional<std::pair<double, std::string_view>> split_number(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
                               text[end] == 'e' || text[end] == '+' || text[end] == '-')) {
    // An 'e' is an exponent only when a digit follows it, or a sign and a digit; a sign only after an 'e'.
    if (text[end] == 'e') {
      std::size_t digit =
          end + 1 < text.size() && (text[end + 1] == '-' || text[end + 1] == '+') ? end + 2 : end + 1;
      if (digit >= text.size() || !std::isdigit(static_cast<unsigned char>(text[digit]))) break;
      end = digit;
      continue;
    }
    if ((text[end] == '-' || text[end] == '+') && end > 0) break;
    ++end;
  }
  auto number = parse_number(text.substr(0, end));
  if (!number) return std::nullopt;
  return std::make_pair(*number, text.substr(end));
}

}  // namespace

std::optional<std::int64_t> parse_duration_ns(std::string_view text) {
  auto split = split_number(text);
  if (!split || split->first < 0) return std::nullopt;
  auto [value, unit] = *split;
  double scale;
  if (unit == "ns") {
    scale = 1;
  } else if (unit == "us") {
    scale = 1e3;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "s") {
    scale = 1e9;
  } else if (unit.empty() && value == 0) {
    scale = 0;
  } else {
    return std::nullopt;
  }
  double ns = value * scale;
  if (ns > 9e18) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(ns));
}

std::optional<double> parse_bandwidth_bytes_per_second(std::string_view text) {
  auto split = split_number(text);
  if (!split || split->first <= 0) return std::nullopt;
  auto [value, unit] = *split;
  if (unit.size() < 3 || unit.substr(unit.size() - 2) != "ps") return std::nullopt;
  const char bits_or_bytes = unit[unit.size() - 3];
  std::string_view prefix = unit.substr(0, unit.size() - 3);
  double scale;
  if (prefix.empty()) {
    scale = 1;
  } else if (prefix == "k") {
    scale = 1e3;
  } else if (prefix == "M") {
    scale = 1e6;
  } else if (prefix == "G") {
    scale = 1e9;
  } else {
    return std::nullopt;
  }
  if (bits_or_bytes == 'b') return value * scale / 8;
  if (bits_or_bytes == 'B') return value * scale;
  return std::nullopt;
}

}  // namespace cosched::config
