// The NOW engines' one test of "the simulated time has reached N ns" (now/delivery.hpp clock_reaching):
// the clock value to wait for, at times where a double holds every nanosecond and where it does not.
#include "now/delivery.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace cosched::now {
namespace {

// Below 2^22 s the clock's step is under 1 ns: N x 1e-9 itself rounds back to N.
TEST(NowClock, ReachingSmallTimesIsTheProduct) {
  for (const Nanos at : {Nanos{0}, Nanos{1}, Nanos{123'456'789}, Nanos{999'999'999'999'999}}) {
    EXPECT_EQ(clock_reaching(at), static_cast<double>(at) * 1e-9) << at;
  }
}

// 19,253,865,629,102,581 ns (1.9e7 s, where the clock steps by 2^-28 s = 3.7 ns): fl(N x 1e-9) x 1e9
// rounds to N - 1 (checked by hand in the test), so waiting until fl(N x 1e-9) never reaches N; the next
// double up does.
TEST(NowClock, ReachingLargeTimesStepsPastTheRoundingShort) {
  const Nanos at = 19'253'865'629'102'581;
  const double product = static_cast<double>(at) * 1e-9;
  ASSERT_LT(std::llround(product * 1e9), at);
  const double date = clock_reaching(at);
  EXPECT_EQ(date, std::nextafter(product, 1e300));
  EXPECT_GE(std::llround(date * 1e9), at);
  // And no earlier double reaches it.
  EXPECT_LT(std::llround(std::nextafter(date, 0.0) * 1e9), at);
}

}  // namespace
}  // namespace cosched::now
