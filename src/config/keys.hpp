#pragma once
// The readers every section and policy uses for its keys: durations with units, and names chosen from a table
// (each enum's names, one table serving both reading and writing the resolved scenario).

#include <fmt/format.h>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "config/units.hpp"

namespace cosched::config {

inline Nanos duration(const Field& f, bool allow_zero = false) {
  const char* expected = allow_zero ? "a duration with a unit, such as 10us, 150ms or 2s (0 allowed)"
                                    : "a positive duration with a unit, such as 10us, 150ms or 2s";
  auto value = parse_duration_ns(f.scalar(expected));
  if (!value || (!allow_zero && *value <= 0)) f.fail(expected);
  // A bound (about 11.6 days) that keeps every sum of times far from overflowing 64-bit nanoseconds.
  if (*value > 1'000'000'000'000'000) f.fail(std::string(expected) + " of at most 1000000s");
  return *value;
}

// Each enum's names in scenario files, one table serving both reading and writing (resolved_json).
template <typename Enum>
using Names = std::initializer_list<std::pair<const char*, Enum>>;

template <typename Enum>
Enum choice(const Field& f, Names<Enum> options) {
  std::string names;
  for (const auto& [name, value] : options) names += (names.empty() ? "" : ", ") + std::string(name);
  auto text = f.scalar("one of " + names);
  for (const auto& [name, value] : options)
    if (text == name) return value;
  f.fail("one of " + names);
}

template <typename Enum>
const char* name_of(Names<Enum> options, Enum value) {
  for (const auto& [name, option] : options)
    if (option == value) return name;
  throw std::logic_error("scenario: an enum value without a name");
}

}  // namespace cosched::config
