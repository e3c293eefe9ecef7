#pragma once
// A NOW run ready to be driven: the SimGrid engine and platform, the jobs as every workstation sees
// them, the shared bookkeeping and one pure Node per workstation. now::run prepares it, hands it to an
// engine (src/now/simgrid_engine.cpp), then writes the results from it.

#include <cstdint>
#include <memory>
#include <simgrid/s4u.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config/limits.hpp"
#include "config/scenario.hpp"
#include "now/job_tracker.hpp"
#include "now/node.hpp"
#include "now/stream.hpp"
#include "platform/now_platform.hpp"
#include "sched/jobs/job_scheduler.hpp"
#include "sched/now/gang.hpp"

namespace cosched::now {

struct PreparedRun {
  std::unique_ptr<simgrid::s4u::Engine> engine;
  const config::NowConfig* config = nullptr;
  std::string scenario_file;  // names the scenario in errors found while the run is driven
  platform::NowPlatform platform;
  std::vector<JobLayout> jobs;
  // The layout of every workstation's noise daemon (docs/models/now.md section 8.2); null when no noise
  // source is a daemon.
  std::unique_ptr<JobLayout> daemon;
  std::unique_ptr<JobTracker> tracker;
  std::shared_ptr<sched::GangMatrix> gang;  // under gang scheduling only
  // Buffered coscheduling's strobes (job_scheduler.policy buffered); interval 0: none.
  sched::MessageStrobe strobe;
  // An open workload's stream and job scheduler (docs/models/now-streams.md section 5); null for a closed
  // workload. Its jobs are `jobs`, their workstations filled in as they start.
  std::unique_ptr<Stream> stream;
  // The messages for the traces (output.trace_messages); null when they are not traced. Before the nodes,
  // which point to it.
  std::unique_ptr<metrics::MessageRecorder> messages;
  std::vector<std::unique_ptr<Node>> nodes;  // by workstation
  std::int64_t total_barriers = 0;           // process-barriers in the run (progress)

  int workstations() const { return static_cast<int>(platform.workstations.size()); }
  // What the error at the largest simulated time advises. Under strobes a blocking read waits for one and
  // its reply for the next (docs/models/now-streams.md section 3.7): the strobe interval sets the pace.
  std::string_view time_limit_advice() const {
    return strobe.interval > 0 ? "a shorter job_scheduler.strobe (each blocking read waits for a strobe and "
                                 "its reply for the next), fewer jobs or a lighter load"
                               : config::limits::kEndSooner;
  }
};

}  // namespace cosched::now
