#include "workload/compute_interval.hpp"

#include <algorithm>
#include <cmath>

#include "util/normal.hpp"

namespace cosched::workload {

ComputeInterval::ComputeInterval(double mu, double sigma, std::uint64_t stream_seed)
    : mu_(mu), sigma_(sigma), engine_(stream_seed) {}

std::int64_t ComputeInterval::draw() {
  double value = sigma_ > 0 ? mu_ + sigma_ * util::standard_normal(engine_) : mu_;
  return std::max<std::int64_t>(1, std::llround(value));
}

}  // namespace cosched::workload
