#include "workload/distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "util/random.hpp"

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

std::optional<Distribution> Distribution::parse(const std::string& text, std::string* why, Syntax syntax) {
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
    std::string value = trim(item.substr(0, colon));
    const auto weight = number(item.substr(colon + 1));
    if (!weight || !(*weight > 0) || !std::isfinite(*weight))
      return fail(fmt::format("'{}' needs a positive weight", item));
    Entry entry;
    entry.weight = *weight;
    if (syntax.density) {
      if (const auto slash = value.find('/'); slash != std::string::npos) {
        const auto density = number(value.substr(0, slash));
        if (!density) return fail(fmt::format("'{}' has no number DENSITY before '/'", value));
        entry.density = *density;
        value = trim(value.substr(slash + 1));
      }
    }
    if (syntax.percent && !value.empty() && value.back() == '%') {
      entry.percent = true;
      value = trim(value.substr(0, value.size() - 1));
    }
    const auto dash = value.find('-', 1);  // a leading '-' would be a sign
    std::string begin_text = dash == std::string::npos ? value : trim(value.substr(0, dash));
    const std::string end_text = dash == std::string::npos ? value : trim(value.substr(dash + 1));
    if (syntax.percent && !begin_text.empty() && begin_text.back() == '%') {
      if (!entry.percent)
        return fail(fmt::format("'{}' has '%' on its begin only; expected both ends in %", item));
      begin_text.pop_back();  // "1%-20%"
    }
    const auto b = number(begin_text);
    const auto e = number(end_text);
    if (dash == std::string::npos) {
      if (!b) return fail(fmt::format("'{}' is not a number", value));
    } else {
      if (!b || !e) return fail(fmt::format("'{}' is not an interval begin-end", value));
      if (*b > *e) return fail(fmt::format("'{}' has begin > end", value));
    }
    if (!std::isfinite(*b) || !std::isfinite(e.value_or(*b)))
      return fail(fmt::format("'{}' is not a finite number", value));
    entry.begin = *b;
    entry.end = dash == std::string::npos ? *b : *e;
    entries.push_back(entry);
  }
  if (entries.empty()) return fail("no entry");
  double total = 0;
  for (const auto& entry : entries) total += entry.weight;
  if (!std::isfinite(total)) return fail("the weights add up to more than a double holds");
  return Distribution(std::move(entries));
}

std::size_t Distribution::pick(std::mt19937_64& engine) const {
  return entry_at(unit(engine));
}

std::size_t Distribution::entry_at(double u) const {
  double total = 0;
  for (const auto& e : entries_) total += e.weight;
  double left = u * total;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (left < entries_[i].weight) return i;
    left -= entries_[i].weight;
  }
  return entries_.size() - 1;
}

double Distribution::value_at(std::size_t entry, double u) const {
  const auto& e = entries_[entry];
  if (e.begin == e.end) return e.begin;
  if (e.begin == std::floor(e.begin) && e.end == std::floor(e.end))
    return std::min(e.end, e.begin + std::floor(u * (e.end - e.begin + 1)));
  return e.begin + (e.end - e.begin) * u;
}

std::int64_t Distribution::draw_integer(std::mt19937_64& engine) const {
  const auto& e = entries_[pick(engine)];
  return util::uniform_between(engine, static_cast<std::int64_t>(std::ceil(e.begin)),
                               static_cast<std::int64_t>(std::floor(e.end)));
}

Distribution::Draw Distribution::draw(std::mt19937_64& engine) const {
  Draw out;
  out.entry = pick(engine);
  const auto& e = entries_[out.entry];
  if (e.begin == e.end) {
    out.value = e.begin;
  } else if (e.begin == std::floor(e.begin) && e.end == std::floor(e.end)) {
    out.value = static_cast<double>(
        util::uniform_between(engine, static_cast<std::int64_t>(e.begin), static_cast<std::int64_t>(e.end)));
  } else {
    out.value = e.begin + (e.end - e.begin) * unit(engine);
  }
  return out;
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

std::string Distribution::entry_text(std::size_t index) const {
  const auto& e = entries_.at(index);
  std::string out = e.density ? fmt::format("{}/", *e.density) : "";
  out += e.begin == e.end ? fmt::format("{}", e.begin) : fmt::format("{}-{}", e.begin, e.end);
  if (e.percent) out += "%";
  return out;
}

std::string Distribution::notation() const {
  std::string out;
  for (std::size_t i = 0; i < entries_.size(); ++i)
    out += fmt::format("{}{}:{}", i ? "," : "", entry_text(i), entries_[i].weight);
  return out;
}

}  // namespace cosched::workload
