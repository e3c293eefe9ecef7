#pragma once
// Keep-alive messages of a root barrier (Brim & Miller 3.4, and the variants their section 4 lists as
// future work): what `barrier.keepalive` asks for. A plain value, read by the NOW section reader
// (read_keepalive) and applied by the root's Node (barrier/keepalive.hpp states the rules,
// docs/models/now.md section 4.6 their sources).

#include <cstdint>
#include <optional>
#include <string>

namespace cosched::barrier {

// A fraction num/den in (0, 1], kept exact (9/10 of 32 processes is 28.8, which must round the same way
// on every machine).
struct Fraction {
  std::int64_t num = 1;
  std::int64_t den = 1;
  // The smallest process count that reaches this fraction of `processes`: ceil(num * processes / den),
  // at least 1.
  int of(int processes) const {
    const std::int64_t n = (num * processes + den - 1) / den;
    return n < 1 ? 1 : static_cast<int>(n);
  }
  std::string text() const { return std::to_string(num) + "/" + std::to_string(den); }
  bool operator==(const Fraction&) const = default;
};

struct KeepAliveSpec {
  enum class Targets { All, NotArrived, Arrived };
  std::optional<Fraction> start;       // arrival fraction: B&M's keep-alive starting level
  std::optional<std::int64_t> period;  // ns between periodic rounds
  std::optional<std::int64_t> after;   // ns the barrier must have been open at the root
  Targets targets = Targets::All;
  bool enabled() const { return start || period || after; }
  // Each registration the root handles while the gate is open sends a round: B&M's scheme; with a
  // period, only when `start` is also given (docs/models/now.md section 4.6).
  bool on_arrivals() const { return start || (after && !period); }
  bool operator==(const KeepAliveSpec&) const = default;
};

}  // namespace cosched::barrier
