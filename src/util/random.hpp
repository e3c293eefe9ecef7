#pragma once
// Portable uniform integer draws. std::uniform_int_distribution is implementation-defined, so a run would
// draw differently with another standard library; these draw the same on every platform.

#include <cstdint>
#include <limits>
#include <random>

namespace cosched::util {

// The draws of 64 random bits below this are accepted by uniform_below(bound): the largest multiple of
// `bound` that is at most 2^64 - 1, so that every residue is equally likely. (A power of two also rejects its
// last `bound` draws, which it need not; the rule is kept as it is so that every run draws as before.)
constexpr std::uint64_t rejection_limit(std::uint64_t bound) {
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  return max - max % bound;
}

// An integer uniform in [0, bound), bound >= 1, by rejection sampling: draws until one is below
// rejection_limit(bound), and returns it modulo bound. The rule of every model but the NUMA machine's.
inline std::uint64_t uniform_below(std::mt19937_64& engine, std::uint64_t bound) {
  const std::uint64_t limit = rejection_limit(bound);
  for (;;) {
    const std::uint64_t value = engine();
    if (value < limit) return value % bound;
  }
}

// An integer uniform in [lo, hi] by uniform_below; lo when hi <= lo.
inline std::int64_t uniform_between(std::mt19937_64& engine, std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
  return lo + static_cast<std::int64_t>(uniform_below(engine, span));
}

// An integer in [0, bound), bound >= 1, from one draw of 64 bits x: floor(x * bound / 2^64), the high word of
// the 128-bit product. One draw per value; value v is drawn with probability ceil or floor of 2^64 / bound
// over 2^64, each off 1 / bound by less than 1 / 2^64. The NUMA machine's rule (src/numa/), kept so that its
// runs draw as they always have; every other model uses uniform_below.
inline std::uint64_t uniform_below_multiply_high(std::mt19937_64& engine, std::uint64_t bound) {
  __extension__ using Wide = unsigned __int128;
  return static_cast<std::uint64_t>((static_cast<Wide>(engine()) * bound) >> 64);
}

}  // namespace cosched::util
