// scheduler.policy and the policies' own keys: the registry reads and checks them (docs/scenario-format.md).

#include "sched/smp/smp_policy_registry.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "sched/smp/linux24.hpp"

namespace cosched::config {
namespace {

const std::string kScenario =
    std::string(COSCHED_SOURCE_DIR) + "/scenarios/tsafrir/ch3-no-randomization.yaml";

SmpConfig load(const std::vector<std::string>& overrides) {
  return std::get<SmpConfig>(load_scenario(kScenario, overrides).model_config);
}

std::string error_of(const std::vector<std::string>& overrides) {
  try {
    load(overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SmpPolicyRegistry, RoundRobinAndLinuxAreEntries) {
  const auto& registry = sched::smp_schedulers();
  ASSERT_NE(registry.find("rr"), nullptr);
  ASSERT_NE(registry.find("linux24"), nullptr);
  EXPECT_EQ(registry.find("fifo"), nullptr);
  EXPECT_EQ(registry.names(), "rr, linux24, partitioned, cfs or eevdf");
  for (const auto* entry : registry.entries())
    for (const auto& key : entry->spec.keys)
      EXPECT_FALSE(key.doc.empty()) << entry->spec.name << "'s key " << key.name
                                    << " has a documentation line";
  EXPECT_EQ(load({}).scheduler.name, "rr") << "round robin when the scenario names no policy";
  EXPECT_NE(error_of({"scheduler.policy=fifo"}).find("linux24"), std::string::npos)
      << "the error lists the known policies";
}

TEST(SmpLinuxKeys, DefaultsAreTheLinux22ParametersAndSmartWakeups) {
  auto smp = load({"scheduler.policy=linux24"});  // q = 100
  EXPECT_EQ(smp.scheduler.name, "linux24");
  const auto& linux = smp.scheduler.as<sched::Linux24SchedulerParams>();
  EXPECT_EQ(linux.params_given, "linux22");
  EXPECT_EQ(linux.values.proc_change_penalty, 75);
  EXPECT_EQ(linux.values.same_address_space_bonus, 5);
  EXPECT_EQ(linux.values.preemption_threshold, 5);
  EXPECT_EQ(linux.wakeup, sched::WakeupScheme::Smart);
}

TEST(SmpLinuxKeys, Linux24AndExplicitParameters) {
  auto smp = load({"scheduler.policy=linux24", "scheduler.params=linux24", "scheduler.wakeup=silly"});
  const auto* linux = &smp.scheduler.as<sched::Linux24SchedulerParams>();
  EXPECT_EQ(linux->values.proc_change_penalty, 300);
  EXPECT_EQ(linux->values.same_address_space_bonus, 20);
  EXPECT_EQ(linux->values.preemption_threshold, 20);
  EXPECT_EQ(linux->wakeup, sched::WakeupScheme::Silly);
  smp = load(
      {"scheduler.policy=linux24",
       "scheduler.params={proc_change_penalty: 10%, same_address_space_bonus: 0, preemption_threshold: 2}"});
  linux = &smp.scheduler.as<sched::Linux24SchedulerParams>();
  EXPECT_EQ(linux->params_given, "explicit");
  EXPECT_EQ(linux->values.proc_change_penalty, 10);
  EXPECT_EQ(linux->values.same_address_space_bonus, 0);
  EXPECT_EQ(linux->values.preemption_threshold, 2);
}

TEST(SmpLinuxKeys, BadValuesAreRefusedWithTheKeyNamed) {
  EXPECT_NE(error_of({"scheduler.policy=linux24", "scheduler.wakeup=lazy"}).find("scheduler.wakeup"),
            std::string::npos);
  EXPECT_NE(error_of({"scheduler.policy=linux24", "scheduler.params=linux26"}).find("scheduler.params"),
            std::string::npos);
  EXPECT_NE(error_of({"scheduler.policy=linux24", "scheduler.aip_search=all"}).find("only to wakeup: aip"),
            std::string::npos);
  EXPECT_NE(error_of({"scheduler.wakeup=smart"}).find("unknown key"), std::string::npos)
      << "round robin has no wakeup scheme";
  auto smp = load({"scheduler.policy=linux24", "scheduler.wakeup=aip", "scheduler.aip_search=all"});
  EXPECT_EQ(smp.scheduler.as<sched::Linux24SchedulerParams>().aip_search,
            sched::AipSearch::IdleAndPreemption);
}

}  // namespace
}  // namespace cosched::config
