#include "sched/numa/priority.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cosched::sched {

// Thesis 3.1.3: aging = (U_r R_c S_c + W_r) f_w t - C_r (1 - t), "smaller the value, higher the priority";
// "to prevent priority values to divert, the sum of the aging values of processes that were running before
// the time slice is equally divided and distributed to waiting processes". Reading A10 (docs/models/numa.md
// 4.3): t = 1 for a process that ran, 0 for one that waited; U_r = processors held, R_c = S_c = 1, W_r = 0;
// f_w = 1 when at least one unfinished process waited. The share is distributed with the opposite sign
// (subtracted): a running process's value grows by its aging, each waiting one's falls by an equal share of
// their sum, so the values do not drift (with C_r = 0 their sum stays where it was); added with the same
// sign it would push every value up, slice after slice. Then -C_r for each waiting process (aging proper).
void age(std::span<double> priority, std::span<const ProcessSlice> slice, double coefficient) {
  if (priority.size() != slice.size())
    throw std::logic_error(fmt::format("age: {} priorities for {} processes", priority.size(), slice.size()));
  int waiting = 0;
  for (const auto& s : slice)
    if (!s.finished && !s.ran) ++waiting;
  const double f_w = waiting > 0 ? 1.0 : 0.0;
  double running_sum = 0;
  for (std::size_t p = 0; p < slice.size(); ++p) {
    if (slice[p].finished || !slice[p].ran) continue;
    const double aging = static_cast<double>(slice[p].used) * f_w;  // (U_r * 1 * 1 + 0) f_w * 1 - C_r * 0
    priority[p] += aging;
    running_sum += aging;
  }
  if (waiting == 0) return;
  const double share = running_sum / waiting;
  for (std::size_t p = 0; p < slice.size(); ++p)
    if (!slice[p].finished && !slice[p].ran) priority[p] += -coefficient - share;  // -C_r (1 - 0) - share
}

std::vector<int> priority_order(std::span<const double> priority, std::span<const ProcessSlice> slice) {
  if (priority.size() != slice.size())
    throw std::logic_error(
        fmt::format("priority_order: {} priorities for {} processes", priority.size(), slice.size()));
  std::vector<int> order;
  for (std::size_t p = 0; p < slice.size(); ++p)
    if (!slice[p].finished) order.push_back(static_cast<int>(p));
  // Ties to the lower process ID: the IDs go in increasing and the sort is stable.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return priority[a] < priority[b]; });
  return order;
}

}  // namespace cosched::sched
