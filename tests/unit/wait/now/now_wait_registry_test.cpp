// The NOW waiting algorithms as registry entries (src/wait/now/now_wait_registry.hpp): the names the registry
// knows are the ones docs/scenario-format.md documents (section 9.6), in the same order, and wait.algorithm
// and the algorithms' keys are checked through the entries with located errors.

#include "wait/now/now_wait_registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "wait/now/fixed_wait.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::wait {
namespace {

const std::string kScenario = std::string(COSCHED_SOURCE_DIR) + "/scenarios/now-quickstart.yaml";

std::string error_of(const std::vector<std::string>& overrides) {
  try {
    config::load_scenario(kScenario, overrides);
  } catch (const config::InputError& e) {
    return e.what();
  }
  return "";
}

// The first column of the algorithms' table in section 9.6 (`wait`, NOW) of docs/scenario-format.md.
std::vector<std::string> documented_algorithms() {
  std::ifstream in(std::string(COSCHED_SOURCE_DIR) + "/docs/scenario-format.md");
  std::string line;
  bool in_section = false, in_table = false;
  std::vector<std::string> names;
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) in_section = line == "### 9.6 `wait`";
    if (!in_section) continue;
    if (line.rfind("| `algorithm` |", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table || line.rfind("|---", 0) == 0) continue;
    if (line.rfind("| `", 0) != 0) break;  // the table ends
    const auto end = line.find('`', 3);
    names.push_back(line.substr(3, end - 3));
  }
  return names;
}

TEST(NowWaitRegistry, ListsExactlyTheDocumentedAlgorithmsInOrder) {
  // The documented names are the one list a new algorithm adds itself to; B&M's nine stay first, in order.
  const auto expected = documented_algorithms();
  const std::vector<std::string> shipped{
      "block",         "spin-fixed",         "pairwise",       "block-immediately",
      "spin",          "large-initial-spin", "variance-guess", "variance-with-proc-count",
      "avg-proc-delay"};
  ASSERT_GE(expected.size(), shipped.size()) << "docs/scenario-format.md, the table of section 9.6";
  EXPECT_EQ(std::vector<std::string>(expected.begin(), expected.begin() + shipped.size()), shipped);
  std::vector<std::string> names;
  const auto& registry = now_waits();
  const auto& keys = registry.family().keys;
  for (const auto* entry : registry.entries()) {
    names.emplace_back(entry->spec.name);
    EXPECT_FALSE(entry->spec.doc.empty()) << entry->spec.name << " has a documentation line";
    EXPECT_EQ(registry.find(entry->spec.name), entry) << entry->spec.name << " is found by its name";
    for (const auto& key : entry->spec.keys) {
      EXPECT_TRUE(std::any_of(keys.begin(), keys.end(), [&](const auto& k) { return k.name == key.name; }))
          << entry->spec.name << "'s key " << key.name << " has its place in the registry's key order";
      EXPECT_FALSE(key.doc.empty()) << entry->spec.name << "'s key " << key.name
                                    << " has a documentation line";
    }
  }
  EXPECT_EQ(names, expected);
  EXPECT_EQ(
      registry.names().rfind("block, spin-fixed, pairwise, block-immediately, spin, large-initial-spin, "
                             "variance-guess, variance-with-proc-count, avg-proc-delay",
                             0),
      0u)
      << registry.names();
  EXPECT_FALSE(registry.at("variance-guess").root_replies) << "variance-guess needs nothing from the root";
  EXPECT_TRUE(registry.at("variance-with-proc-count").root_replies);
  EXPECT_TRUE(registry.at("avg-proc-delay").root_replies);
  EXPECT_EQ(registry.find("fixed-spin"), nullptr) << "an SMP algorithm is not a NOW one";
}

TEST(NowWaitRegistry, AnUnknownNameIsALocatedErrorListingTheNames) {
  EXPECT_EQ(
      error_of({"workload.jobs.0.wait.algorithm=spinning"}),
      "--set workload.jobs.0.wait.algorithm=spinning: workload.jobs[0].wait.algorithm: expected one of " +
          now_waits().names() + ", got \"spinning\"");
  EXPECT_THROW(now_waits().at("spinning"), std::invalid_argument);
}

TEST(NowWaitRegistry, AKeyOfOtherAlgorithmsIsRefusedWithItsReason) {
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: block, spin: 1ms}"})
                .find("workload.jobs[0].wait.spin: only spin-fixed takes 'spin' (algorithm is block)"),
            std::string::npos);
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: pairwise, read_window: none}"})
                .find("wait.read_window: only block-immediately takes 'read_window' (algorithm is pairwise)"),
            std::string::npos);
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: spin, window: 1ms}"})
                .find("wait.window: only the two-phase algorithms take this key (algorithm is spin)"),
            std::string::npos);
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: block, resume: keep}"})
                .find("wait.resume: block never spins"),
            std::string::npos)
      << "block refuses resume with a reason of its own";
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: block, threshold: 1ms}"})
                .find("wait.threshold: only variance-guess, variance-with-proc-count and avg-proc-delay take "
                      "'threshold' (algorithm is block)"),
            std::string::npos);
  EXPECT_EQ(error_of({"workload.jobs.0.wait={algorithm: block, prefetch: true}"}), "")
      << "every algorithm takes prefetch";
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: spin-fixed}"})
                .find("missing required key 'spin' for algorithm spin-fixed"),
            std::string::npos);
}

TEST(NowWaitRegistry, BarrierSpinIsCheckedBeforeTheAlgorithmsThatSetItThemselvesRefuseIt) {
  EXPECT_NE(
      error_of({"workload.jobs.0.wait={algorithm: block-immediately, barrier_spin: 1ms}"})
          .find("wait.barrier_spin: block-immediately sets the barrier spin itself; only pairwise takes "
                "barrier_spin"),
      std::string::npos);
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: block-immediately, barrier_spin: 1ms, resume: x}"})
                .find("wait.resume: expected one of restart, keep, block"),
            std::string::npos)
      << "the refusal comes after every key was read";
  EXPECT_NE(error_of({"workload.jobs.0.wait={algorithm: large-initial-spin, initial_spin: 1ms, "
                      "barrier_spin: 1}"})
                .find("wait.barrier_spin: expected a positive duration"),
            std::string::npos)
      << "a bad value is the duration's error, not the refusal";
}

TEST(NowWaitRegistry, EachEntryWritesItsResolvedKeys) {
  EXPECT_EQ(now_wait_json(now_waits().defaults("block")).dump(), R"({"algorithm":"block"})");
  auto spin_fixed = std::make_shared<SpinFixedParams>();
  spin_fixed->spin = 200'000;
  EXPECT_EQ(now_wait_json({"spin-fixed", spin_fixed}).dump(),
            R"({"algorithm":"spin-fixed","spin_s":0.0002,"resume":"block"})");
  EXPECT_EQ(
      now_wait_json(now_waits().defaults("block-immediately")).dump(),
      R"({"algorithm":"block-immediately","resume":"block","conditional":"extend","after_wake":"window",)"
      R"("read_window":"pairwise"})");
  auto informed = std::make_shared<TwoPhaseParams>();
  informed->threshold = 1'000'000;
  informed->prefetch = true;
  informed->prefetch_lead = 50'000;
  EXPECT_EQ(now_wait_json({"variance-guess", informed}).dump(),
            R"({"algorithm":"variance-guess","resume":"block","conditional":"extend","after_wake":"window",)"
            R"("threshold_s":0.001,"prefetch":true,"prefetch_lead_s":5e-05})");
}

}  // namespace
}  // namespace cosched::wait
