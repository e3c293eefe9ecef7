#pragma once
// Runs the SMP machine of a shipped scenario with overrides, without SimGrid.

#include <memory>
#include <string>
#include <vector>

#include "scenario/loader.hpp"
#include "smp/setup.hpp"

namespace cosched::testing {

inline std::string scenario_path(const std::string& relative) {
  return std::string(COSCHED_SOURCE_DIR) + "/" + relative;
}

// The machine, run to its end (on the heap: a machine is not moved, its scheduler holds it).
inline std::unique_ptr<smp::Machine> run_scenario(const std::string& relative,
                                                  const std::vector<std::string>& overrides) {
  auto scenario = config::load_scenario(scenario_path(relative), overrides);
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);
  std::unique_ptr<smp::Machine> machine(new smp::Machine(smp::build_machine(scenario, smp.cpus)));
  // Event by event: the next may be further than any fixed step (a fair policy's thread alone on its CPU).
  while (const auto next = machine->next_event_time()) {
    if (!machine->run_until(*next)) break;
  }
  return machine;
}

inline double total_ssr(const smp::Machine& machine) {
  std::int64_t ok = 0, total = 0;
  for (const auto& o : machine.outcomes()) {
    ok += o.successful_spins;
    total += o.total_spins;
  }
  return total == 0 ? -1.0 : 100.0 * static_cast<double>(ok) / static_cast<double>(total);
}

}  // namespace cosched::testing
