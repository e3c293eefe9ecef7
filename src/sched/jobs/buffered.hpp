#pragma once
// Buffered coscheduling of a job stream (Petrini and Feng, IPPS 2000; docs/models/now-streams.md section
// 3.7): the gang matrix of `mpl` rows, placed as `gang` places it (section 3.3), over workstations that
// buffer every message their processes send and let it leave only after the next global strobe, when the
// strobe's total exchange is done (MessageStrobe).

#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched {

// job_scheduler.policy buffered's parameters.
struct BufferedParams : config::JobSchedulerParams {
  config::Nanos strobe = 0;    // the strobe interval; 0: the gang slot (scheduler.quantum)
  config::Nanos exchange = 0;  // how long a strobe's total exchange takes before the buffers are sent
};

extern const JobSchedulerEntry kBufferedEntry;

}  // namespace cosched::sched
