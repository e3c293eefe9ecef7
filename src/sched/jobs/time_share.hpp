#pragma once
// Time sharing of a job stream with implicit coscheduling (docs/models/now-streams.md section 3.4): up to
// `mpl` processes per workstation, a job's processes placed one per workstation on the least-loaded
// workstations; each workstation's local scheduler and the jobs' waiting algorithms do the rest.

#include <vector>

#include "sched/jobs/job_scheduler.hpp"
#include "sched/jobs/queue.hpp"

namespace cosched::sched {

class TimeShareJobScheduler final : public JobScheduler {
 public:
  // `policy`: the name its errors give (slurm-gang allocates as time-share does).
  TimeShareJobScheduler(int workstations, int mpl, std::string_view policy = "time-share");
  void submit(const StreamJob& job, SimTime now) override;
  void finished(int job, SimTime now) override;
  std::vector<JobStart> decide(SimTime now) override;

  // Processes of running jobs on each workstation.
  const std::vector<int>& load() const { return load_; }

 private:
  // The workstations a job of `processes` would take, ascending; empty when fewer than that many
  // workstations are below the multiprogramming level.
  std::vector<int> place(int processes) const;

  JobQueue queue_;
  int mpl_;
  std::vector<int> load_;
};

extern const JobSchedulerEntry kTimeShareEntry;

}  // namespace cosched::sched
