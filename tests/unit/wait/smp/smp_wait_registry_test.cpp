// The SMP waiting algorithms as registry entries (src/wait/smp/smp_wait_registry.hpp): found by name, their
// keys checked with today's located messages, their resolved form in summary.json, and their factories.

#include "wait/smp/smp_wait_registry.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "scenario/smp_section.hpp"

namespace cosched::wait {
namespace {

// cs_in 3 + cs_out 3 = CS = 6 cycles, quantum 100 cycles.
const std::string kScenario = std::string(COSCHED_SOURCE_DIR) + "/scenarios/quickstart.yaml";

std::string error_of(const std::string& wait) {
  const std::string set = "workload.jobs.0.wait=" + wait;
  try {
    config::load_scenario(kScenario, {set});
  } catch (const config::InputError& e) {
    const std::string prefix = "--set " + set + ": workload.jobs[0].";
    const std::string what = e.what();
    return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
  }
  return "";
}

config::PolicyChoice wait_of(const std::string& wait) {
  const auto scenario = config::load_scenario(kScenario, {"workload.jobs.0.wait=" + wait});
  return std::get<config::SmpConfig>(scenario.model_config).jobs[0].wait;
}

TEST(SmpWaitRegistry, FindsEveryAlgorithmByItsNameInTheOrderMessagesListThem) {
  const std::vector<std::string> expected{
      "fixed-spin",        "block",         "spin",          "yield",
      "competitive-fixed", "last-one",      "average-three", "coarse-adjustment",
      "scheduler-info",    "yield-on-wake", "load-based",    "granularity-aware"};
  std::vector<std::string> names;
  const auto& registry = smp_waits();
  for (const auto* entry : registry.entries()) {
    names.emplace_back(entry->spec.name);
    EXPECT_EQ(registry.find(entry->spec.name), entry) << entry->spec.name << " is found by its name";
    EXPECT_FALSE(entry->spec.doc.empty()) << entry->spec.name << " has a documentation line";
    EXPECT_FALSE(entry->spec.keys.empty()) << entry->spec.name << " reads at least one key besides algorithm";
    for (const auto& key : entry->spec.keys)
      EXPECT_FALSE(key.doc.empty()) << entry->spec.name << "'s key " << key.name
                                    << " has a documentation line";
  }
  // The shipped algorithms stay first, in this order; a new one comes after them.
  ASSERT_GE(names.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + expected.size()), expected);
  EXPECT_EQ(
      registry.names().rfind("fixed-spin, block, spin, yield, competitive-fixed, last-one, average-three, "
                             "coarse-adjustment, scheduler-info, yield-on-wake, load-based",
                             0),
      0u)
      << registry.names();
  EXPECT_EQ(registry.find("pairwise"), nullptr) << "a NOW algorithm is not an SMP one";
}

TEST(SmpWaitRegistry, RefusesUnknownNamesMissingKeysAndOutOfRangeValuesWithTodaysMessages) {
  EXPECT_EQ(error_of("{algorithm: sleep}"),
            "wait.algorithm: expected " + smp_waits().names() + ", got \"sleep\"");
  EXPECT_EQ(error_of("{algorithm: block, spin: 3}"),
            "wait.spin: algorithm block takes no 'spin' (it is always 0)");
  EXPECT_EQ(error_of("{algorithm: spin, spin: 3}"),
            "wait.spin: algorithm spin takes no 'spin' (it is unlimited)");
  EXPECT_EQ(error_of("{algorithm: fixed-spin}"),
            "wait: missing required key 'spin' for algorithm fixed-spin");
  EXPECT_EQ(error_of("{algorithm: fixed-spin, spin: 101%}"),
            "wait.spin: expected a spin duration: cycles, a percentage of the quantum, CS, CS+ or 2CS+ (a "
            "percentage of the quantum no larger than 100%), got \"101%\"");
  EXPECT_EQ(error_of("{algorithm: last-one}"),
            "wait: missing required key 'adjust' for algorithm last-one (the paper gives no value)");
  EXPECT_EQ(error_of("{algorithm: average-three, adjust: 0}"),
            "wait.adjust: expected a positive adjustment, got \"0\"");
  EXPECT_EQ(error_of("{algorithm: competitive-fixed, spin: 3}"),
            "wait.spin: unknown key; expected one of: algorithm, switch_time")
      << "the unknown key's error lists the entry's keys in its order";
  EXPECT_EQ(error_of("{algorithm: scheduler-info, count: all}"),
            "wait.count: expected remaining, remaining-or-equal or not-blocked, got \"all\"");
  EXPECT_EQ(error_of("{algorithm: yield-on-wake, condition: always}"),
            "wait.condition: expected no-idle or runnable-exceeds-cpus, got \"always\"");
  EXPECT_EQ(error_of("{algorithm: load-based, factor: 0}"),
            "wait.factor: expected a positive multiple of the CPUs, got \"0\"");
  EXPECT_EQ(error_of("{algorithm: granularity-aware, coarse: 1.5}"),
            "wait.coarse: expected cycles or % of the quantum, got \"1.5\"");
}

TEST(SmpWaitRegistry, FillsDefaultsFromTheSchedulerAndWritesTheResolvedKeys) {
  using Json = nlohmann::ordered_json;
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: fixed-spin, spin: 2CS+}")),
            Json::parse(R"({"algorithm": "fixed-spin", "spin": 13, "spin_given": "2CS+"})"));
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: block}")), Json::parse(R"({"algorithm": "block"})"));
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: competitive-fixed}")),
            Json::parse(R"({"algorithm": "competitive-fixed", "switch_time": 6})"))
      << "switch_time defaults to CS = cs_in + cs_out";
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: last-one, adjust: CS+, switch_time: 10}")),
            Json::parse(R"({"algorithm": "last-one", "switch_time": 10, "adjust": 7})"));
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: scheduler-info}")),
            Json::parse(R"({"algorithm": "scheduler-info", "count": "remaining"})"));
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: yield-on-wake}")),
            Json::parse(
                R"({"algorithm": "yield-on-wake", "spin": 6, "spin_given": "CS", "condition": "no-idle"})"));
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: load-based}")),
            Json::parse(R"({"algorithm": "load-based", "spin": 13, "spin_given": "2CS+", "factor": 2.0})"));
  EXPECT_EQ(
      smp_wait_json(wait_of("{algorithm: granularity-aware, coarse: 30%}")),
      Json::parse(R"({"algorithm": "granularity-aware", "spin": 13, "spin_given": "2CS+", "coarse": 30})"));
  EXPECT_EQ(smp_wait_json(wait_of("{algorithm: granularity-aware}"))["coarse"], 50)
      << "coarse defaults to half the quantum";
}

TEST(SmpWaitRegistry, MakesTheAlgorithmTheEntryNames) {
  auto budget = [](const std::string& wait) {
    auto algorithm = make_smp_wait(wait_of(wait));
    const auto* fixed = dynamic_cast<const FixedSpin*>(algorithm.get());
    return fixed ? fixed->spin_budget() : Cycles{-1};
  };
  EXPECT_EQ(budget("{algorithm: block}"), 0);
  EXPECT_EQ(budget("{algorithm: spin}"), kUnlimitedSpin);
  EXPECT_EQ(budget("{algorithm: fixed-spin, spin: 6%}"), 6);
  EXPECT_EQ(budget("{algorithm: load-based}"), -1) << "load-based is not a fixed spin";
}

}  // namespace
}  // namespace cosched::wait
