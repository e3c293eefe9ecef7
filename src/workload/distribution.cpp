#include "workload/distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace cosched::workload {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

std::optional<double> number(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) return std::nullopt;
  return value;
}

// A uniform real in [0, 1) from 53 random bits, the same on every platform.
double unit(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

}  // namespace

std::optional<Distribution> Distribution::parse(const std::string& text, std::string* why) {
  auto fail = [&](std::string message) -> std::optional<Distribution> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  std::vector<Entry> entries;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    item = trim(item);
    const auto colon = item.find(':');
    if (colon == std::string::npos) return fail(fmt::format("'{}' has no ':weight'", item));
    const std::string value = trim(item.substr(0, colon));
    const auto weight = number(item.substr(colon + 1));
    if (!weight || !(*weight > 0)) return fail(fmt::format("'{}' needs a positive weight", item));
    Entry entry;
    entry.weight = *weight;
    const auto dash = value.find('-', 1);  // a leading '-' would be a sign
    if (dash == std::string::npos) {
      const auto v = number(value);
      if (!v) return fail(fmt::format("'{}' is not a number", value));
      entry.begin = entry.end = *v;
    } else {
      const auto b = number(value.substr(0, dash));
      const auto e = number(value.substr(dash + 1));
      if (!b || !e) return fail(fmt::format("'{}' is not an interval begin-end", value));
      if (*b > *e) return fail(fmt::format("'{}' has begin > end", value));
      entry.begin = *b;
      entry.end = *e;
    }
    entries.push_back(entry);
  }
  if (entries.empty()) return fail("no entry");
  return Distribution(std::move(entries));
}

const Distribution::Entry& Distribution::pick(std::mt19937_64& engine) const {
  double total = 0;
  for (const auto& e : entries_) total += e.weight;
  double u = unit(engine) * total;
  for (const auto& e : entries_) {
    if (u < e.weight) return e;
    u -= e.weight;
  }
  return entries_.back();
}

std::int64_t Distribution::draw_integer(std::mt19937_64& engine) const {
  const auto& e = pick(engine);
  const auto lo = static_cast<std::int64_t>(std::ceil(e.begin));
  const auto hi = static_cast<std::int64_t>(std::floor(e.end));
  if (hi <= lo) return lo;
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  // Rejection sampling, so that every integer of the interval is equally likely on every platform.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % span;
  for (;;) {
    const std::uint64_t r = engine();
    if (r < limit) return lo + static_cast<std::int64_t>(r % span);
  }
}

double Distribution::draw_real(std::mt19937_64& engine) const {
  const auto& e = pick(engine);
  return e.begin + (e.end - e.begin) * unit(engine);
}

double Distribution::min() const {
  double m = entries_.front().begin;
  for (const auto& e : entries_) m = std::min(m, e.begin);
  return m;
}

double Distribution::max() const {
  double m = entries_.front().end;
  for (const auto& e : entries_) m = std::max(m, e.end);
  return m;
}

std::string Distribution::text() const {
  std::string out;
  for (const auto& e : entries_) {
    if (!out.empty()) out += ",";
    out += e.begin == e.end ? fmt::format("{:g}:{:g}", e.begin, e.weight)
                            : fmt::format("{:g}-{:g}:{:g}", e.begin, e.end, e.weight);
  }
  return out;
}

}  // namespace cosched::workload
