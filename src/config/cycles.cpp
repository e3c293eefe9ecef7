#include "config/cycles.hpp"

#include <fmt/format.h>

#include <cmath>

namespace cosched::config {

double cycles_or_percent(const Field& f, Cycles quantum, std::string_view expected, double max_percent) {
  auto text = f.scalar(expected);
  if (!text.empty() && text.back() == '%') {
    auto percent = parse_number(std::string_view(text).substr(0, text.size() - 1));
    if (!percent || *percent < 0) f.fail(expected);
    if (*percent > max_percent)
      f.fail(fmt::format("{} (a percentage of the quantum no larger than {}%)", expected, max_percent));
    const double cycles = *percent / 100.0 * static_cast<double>(quantum);
    if (cycles > kMaxCycles) f.fail(fmt::format("{} (at most {:g} cycles)", expected, kMaxCycles));
    return cycles;
  }
  auto value = parse_number(text);
  if (!value || *value < 0) f.fail(expected);
  if (*value > kMaxCycles) f.fail(fmt::format("{} (at most {:g} cycles)", expected, kMaxCycles));
  return *value;
}

Cycles whole_cycles(const Field& f, Cycles quantum, std::string_view expected, double max_percent) {
  double value = cycles_or_percent(f, quantum, expected, max_percent);
  auto text = f.scalar(expected);
  if (text.back() != '%' && value != std::floor(value)) f.fail(expected);
  return static_cast<Cycles>(std::llround(value));
}

Cycles smp_cycles(const Field& f, Cycles quantum, std::string_view expected) {
  return whole_cycles(f, quantum, expected, 1e9);
}

Cycles spin_cycles(const Field& f, Cycles quantum, Cycles context_switch, std::string* given) {
  const std::string expected = "a spin duration: cycles, a percentage of the quantum, CS, CS+ or 2CS+";
  auto text = f.scalar(expected);
  if (given) *given = text;
  if (text == "CS") return context_switch;
  if (text == "CS+") return context_switch + 1;
  if (text == "2CS+") return 2 * context_switch + 1;
  return whole_cycles(f, quantum, expected, 100);
}

}  // namespace cosched::config
