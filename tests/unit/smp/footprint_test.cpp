// The SMP model's footprint (docs/scenario-format.md, "Traces" and "Limits"): its trace and memory
// estimates, worked out by hand.

#include "smp/footprint.hpp"

#include <gtest/gtest.h>

namespace cosched::smp {
namespace {

config::SmpConfig two_jobs() {
  config::SmpConfig smp;
  smp.cpus = 2;
  smp.quantum = 1000;
  config::SmpJobProfile a, b;
  a.threads = 2, a.barriers = 9, a.compute_cycles = 500, a.copies = 2;  // 4 threads, dedicated 4500 cycles
  b.threads = 1, b.barriers = 4, b.compute_cycles = 2000;               // 1 thread, dedicated 8000 cycles
  smp.jobs = {a, b};
  smp.nosync = 3;
  return smp;
}

TEST(SmpFootprint, SixIntervalsPerThreadAndBarrierAndThreePerQuantumOfTheSharedRun) {
  const auto estimate = trace_estimate(two_jobs());
  // The longest dedicated job (8000 cycles) times 8 threads on 2 CPUs.
  EXPECT_DOUBLE_EQ(estimate.run_length, 8000.0 * 4);
  // 4 threads x 6 x 10 barriers (and the end) + 1 x 6 x 5; the 5 job threads, 3 per quantum of the run.
  EXPECT_DOUBLE_EQ(estimate.intervals, 4 * 6 * 10.0 + 6 * 5.0 + 5 * 3 * 32000.0 / 1000);
  EXPECT_EQ(estimate.messages, 0) << "an SMP run sends no message";
}

TEST(SmpFootprint, MemoryIsTheBaseAndAPagePerThread) {
  EXPECT_DOUBLE_EQ(memory_bytes(two_jobs()), config::limits::kBaseBytes + (3 + 4 + 1) * 4096.0);
}

}  // namespace
}  // namespace cosched::smp
