#pragma once
// Priorities of the NUMA model's processes: the aging formula of Nobukuni 1997, 3.1.3, with the
// redistribution to waiting processes (docs/models/numa.md section 4.3; reading A10).

#include <span>
#include <vector>

namespace cosched::sched {

struct ProcessSlice {
  bool ran = false;  // t = 1: it held processors in the slice that ended
  int used = 0;      // U_r: the processors it held
  bool finished = false;  // finished processes take no part
};

// aging = (U_r R_c S_c + W_r) f_w t - C_r (1 - t), with R_c = S_c = 1, W_r = 0, f_w = 1 when some process
// waited; the sum of the running processes' aging is divided equally among the waiting ones. Adds each
// process's aging to priority[p] (smaller is higher priority).
void age(std::span<double> priority, std::span<const ProcessSlice> slice, double coefficient);

// The processes by increasing priority value, ties to the lower ID; finished ones left out.
std::vector<int> priority_order(std::span<const double> priority, std::span<const ProcessSlice> slice);

}  // namespace cosched::sched
