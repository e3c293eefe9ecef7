#pragma once
// The distribution notation of the Tsafrir thesis (5.1.3): "value:weight, begin-end:weight, ...". Each entry
// is chosen with probability weight / sum of weights; an interval begin-end gives a value uniform in it.

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
  };

  // Parses the notation; nothing (with `why` set) when the text is not one.
  static std::optional<Distribution> parse(const std::string& text, std::string* why = nullptr);
  static Distribution constant(double value) { return Distribution({Entry{value, value, 1}}); }

  // An integer: an entry by weight, then an integer uniform in [begin, end].
  std::int64_t draw_integer(std::mt19937_64& engine) const;
  // A real: an entry by weight, then a real uniform in [begin, end].
  double draw_real(std::mt19937_64& engine) const;
  double min() const;
  double max() const;
  const std::vector<Entry>& entries() const { return entries_; }
  std::string text() const;

 private:
  explicit Distribution(std::vector<Entry> entries) : entries_(std::move(entries)) {}
  const Entry& pick(std::mt19937_64& engine) const;
  std::vector<Entry> entries_;
};

}  // namespace cosched::workload
