#pragma once
// Runs the NOW model of a scenario on SimGrid: one actor per workstation owns its CPU, its clock and
// its messages; the decisions are the node's, the scheduler's and the waiting algorithm's.

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "config/scenario.hpp"
#include "metrics/progress.hpp"

namespace cosched::now {

struct RunOutput {
  nlohmann::ordered_json summary;
  std::map<std::string, std::string> extra_files;  // file name -> content (workstations.csv)
};

// The SimGrid engine is a process-wide singleton: call once per process.
RunOutput run(const config::Scenario& scenario, const metrics::RunHooks& hooks);

// Loads the platform and checks what only it can tell (placements on a platform file's hosts), as run()
// does before simulating; throws InputError. Creates the process's SimGrid engine.
void check_platform(const config::Scenario& scenario);

}  // namespace cosched::now
