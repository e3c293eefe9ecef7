// The kernel's weights and fixed-point deltas (docs/models/linux-fair.md section 2).

#include "sched/fair/weights.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace cosched::sched::fair {
namespace {

TEST(FairWeights, NiceLevelsAreTheKernelTable) {
  EXPECT_EQ(nice_weight(0).weight, 1024u);
  EXPECT_EQ(nice_weight(0).inv_weight, 4194304u);
  EXPECT_EQ(nice_weight(5).weight, 335u);
  EXPECT_EQ(nice_weight(-20).weight, 88761u);
  EXPECT_EQ(nice_weight(19).weight, 15u);
  EXPECT_THROW(nice_weight(20), std::invalid_argument);
  EXPECT_THROW(nice_weight(-21), std::invalid_argument);
  // Each level is about 1.25 times the next ("the 10% effect"; 18:15 at the end).
  for (int nice = -20; nice < 19; ++nice) {
    const double ratio = static_cast<double>(nice_weight(nice).weight) / nice_weight(nice + 1).weight;
    EXPECT_NEAR(ratio, 1.25, 0.06) << "nice " << nice;
  }
}

TEST(FairWeights, CalcDeltaFairIsTheKernelsFixedPoint) {
  // A nice-0 entity's virtual time is its real time.
  EXPECT_EQ(calc_delta_fair(1'000'000, nice_weight(0)), 1'000'000);
  // Nice 5: fact = 1024 x 12820798 = 13128497152, two bits over 32, so shift 30 and fact 3282124288;
  // 10^6 x 3282124288 >> 30 = 3056716 (the real quotient 10^6 x 1024 / 335 is 3056716.4).
  EXPECT_EQ(calc_delta_fair(1'000'000, nice_weight(5)), 3'056'716);
  // Nice -5: 1024 x 1376151 = 1409178624 fits 32 bits: 10^6 x 1409178624 >> 32 = 328099.
  EXPECT_EQ(calc_delta_fair(1'000'000, nice_weight(-5)), 328'099);
  // A run queue's sum of weights uses the computed inverse (__update_inv_weight): 6 ms shared by a nice-0
  // task on a queue of weight 2048 is 3 ms less the inverse's rounding.
  EXPECT_EQ(calc_delta(6'000'000, 1024, 2048, 0), 2'999'998u);
}

}  // namespace
}  // namespace cosched::sched::fair
