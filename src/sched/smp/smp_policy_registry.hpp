#pragma once
// The SMP scheduling policies a scenario may name in scheduler.policy. Each is one entry: its name, a line
// of documentation, the reader and checks of its own scheduler keys, their resolved form, and its factory.
// Adding a policy: one new file behind SmpScheduler and one entry in smp_policy_registry.cpp.

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "sched/smp/smp_scheduler.hpp"

namespace cosched::sched {

struct SmpPolicyEntry {
  std::string_view name;
  std::string_view doc;
  // Reads and checks the policy's own keys of the `scheduler` mapping (quantum, cs_in and cs_out are read).
  void (*read)(config::MapReader& scheduler, config::SmpConfig& smp);
  // Refusals that need the rest of the scenario (the workload), once every section is read; may be null.
  // Errors are located at `scenario`, the scenario's top mapping.
  void (*check)(const config::Field& scenario, const config::SmpConfig& smp);
  // Adds the policy's resolved keys to the resolved scenario's `scheduler` object.
  void (*to_json)(const config::SmpConfig& smp, nlohmann::ordered_json& scheduler);
  std::unique_ptr<SmpScheduler> (*make)(const config::SmpConfig& smp, int cpus, std::uint64_t seed);
  // It divides the CPUs among the jobs: the run's record reports K&W's barrier overhead per phase.
  bool partitions = false;
};

std::span<const SmpPolicyEntry> smp_policies();
// The entry of that name; nothing when there is none.
const SmpPolicyEntry* find_smp_policy(std::string_view name);
// "rr, linux24 or partitioned", for error messages.
std::string smp_policy_names();

}  // namespace cosched::sched
