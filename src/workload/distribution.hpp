#pragma once
// The distribution notation of the Tsafrir thesis (5.1.3): "value:weight, begin-end:weight, ...". Each entry
// is chosen with probability weight / sum of weights; an interval begin-end gives a value uniform in it.
// Used for partition sizes (scheduler.partition) and for an SMP job profile's threads, compute (mu) and sigma
// (docs/scenario-format.md, docs/models/smp.md).

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace cosched::workload {

class Distribution {
 public:
  struct Entry {
    double begin = 0;
    double end = 0;  // == begin for a single value
    double weight = 0;
    bool percent = false;           // written with '%' ("1-20%" or "1%-20%"): a percentage
    std::optional<double> density;  // written "DENSITY/value" (sigma's symbolic format, thesis 2.2.1)
  };
  // What the values may carry besides numbers: a '%' after the value, and a "DENSITY/" before it.
  struct Syntax {
    bool percent;
    bool density;
  };
  // One draw: the value and the index of the entry it came from (its job class, thesis 5.1.5).
  struct Draw {
    double value = 0;
    std::size_t entry = 0;
  };

  // Parses the notation; nothing (with `why` set) when the text is not one.
  static std::optional<Distribution> parse(const std::string& text, std::string* why = nullptr,
                                           Syntax syntax = {false, false});
  // Whether a scalar is written in the notation (it has a ':weight') rather than as one plain value.
  static bool is_notation(const std::string& text) { return text.find(':') != std::string::npos; }
  static Distribution constant(double value) { return Distribution({Entry{value, value, 1, false, {}}}); }

  // An integer: an entry by weight, then an integer uniform in [begin, end].
  std::int64_t draw_integer(std::mt19937_64& engine) const;
  // An entry by weight, then a value uniform in it: an integer when both ends are whole numbers (so that
  // "1-20:3, 21-30:2, 31-40:1" of thesis 5.1.3 tiles the integers 1..40), else a real.
  Draw draw(std::mt19937_64& engine) const;
  // The same two steps from given uniforms in [0, 1), for draws that must not depend on their order (a
  // parallel loop's iterations, userlevel/loop_runtime.cpp): the entry u picks by weight, and the value u
  // picks in an entry (an integer when both ends are whole numbers, else a real).
  std::size_t entry_at(double u) const;
  double value_at(std::size_t entry, double u) const;
  double min() const;
  double max() const;
  const std::vector<Entry>& entries() const { return entries_; }
  // The full notation as parsed, "90/1-15%:3,90/16-30:1", and one entry's value, "90/1-15%".
  std::string notation() const;
  std::string entry_text(std::size_t index) const;

 private:
  explicit Distribution(std::vector<Entry> entries) : entries_(std::move(entries)) {}
  std::size_t pick(std::mt19937_64& engine) const;
  std::vector<Entry> entries_;
};

}  // namespace cosched::workload
