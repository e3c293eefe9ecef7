#pragma once
// An open workload's jobs as the NOW model runs them (issue 24; docs/models/now-streams.md): the usable SWF
// records of a stream, scaled (arrival_scale or load, time_scale), each given the communication profile of
// its class and a computation sized so that its dedicated run time is its (scaled) SWF run time.

#include <cstdint>
#include <string>
#include <vector>

#include "config/scenario.hpp"
#include "sched/jobs/job_scheduler.hpp"
#include "workload/swf.hpp"

namespace cosched::now {

using Nanos = std::int64_t;

struct StreamJobSpec {
  sched::StreamJob job;           // what the job scheduler sees: id, submit, processes, estimate (scaled, ns)
  config::NowJobProfile profile;  // its class's profile with processes, barriers and intervals filled in
  std::string job_class;          // the class's name
  std::int64_t swf_number = -1;   // field 1 of its record
  int swf_line = 0;               // the record's line in the SWF file
  Nanos run_time = 0;             // SWF run time x time_scale: its run time alone on dedicated workstations
};

struct StreamBuild {
  std::vector<StreamJobSpec> jobs;     // in submit order; job.id is the index
  std::int64_t skipped_unusable = 0;   // records the parser skipped (within first/jobs)
  std::int64_t skipped_too_large = 0;  // records needing more processors than the platform has workstations
  double arrival_scale = 1;            // as applied (derived from `load` when given)
  double offered_load = 0;             // sum(run_time x processes) / (workstations x submit span), as applied
};

// `trace` as workload::read_swf returns it: its jobs in submit order, each with its size (processors >= 1)
// and a run time above 0. Throws config::InputError for what only the trace and the platform can tell (no
// usable job left, a load the trace cannot reach, a job no class takes), naming the scenario's key.
StreamBuild build_stream(const workload::SwfTrace& trace, const config::NowConfig& now, int workstations,
                         std::uint64_t seed);

// The checks of build_stream that need no run, for `cosched validate` (scenario/now_stream_section.cpp):
// the window holds a job, `load` has a submit span, every job has a class. `workstations` 0: the platform
// is not known yet (platform.file), so no job counts as too large and the classes are not checked (a job
// too large for the platform is skipped whatever its class).
void check_stream(const workload::SwfTrace& trace, const config::NowStream& stream, int workstations);

}  // namespace cosched::now
