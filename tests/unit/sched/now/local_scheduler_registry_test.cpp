// The NOW model's local scheduling policies as registry entries (src/sched/now/local_scheduler_registry.hpp):
// the names the registry knows are the ones docs/scenario-format.md documents, in the same order, and
// scheduler.policy and the policies' own keys are checked through the entries with located errors.

#include "sched/now/local_scheduler_registry.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "sched/now/stride_credit.hpp"
#include "sched/now/time_sharing.hpp"

namespace cosched::config {
namespace {

const std::string kScenario = std::string(COSCHED_SOURCE_DIR) + "/scenarios/now-quickstart.yaml";

std::string error_of(const std::vector<std::string>& overrides) {
  try {
    load_scenario(kScenario, overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The backquoted values of the `scheduler.policy` row of the NOW keys' table in docs/scenario-format.md.
std::vector<std::string> documented_policies() {
  std::ifstream in(std::string(COSCHED_SOURCE_DIR) + "/docs/scenario-format.md");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `scheduler.policy` |", 0) != 0 || line.find("`stride`") == std::string::npos) continue;
    const auto start = line.find('|', 1) + 1;
    const auto values = line.substr(start, line.find('|', start) - start);
    std::vector<std::string> names;
    const std::regex quoted("`([^`]+)`");
    for (std::sregex_iterator it(values.begin(), values.end(), quoted), end; it != end; ++it)
      names.push_back((*it)[1]);
    return names;
  }
  return {};
}

TEST(NowPolicyRegistry, ListsExactlyTheDocumentedPoliciesInOrder) {
  // The documented names are the one list a new policy adds itself to; B&M's four stay first, in this order.
  const auto expected = documented_policies();
  ASSERT_GE(expected.size(), 4u) << "docs/scenario-format.md, the NOW scheduler.policy row";
  EXPECT_EQ(std::vector<std::string>(expected.begin(), expected.begin() + 4),
            (std::vector<std::string>{"gang", "ts", "stride", "stride-credit"}));
  const auto& registry = sched::local_schedulers();
  std::vector<std::string> names;
  for (const auto* entry : registry.entries()) {
    names.emplace_back(entry->spec.name);
    EXPECT_FALSE(entry->spec.doc.empty()) << entry->spec.name << " has a documentation line";
    for (const auto& key : entry->spec.keys)
      EXPECT_FALSE(key.doc.empty()) << entry->spec.name << "'s key " << key.name
                                    << " has a documentation line";
    EXPECT_EQ(registry.find(entry->spec.name), entry) << entry->spec.name << " is found by its name";
  }
  EXPECT_EQ(names, expected);
  EXPECT_EQ(registry.names().rfind("gang, ts, stride, stride-credit", 0), 0u) << registry.names();
  EXPECT_EQ(registry.find("rr"), nullptr) << "an SMP policy is not a NOW one";
}

TEST(NowPolicyRegistry, AnUnknownNameIsALocatedErrorListingTheNames) {
  EXPECT_EQ(error_of({"scheduler.policy=fifo"}),
            "--set scheduler.policy=fifo: scheduler.policy: expected one of " +
                sched::local_schedulers().names() + ", got \"fifo\"");
  EXPECT_THROW(sched::local_schedulers().at("fifo"), std::invalid_argument);
}

TEST(NowPolicyRegistry, AKeyOfOtherPoliciesNamesThePoliciesThatTakeIt) {
  EXPECT_NE(error_of({"scheduler={policy: stride, sleep_return: maxwait}"})
                .find("scheduler.sleep_return: applies to policy ts only"),
            std::string::npos);
  EXPECT_NE(error_of({"scheduler={policy: gang, wake_preempt: none}"})
                .find("scheduler.wake_preempt: applies to policies stride and stride-credit only"),
            std::string::npos);
  EXPECT_NE(
      error_of({"scheduler={policy: ts, quantum: 10ms}"}).find("scheduler.quantum: ts takes its quanta"),
      std::string::npos)
      << "ts refuses the quantum with a reason of its own";
}

TEST(NowPolicyRegistry, EachPolicyReadsItsOwnKeysAndDefaults) {
  auto now = [](const std::vector<std::string>& overrides) {
    return std::get<NowConfig>(load_scenario(kScenario, overrides).model_config);
  };
  using sched::WakePreempt;
  EXPECT_EQ(now({"scheduler={policy: stride}"}).scheduler.as<sched::StrideParams>().wake_preempt,
            WakePreempt::None)
      << "stride's default";
  EXPECT_EQ(now({"scheduler={policy: stride-credit}"}).scheduler.as<sched::StrideCreditParams>().wake_preempt,
            WakePreempt::Pass)
      << "SSC's default";
  const auto ts =
      now({"scheduler={policy: ts, sleep_return: maxwait, initial_level: 7, context_switch: 5us}"});
  EXPECT_EQ(ts.scheduler.name, "ts");
  EXPECT_EQ(ts.scheduler.as<sched::TimeSharingParams>().sleep_return, sched::SleepReturn::Maxwait);
  EXPECT_EQ(ts.scheduler.as<sched::TimeSharingParams>().initial_level, 7);
  EXPECT_EQ(ts.context_switch(), 5'000) << "context_switch, which every policy takes";
  const auto credit = now({"scheduler={policy: stride-credit, quantum: 20ms, credit_cap: 5ms}"});
  EXPECT_EQ(credit.scheduler.as<sched::StrideCreditParams>().quantum(), 20'000'000);
  EXPECT_EQ(credit.scheduler.as<sched::StrideCreditParams>().credit_cap, 5'000'000);
  EXPECT_EQ(now({"scheduler={policy: gang, quantum: 30ms}"}).scheduler_params().quantum(), 30'000'000)
      << "gang's slot";
}

}  // namespace
}  // namespace cosched::config
