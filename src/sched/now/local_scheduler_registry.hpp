#pragma once
// The NOW model's local scheduling policies a scenario may name in scheduler.policy. Each is one entry:
// its name, a line of documentation, its own keys of the `scheduler` mapping with their checks, their
// resolved form for summary.json, and its factory. Adding a policy: one new file behind LocalScheduler and
// one entry in the table of local_scheduler_registry.cpp (docs/models/now-schedulers.md).

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "sched/now/gang.hpp"
#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

// One key of the `scheduler` mapping that a policy takes: its name and the reader that checks its value
// (a located error on a bad one) and stores it in the configuration.
struct LocalPolicyKey {
  std::string_view name;
  void (*read)(const config::Field& field, config::NowConfig& now);
};

struct LocalPolicyEntry {
  std::string_view name;
  std::string_view doc;
  // Sets the policy's defaults that differ from NowConfig's own, before its keys are read (may be null).
  void (*defaults)(config::NowConfig& now);
  // The keys of `scheduler` this policy reads, besides `policy`, in the order they are checked. A key that
  // some other entry lists and this one does not is refused as applying to those policies only.
  std::span<const LocalPolicyKey> keys;
  // Adds the policy's resolved keys to the resolved scenario's `scheduler` object (after `policy`).
  void (*to_json)(const config::NowConfig& now, nlohmann::ordered_json& scheduler);
  // True when every workstation's scheduler shares one gang matrix (explicit coscheduling).
  bool gang_matrix;
  // `gang_matrix` is the matrix shared by all workstations (null unless the entry asks for one). Throws
  // std::invalid_argument naming the setting when the configuration is refused.
  std::unique_ptr<LocalScheduler> (*make)(const config::NowConfig& now,
                                          std::shared_ptr<GangMatrix> gang_matrix);
};

// Every policy, in the order error messages list them.
std::span<const LocalPolicyEntry> local_policies();
// The entry of that name; nothing when there is none.
const LocalPolicyEntry* find_local_policy(std::string_view name);
// The entry of that name; throws std::invalid_argument when there is none.
const LocalPolicyEntry& local_policy(std::string_view name);
// "gang, ts, stride, stride-credit", for error messages.
std::string local_policy_names();

// Reads the `scheduler` mapping's policy and the keys of every policy (scenario/now_section.cpp calls it).
void read_local_policy(config::MapReader& scheduler, config::NowConfig& now);

}  // namespace cosched::sched
