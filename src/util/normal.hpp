#pragma once
// Standard normal quantile and a portable normal sampler. std::normal_distribution is
// implementation-defined, so results would change with the standard library; these do not.

#include <cstdint>
#include <random>

namespace cosched::util {

// Inverse of the standard normal CDF, accurate to about 1e-15 (Acklam's rational approximation
// refined by one Halley step on erfc).
double normal_quantile(double probability);

// Uniform double in (0, 1) from 53 random bits.
double uniform_open01(std::mt19937_64& engine);

// N(0, 1) by the Marsaglia polar method; uses only uniform_open01.
double standard_normal(std::mt19937_64& engine);

// SplitMix64 finaliser: derives independent stream seeds from (run seed, stream ids).
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream_a, std::uint64_t stream_b = 0);

}  // namespace cosched::util
