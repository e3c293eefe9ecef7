// The allocation policies' registry (thesis 4.3; docs/models/numa.md section 4): the names a scenario may
// give in the order errors list them, the default, which policies read the resource management tree, and
// what every policy returns.

#include "sched/numa/allocation_registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "sched/numa/allocation_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;

TEST(NumaPolicies, RegistryNamesEveryPolicyAndWhichReadTheTree) {
  const auto& policies = numa_allocation_policies();
  // The thesis's five in its order, then the other readings; error messages list them so ("... or last").
  const std::vector<std::string_view> first = {"policy0", "policy1", "policy2",
                                               "policy3", "policy4", "policy4-home"};
  ASSERT_GE(policies.entries().size(), first.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(policies.entries()[i]->spec.name, first[i]);
  const std::string names = policies.names();
  EXPECT_EQ(names.rfind("policy0, policy1, ", 0), 0u) << names;
  EXPECT_TRUE(names.ends_with(" or " + std::string(policies.entries().back()->spec.name))) << names;
  EXPECT_EQ(policies.family().default_policy, "policy4") << "the setting of tables 5.4-5.6";
  EXPECT_EQ(policies.find("policy5"), nullptr);
  EXPECT_FALSE(policies.at("policy0").uses_rmt) << "thesis 4.3: policy2, 3, 4 use the tree";
  EXPECT_FALSE(policies.at("policy1").uses_rmt);
  EXPECT_TRUE(policies.at("policy2").uses_rmt);
  EXPECT_TRUE(policies.at("policy3").uses_rmt);
  EXPECT_TRUE(policies.at("policy4").uses_rmt);
  for (const auto* entry : policies.entries()) EXPECT_FALSE(entry->spec.doc.empty()) << entry->spec.name;
}

TEST(NumaPolicies, EveryPolicyReturnsNClustersInIncreasingOrder) {
  Request request;
  request.threads = 5;
  request.pages[14] = 4;
  request.pages[2] = 1;
  request.pages[9] = 9;
  request.previous = {15, 3};
  request.busy({4});
  for (const auto* entry : numa_allocation_policies().entries()) {
    const std::string_view name = entry->spec.name;
    const auto got = allocate(name, request, 11);
    if (name == "policy4" || name == "policy4-home") {
      if (name == "policy4") {
        EXPECT_EQ(got, std::nullopt) << "pages on 3 clusters for 5 threads";
      } else {
        // Area4 {2, 9, 14}, then pick 2 of the rest of the machine (its home): previous 3 and 15.
        EXPECT_EQ(got, (Clusters{2, 3, 9, 14, 15}));
      }
      continue;
    }
    ASSERT_TRUE(got.has_value()) << name;
    ASSERT_EQ(got->size(), 5u) << name;
    EXPECT_TRUE(std::is_sorted(got->begin(), got->end())) << name;
    for (const int c : *got) EXPECT_NE(c, 4) << name << " took the busy cluster";
  }
}

}  // namespace
}  // namespace cosched::sched
