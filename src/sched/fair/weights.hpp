#pragma once
// Nice levels, load weights and the kernel's fixed-point arithmetic on them (kernel/sched/core.c:
// sched_prio_to_weight and sched_prio_to_wmult; kernel/sched/fair.c: __calc_delta, calc_delta_fair). The
// fair schedulers of Linux 6.x (sched/fair/run_queue.hpp) use them as the kernel does, so that a nice-5 task
// against a nice-0 one divides a CPU 335:1024 with the kernel's own rounding. docs/models/linux-fair.md 2.

#include <cstdint>

namespace cosched::sched::fair {

// 128-bit intermediates, as the kernel's mul_u64_u32_shr and the avg_vruntime sums need.
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

inline constexpr int kMinNice = -20;
inline constexpr int kMaxNice = 19;
// NICE_0_LOAD as scale_load_down() gives it: the kernel keeps weights shifted left by
// SCHED_FIXEDPOINT_SHIFT (10) on 64-bit machines and shifts them back wherever cosched uses them.
inline constexpr std::uint32_t kNice0Weight = 1024;

// A load weight and its precomputed inverse (struct load_weight).
struct LoadWeight {
  std::uint32_t weight = kNice0Weight;  // scaled down
  std::uint32_t inv_weight = 0;         // 2^32 / weight, from the table for a task's own weight
};

// sched_prio_to_weight[nice + 20] and sched_prio_to_wmult[nice + 20]; `nice` in [-20, 19].
LoadWeight nice_weight(int nice);

// The inverse the kernel computes for a sum of weights (__update_inv_weight: WMULT_CONST / w).
std::uint32_t inverse_weight(std::uint64_t weight);

// __calc_delta(delta, weight, lw): delta x weight / lw.weight in the kernel's 32-bit fixed point.
std::uint64_t calc_delta(std::uint64_t delta, std::uint64_t weight, std::uint64_t lw_weight,
                         std::uint32_t lw_inv_weight);

// calc_delta_fair(delta, se): real time `delta` as virtual time of an entity of weight `w` (delta itself
// for a nice-0 entity).
inline std::int64_t calc_delta_fair(std::int64_t delta, const LoadWeight& w) {
  if (w.weight == kNice0Weight || delta <= 0) return delta;
  return static_cast<std::int64_t>(
      calc_delta(static_cast<std::uint64_t>(delta), kNice0Weight, w.weight, w.inv_weight));
}

}  // namespace cosched::sched::fair
