#pragma once
// Flexible coscheduling of a job stream (Frachtenberg, Feitelson, Petrini and Fernandez, IPDPS 2003 and
// IEEE TPDS 2005; docs/models/now-streams.md section 3.6): the gang matrix of `mpl` rows, placed as `gang`
// places it (section 3.3), over workstations whose gang local schedulers class each process by what it does
// in its own slots (CS, F or DC) and fill the CPU a slot leaves idle with F and DC processes.

#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched {

// job_scheduler.policy fcs's parameters.
struct FcsParams : config::JobSchedulerParams {
  config::Nanos granularity = 1'000'000;  // 1 ms: 10 context switches of the default 100 us
  double blocking = 0.5;
};

extern const JobSchedulerEntry kFcsEntry;

}  // namespace cosched::sched
