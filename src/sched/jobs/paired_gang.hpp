#pragma once
// Paired gang scheduling of a job stream (Wiseman and Feitelson, IEEE TPDS 14(6), 2003; docs/models/
// now-streams.md section 3.8): the gang matrix of `mpl` rows, placed as `gang` places it (section 3.3),
// whose rows share their slots in pairs, a heavily used row with a lightly used one, by the CPU utilization
// the workstations measure as the jobs run; in a paired slot the local scheduler runs either row's process.

#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched {

// job_scheduler.policy paired-gang's parameters.
struct PairedGangParams : config::JobSchedulerParams {
  double pair_limit = 1;  // two rows pair when their measured utilizations sum to at most this
};

extern const JobSchedulerEntry kPairedGangEntry;

}  // namespace cosched::sched
