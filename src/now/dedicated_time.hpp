#pragma once
// A NOW job's run time alone on dedicated idle workstations, in closed form from the NOW model's rules
// (docs/models/now-streams.md section 4.4, docs/models/now.md): the start's context switch, B phases, the
// barriers' critical path and the expected wake-ups at barriers under load imbalance. An open workload's
// jobs are sized by it so that each runs its (scaled) SWF run time (now/stream_jobs.cpp).

#include <cstdint>

#include "config/scenario.hpp"

namespace cosched::now {

using Nanos = std::int64_t;

// A job's barriers: one per class sync_interval of its run time, at least one (now-streams.md 4.4).
std::int64_t barriers_of(Nanos class_sync_interval, Nanos run_time);

// Fills in `profile`'s barriers and sync_interval (its mean phase budget) so that the job, started alone on
// dedicated idle workstations of `now`, ends `run_time` ns after it starts: exactly under the rules
// now-streams.md 4.4 counts, to within half a read's round trip per phase, and on average over seeds under
// load imbalance. `profile`'s processes, pattern, intervals, barrier trees, imbalance and wait are read.
void size_phases(config::NowJobProfile& profile, const config::NowConfig& now, Nanos class_sync_interval,
                 Nanos run_time);

}  // namespace cosched::now
