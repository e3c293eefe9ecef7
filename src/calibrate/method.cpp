#include "calibrate/method.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cosched::calibrate {

Stats summarize(const std::vector<double>& samples) {
  if (samples.size() < 2) throw std::invalid_argument("summarize: expected at least two samples");
  const double n = static_cast<double>(samples.size());
  double sum = 0;
  for (const double x : samples) sum += x;
  Stats stats;
  stats.mean = sum / n;
  double squares = 0;  // about the mean, in a second pass: no cancellation between large sums
  for (const double x : samples) squares += (x - stats.mean) * (x - stats.mean);
  stats.std = std::sqrt(squares / (n - 1));
  return stats;
}

Stats headline(const std::vector<Row>& rows) {
  if (rows.empty()) throw std::invalid_argument("headline: expected at least one row");
  return std::max_element(rows.begin(), rows.end(),
                          [](const Row& a, const Row& b) { return a.operations < b.operations; })
      ->ns;
}

}  // namespace cosched::calibrate
