#pragma once
// Computation intervals between barriers (Tsafrir thesis 2.2.1): drawn from N(mu, sigma), rounded to
// whole cycles, at least one cycle. Each thread has its own random stream seeded from the run's seed,
// its job instance and its index, so adding a job does not change the draws of the others.

#include <cstddef>
#include <cstdint>
#include <random>

namespace cosched::workload {

class ComputeInterval {
 public:
  // The stream of thread `thread` of the run's job instance `instance` (profiles in scenario order, copies
  // expanded): seeded from (run seed, instance + 1, thread) (docs/models/smp.md section 6), so that
  // `cosched host` draws the intervals the simulated machine draws.
  static ComputeInterval for_thread(double mu, double sigma, std::uint64_t run_seed, std::size_t instance,
                                    int thread);

  ComputeInterval(double mu, double sigma, std::uint64_t stream_seed);
  std::int64_t draw();

 private:
  double mu_;
  double sigma_;
  std::mt19937_64 engine_;
};

}  // namespace cosched::workload
