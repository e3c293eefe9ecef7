#pragma once
// Slurm's gang scheduling of a job stream (docs/models/now-streams.md section 3.5): `PreemptMode=GANG` with
// `OverSubscribe=FORCE:oversubscribe` and `SchedulerTimeSlice=time_slice`, as Slurm's
// doc/html/gang_scheduling.shtml describes it. Jobs are allocated in FIFO order, each workstation shared by
// up to `oversubscribe` jobs (the placement of time-share); the time slicer keeps an "active bitmap" of jobs
// whose workstations do not overlap, runs those and suspends the others, and at every time slice rotates
// the suspended jobs in.

#include <optional>
#include <vector>

#include "sched/jobs/job_scheduler.hpp"
#include "sched/jobs/time_share.hpp"

namespace cosched::sched {

// The time slicer alone, on resources of any kind: Slurm's nodes under select/linear, cores under
// CR_Core, a node's CPUs counted under CR_CPU (gang_scheduling.shtml's examples; the NOW's jobs take one
// unit of each of their workstations).
class SlurmTimeSlicer {
 public:
  // `capacity[r]`: the units of resource r the running jobs may hold together.
  explicit SlurmTimeSlicer(std::vector<int> capacity);

  struct Demand {
    int resource = 0;
    int units = 1;
  };
  // A job was allocated `demand`: it runs when that fits beside the running jobs, else it is suspended
  // ("If these two sets of resources are disjoint then the new job is added to the active bitmap. If these
  // two sets of resources overlap then the new job is suspended."). It joins the end of the queue. Returns
  // whether it runs.
  bool add(int job, std::vector<Demand> demand);
  // A job ended: it leaves the queue, and the suspended jobs that now fit, in queue order, resume (Slurm's
  // gs_job_fini). Returns them.
  std::vector<int> remove(int job);
  // The time slicer's wake-up. With no job suspended, nothing. Otherwise every running job moves to the
  // end of the queue, keeping their order, and the active set is rebuilt from the queue's front, each job
  // in turn joining it when it fits ("beginning with the suspended job that has waited the longest to
  // run"). Returns the jobs that stop and those that resume.
  struct Changes {
    std::vector<int> suspended;
    std::vector<int> resumed;
  };
  Changes cycle();

  bool running(int job) const;
  bool any_suspended() const;
  // The jobs in queue order.
  std::vector<int> queue() const;

 private:
  struct Entry {
    int job = 0;
    std::vector<Demand> demand;
    bool running = false;
  };
  bool fits(const Entry& entry) const;
  void hold(const Entry& entry, int sign);

  std::vector<int> capacity_;
  std::vector<int> used_;  // units held by the running jobs
  std::vector<Entry> queue_;
};

// job_scheduler.policy slurm-gang's parameters; `mpl` is `oversubscribe`.
struct SlurmGangParams : config::JobSchedulerParams {
  SlurmGangParams() { mpl = 4; }              // OverSubscribe=FORCE's default max_share
  config::Nanos time_slice = 30'000'000'000;  // SchedulerTimeSlice's default, 30 s
  config::Nanos suspend_resume = 0;
};

class SlurmGangJobScheduler final : public JobScheduler {
 public:
  SlurmGangJobScheduler(int workstations, const SlurmGangParams& params);
  void submit(const StreamJob& job, SimTime now) override;
  void finished(int job, SimTime now) override;
  std::vector<JobStart> decide(SimTime now) override;
  std::vector<JobSignal> take_signals() override;
  std::optional<SimTime> next_wakeup() const override;

  const SlurmTimeSlicer& slicer() const { return slicer_; }

 private:
  void signal(const std::vector<int>& jobs, bool run);

  TimeShareJobScheduler allocation_;
  SlurmTimeSlicer slicer_;
  SimTime time_slice_;
  SimTime resume_delay_;
  SimTime last_decision_ = 0;
  std::vector<JobSignal> signals_;
};

extern const JobSchedulerEntry kSlurmGangEntry;

}  // namespace cosched::sched
