// The replacement strategies' registry (thesis 4.4; docs/models/numa.md section 5): the names a scenario may
// give, the default, and what holds for every strategy.

#include "sched/numa/replacement_registry.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sched/numa/replacement_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;
using enum PageClass;

TEST(NumaReplacement, RegistryNamesBothStrategies) {
  const auto& strategies = numa_replacements();
  EXPECT_EQ(strategies.names(), "strategy0 or strategy1");
  EXPECT_EQ(strategies.family().default_policy, "strategy1") << "the setting of tables 5.4-5.6";
  EXPECT_EQ(strategies.find("strategy2"), nullptr);
  for (const auto* entry : strategies.entries()) EXPECT_FALSE(entry->spec.doc.empty()) << entry->spec.name;
}

TEST(NumaReplacement, NothingEvictableGivesNoVictim) {
  for (const auto* entry : numa_replacements().entries()) {
    const auto replacement = strategy(entry->spec.name);
    EXPECT_EQ(replacement.victim({}), std::nullopt) << replacement.name();
    const std::vector<FrameView> busy = {{0, OtherCopy, 5, 0, false}, {1, OwnLocal, 0, 3, false}};
    EXPECT_EQ(replacement.victim(busy), std::nullopt) << replacement.name();
  }
}

}  // namespace
}  // namespace cosched::sched
