#pragma once
// Computation intervals between barriers (Tsafrir thesis 2.2.1): drawn from N(mu, sigma), rounded to
// whole cycles, at least one cycle. Each thread has its own random stream seeded from the run's seed,
// its job instance and its index, so adding a job does not change the draws of the others.

#include <cstdint>
#include <random>

namespace cosched::workload {

class ComputeInterval {
 public:
  ComputeInterval(double mu, double sigma, std::uint64_t stream_seed);
  std::int64_t draw();

 private:
  double mu_;
  double sigma_;
  std::mt19937_64 engine_;
};

}  // namespace cosched::workload
