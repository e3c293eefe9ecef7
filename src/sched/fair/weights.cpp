#include "sched/fair/weights.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <stdexcept>

namespace cosched::sched::fair {
namespace {

// kernel/sched/core.c, unchanged from 2.6.32 to 6.18: each nice level is about 1.25 times the next.
constexpr std::array<std::uint32_t, 40> kPrioToWeight = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548,  7620,  6100,  4904,  3906,
    /*  -5 */ 3121,  2501,  1991,  1586,  1277,
    /*   0 */ 1024,  820,   655,   526,   423,
    /*   5 */ 335,   272,   215,   172,   137,
    /*  10 */ 110,   87,    70,    56,    45,
    /*  15 */ 36,    29,    23,    18,    15,
};

// 2^32 / weight, as the kernel tabulates it.
constexpr std::array<std::uint32_t, 40> kPrioToWmult = {
    /* -20 */ 48388,     59856,     76040,     92818,     118348,
    /* -15 */ 147320,    184698,    229616,    287308,    360437,
    /* -10 */ 449829,    563644,    704093,    875809,    1099582,
    /*  -5 */ 1376151,   1717300,   2157191,   2708050,   3363326,
    /*   0 */ 4194304,   5237765,   6557202,   8165337,   10153587,
    /*   5 */ 12820798,  15790321,  19976592,  24970740,  31350126,
    /*  10 */ 39045157,  49367440,  61356676,  76695844,  95443717,
    /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

constexpr int kWmultShift = 32;
constexpr std::uint64_t kWmultConst = 0xffffffffULL;

}  // namespace

LoadWeight nice_weight(int nice) {
  if (nice < kMinNice || nice > kMaxNice)
    throw std::invalid_argument(fmt::format("nice {} is outside -20..19", nice));
  const auto index = static_cast<std::size_t>(nice - kMinNice);
  return {kPrioToWeight[index], kPrioToWmult[index]};
}

std::uint32_t inverse_weight(std::uint64_t weight) {
  if (weight >= kWmultConst) return 1;
  if (weight == 0) return static_cast<std::uint32_t>(kWmultConst);
  return static_cast<std::uint32_t>(kWmultConst / weight);
}

std::uint64_t calc_delta(std::uint64_t delta, std::uint64_t weight, std::uint64_t lw_weight,
                         std::uint32_t lw_inv_weight) {
  // __calc_delta: fact = weight x inv_weight, kept under 2^32 by shifting both it and the final shift.
  std::uint64_t fact = weight;
  int shift = kWmultShift;
  if (const auto hi = static_cast<std::uint32_t>(fact >> 32)) {
    const int fs = std::bit_width(hi);  // fls()
    shift -= fs;
    fact >>= fs;
  }
  const std::uint32_t inv = lw_inv_weight != 0 ? lw_inv_weight : inverse_weight(lw_weight);
  fact = (fact & 0xffffffffULL) * inv;  // mul_u32_u32
  if (const auto hi = static_cast<std::uint32_t>(fact >> 32)) {
    const int fs = std::bit_width(hi);
    shift -= fs;
    fact >>= fs;
  }
  // mul_u64_u32_shr
  return static_cast<std::uint64_t>((static_cast<UInt128>(delta) * fact) >> shift);
}

}  // namespace cosched::sched::fair
