#include "util/nearest_name.hpp"

#include <gtest/gtest.h>

namespace cosched::util {
namespace {

TEST(EditDistance, CountsEachKindOfEditOnce) {
  EXPECT_EQ(edit_distance("wait", "wait"), 0u);
  EXPECT_EQ(edit_distance("wiat", "wait"), 1u);             // a swap of neighbours
  EXPECT_EQ(edit_distance("timeslice", "time_slice"), 1u);  // an insertion
  EXPECT_EQ(edit_distance("polcy", "policy"), 1u);
  EXPECT_EQ(edit_distance("spin", "span"), 1u);  // a substitution
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  // Optimal string alignment: a swapped pair is not edited again ("ca" -> "abc" is 3, not 2).
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);
}

TEST(NearestName, SuggestsAMisspeltKey) {
  const std::vector<std::string> job_keys = {"name", "processes", "copies", "placement", "pattern", "wait"};
  EXPECT_EQ(nearest_name("wiat", job_keys), "wait");
  EXPECT_EQ(nearest_name("proceses", job_keys), "processes");
  EXPECT_EQ(nearest_name("time_slise", {"policy", "time_slice", "slices"}), "time_slice");
}

TEST(NearestName, StaysSilentWhenNothingIsClose) {
  const std::vector<std::string> platform = {"workstations", "file", "latency", "bandwidth", "overhead"};
  EXPECT_EQ(nearest_name("cpus", platform), std::nullopt);
  EXPECT_EQ(nearest_name("colour", {"name", "model", "seed", "end"}), std::nullopt);
  // Short names allow one edit only: "ab" is two from "name".
  EXPECT_EQ(nearest_name("ab", {"name"}), std::nullopt);
  EXPECT_EQ(nearest_name("nme", {"name"}), "name");
  // A valid name is never corrected.
  EXPECT_EQ(nearest_name("seed", {"seed", "speed"}), std::nullopt);
}

TEST(NearestName, TheFirstOfEquallyNearNamesWins) {
  EXPECT_EQ(nearest_name("cat", {"bat", "hat"}), "bat");
  EXPECT_EQ(nearest_name("cat", {"hat", "bat"}), "hat");
}

}  // namespace
}  // namespace cosched::util
