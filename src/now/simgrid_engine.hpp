#pragma once
// The simgrid engine: one SimGrid actor per workstation drives its Node, and messages travel as
// detached SimGrid communications (src/now/delivery.cpp). docs/models/now.md section 3.

#include "metrics/progress.hpp"
#include "now/prepared_run.hpp"

namespace cosched::now {

struct SimgridEngineOptions {
  // Run each node ahead to its delivery horizon and wake its actor only for sends and arrivals; false
  // wakes it at every event of its node (slower, identical results: a diagnostic, tested).
  bool lookahead = true;
  // One mailbox per talking pair even where one per receiver is exact (a diagnostic, tested).
  bool mailbox_per_pair = false;
};

// Creates the actors and runs the SimGrid engine until every workstation is done.
void drive_with_actors(PreparedRun& run, const SimgridEngineOptions& options,
                       const metrics::ProgressSink& progress);

}  // namespace cosched::now
