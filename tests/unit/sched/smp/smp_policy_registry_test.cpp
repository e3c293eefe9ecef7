// scheduler.policy and the policies' own keys: the registry reads and checks them (docs/scenario-format.md).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "sched/smp/smp_policy_registry.hpp"

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
  ASSERT_NE(sched::find_smp_policy("rr"), nullptr);
  ASSERT_NE(sched::find_smp_policy("linux24"), nullptr);
  EXPECT_EQ(sched::find_smp_policy("fifo"), nullptr);
  EXPECT_NE(sched::smp_policy_names().find("rr"), std::string::npos);
  EXPECT_NE(error_of({"scheduler.policy=fifo"}).find("linux24"), std::string::npos)
      << "the error lists the known policies";
}

TEST(SmpLinuxKeys, DefaultsAreTheLinux22ParametersAndSmartWakeups) {
  auto smp = load({"scheduler.policy=linux24"});  // q = 100
  EXPECT_EQ(smp.policy, "linux24");
  EXPECT_EQ(smp.linux_sched.params, "linux22");
  EXPECT_EQ(smp.linux_sched.proc_change_penalty, 75);
  EXPECT_EQ(smp.linux_sched.same_address_space_bonus, 5);
  EXPECT_EQ(smp.linux_sched.preemption_threshold, 5);
  EXPECT_EQ(smp.linux_sched.wakeup, "smart");
}

TEST(SmpLinuxKeys, Linux24AndExplicitParameters) {
  auto smp = load({"scheduler.policy=linux24", "scheduler.params=linux24", "scheduler.wakeup=silly"});
  EXPECT_EQ(smp.linux_sched.proc_change_penalty, 300);
  EXPECT_EQ(smp.linux_sched.same_address_space_bonus, 20);
  EXPECT_EQ(smp.linux_sched.preemption_threshold, 20);
  EXPECT_EQ(smp.linux_sched.wakeup, "silly");
  smp = load(
      {"scheduler.policy=linux24",
       "scheduler.params={proc_change_penalty: 10%, same_address_space_bonus: 0, preemption_threshold: 2}"});
  EXPECT_EQ(smp.linux_sched.params, "explicit");
  EXPECT_EQ(smp.linux_sched.proc_change_penalty, 10);
  EXPECT_EQ(smp.linux_sched.same_address_space_bonus, 0);
  EXPECT_EQ(smp.linux_sched.preemption_threshold, 2);
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
  EXPECT_EQ(smp.linux_sched.aip_search, "all");
}

}  // namespace
}  // namespace cosched::config
