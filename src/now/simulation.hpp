#pragma once
// Runs the NOW model of a scenario on SimGrid: prepares the run (platform, jobs, one pure Node per
// workstation), has an engine drive the nodes, and writes the results. The decisions are the node's, the
// scheduler's and the waiting algorithm's; the engine only decides when each node hears of what.

#include <optional>
#include <string>

#include "config/scenario.hpp"
#include "metrics/progress.hpp"
#include "metrics/run_record.hpp"

namespace cosched::now {

// Who drives the workstations' nodes (docs/models/now.md section 3): one actor stepping them all in time
// order over the LogP network, or one SimGrid actor each with SimGrid communications.
enum class EngineKind { Sequential, SimGrid };

// How a run is driven; none of it changes the results.
struct RunOptions {
  // Default: sequential under platform.network logp, simgrid under shared (its only engine).
  std::optional<EngineKind> engine;
  // simgrid engine: run each node ahead to its delivery horizon (false: wake at every event).
  bool lookahead = true;
  // simgrid engine: one mailbox per talking pair even where one per receiver is exact.
  bool mailbox_per_pair = false;
};

// The engine's name in summary.json and on the command line.
const char* engine_name(EngineKind engine);

// The SimGrid engine is a process-wide singleton: call once per process. Throws InputError for an engine
// the scenario's network cannot use (sequential under shared). The record's wall_seconds is the caller's.
metrics::NowRunRecord run(const config::Scenario& scenario, const metrics::RunHooks& hooks,
                          const RunOptions& options = {});

// Loads the platform and checks what only it can tell (placements on a platform file's hosts), as run()
// does before simulating; throws InputError. Creates the process's SimGrid engine.
void check_platform(const config::Scenario& scenario);

}  // namespace cosched::now
