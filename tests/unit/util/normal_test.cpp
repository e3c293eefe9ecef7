#include "util/normal.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace cosched::util {
namespace {

TEST(NormalQuantile, MatchesTabulatedValues) {
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(normal_quantile(0.95), 1.6448536269514722, 1e-14) << "z(0.95), used by 90/INTERVAL";
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-14);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-13) << "lower tail branch";
  EXPECT_NEAR(normal_quantile(0.999), 3.090232306167813, 1e-13) << "upper tail branch";
}

TEST(NormalQuantile, RejectsProbabilitiesOutsideTheOpenInterval) {
  EXPECT_THROW(normal_quantile(0.0), std::domain_error);
  EXPECT_THROW(normal_quantile(1.0), std::domain_error);
}

TEST(StandardNormal, HasMeanZeroAndUnitVariance) {
  std::mt19937_64 engine(42);
  double sum = 0, sum2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double x = standard_normal(engine);
    sum += x;
    sum2 += x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01) << "sample mean of 200000 draws";
  EXPECT_NEAR(sum2 / n, 1.0, 0.01) << "sample variance of 200000 draws";
}

TEST(MixSeed, GivesDistinctStreamsForDistinctIds) {
  EXPECT_NE(mix_seed(1, 1, 0), mix_seed(1, 1, 1));
  EXPECT_NE(mix_seed(1, 1, 0), mix_seed(1, 2, 0));
  EXPECT_NE(mix_seed(1, 1, 0), mix_seed(2, 1, 0));
  EXPECT_EQ(mix_seed(5, 3, 2), mix_seed(5, 3, 2));
}

}  // namespace
}  // namespace cosched::util
