#pragma once
// The sequential engine (platform.network logp only): one SimGrid actor steps every workstation's Node in
// windows of the smallest latency from the earliest next event of all (the nodes' timers and the messages
// arriving to them), the arrival times computed from the LogP network. No SimGrid communication is created;
// SimGrid's clock follows the model's at every quantum boundary and exactly at the end. docs/models/now.md
// section 3.

#include "metrics/progress.hpp"
#include "now/prepared_run.hpp"

namespace cosched::now {

// Creates the actor and runs the SimGrid engine until every workstation is done.
void drive_sequentially(PreparedRun& run, const metrics::ProgressSink& progress);
// The same stepping outside SimGrid, its clock left alone: a second run in a process whose engine has run
// (the baseline without noise of a run with noise, docs/models/now.md section 8.4).
void drive_without_clock(PreparedRun& run);

}  // namespace cosched::now
