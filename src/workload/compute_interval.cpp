#include "workload/compute_interval.hpp"

#include <algorithm>
#include <cmath>

#include "util/normal.hpp"

namespace cosched::workload {

ComputeInterval::ComputeInterval(double mu, double sigma, std::uint64_t stream_seed)
    : mu_(mu), sigma_(sigma), engine_(stream_seed) {}

ComputeInterval ComputeInterval::for_thread(double mu, double sigma, std::uint64_t run_seed,
                                            std::size_t instance, int thread) {
  return ComputeInterval(mu, sigma,
                         util::mix_seed(run_seed, instance + 1, static_cast<std::uint64_t>(thread)));
}

std::int64_t ComputeInterval::draw() {
  double value = sigma_ > 0 ? mu_ + sigma_ * util::standard_normal(engine_) : mu_;
  return std::max<std::int64_t>(1, std::llround(value));
}

}  // namespace cosched::workload
