#pragma once
// The job-level scheduler of an open workload on the NOW (issue 24; docs/models/now-streams.md): it stands in
// front of the workstations' local schedulers, receives the stream's jobs as they are submitted and decides
// when each starts and on which workstations. Pure decision logic, like the local schedulers: it never
// advances time and never touches SimGrid. The NOW engines (now/stream.cpp) tell it what happened, in time
// order, and start the jobs it returns.
//
// Policies (sched/jobs/job_scheduler_registry.cpp): fcfs and easy on dedicated workstations (one process per
// workstation, each job alone on its workstations); gang (an Ousterhout matrix of `mpl` rows: the job's
// processes share each workstation with the other rows' jobs, one row owning all workstations per global
// slot); time-share (up to `mpl` processes per workstation, the local schedulers and the jobs' waiting
// algorithms doing the rest: implicit coscheduling).

#include <cstdint>
#include <optional>
#include <vector>

#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

// A job of the stream as the scheduler sees it (times in simulated nanoseconds, already scaled).
struct StreamJob {
  int id = 0;              // index in the stream, in submit order
  SimTime submit = 0;
  int processes = 0;       // one per allocated processor of the SWF record
  SimTime estimate = 0;    // the user's requested time (EASY's estimate); the run time when the trace has none
};

// A decision: start `job` now on these workstations (one per process, by rank). `row` is its gang row
// (gang only; -1 otherwise).
struct JobStart {
  int job = 0;
  std::vector<int> workstations;
  int row = -1;
};

class JobScheduler {
 public:
  virtual ~JobScheduler() = default;
  // Called in time order; several events at the same time come in this order: finishes (by job id), then
  // submits (by job id), then one call to decide().
  virtual void submit(const StreamJob& job, SimTime now) = 0;
  // A job it started has finished (its last process passed its last barrier) at `now`.
  virtual void finished(int job, SimTime now) = 0;
  // The jobs to start at `now`, in the order they are started; each is started exactly when returned.
  virtual std::vector<JobStart> decide(SimTime now) = 0;
};

}  // namespace cosched::sched
