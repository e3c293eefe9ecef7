#pragma once
// First-come first-served on dedicated workstations (docs/models/now-streams.md section 3.1): each job
// alone on its workstations, one process per workstation; the queue's head starts as soon as enough
// workstations are free and no later job overtakes it.

#include <vector>

#include "sched/jobs/job_scheduler.hpp"
#include "sched/jobs/queue.hpp"

namespace cosched::sched {

// Which workstations are free under the dedicated policies (fcfs, easy).
class DedicatedWorkstations {
 public:
  explicit DedicatedWorkstations(int workstations) : busy_(static_cast<std::size_t>(workstations), false) {}
  int free() const { return free_; }
  // Choice (now-streams.md 3.1): the `count` lowest-numbered free workstations, marked busy. On the NOW's
  // star network every pair of workstations is the same distance apart, so which ones matters only for
  // the record; lowest-numbered is the usual deterministic rule.
  std::vector<int> take(int count);
  void release(const std::vector<int>& workstations);

 private:
  std::vector<bool> busy_;
  int free_ = static_cast<int>(busy_.size());
};

class FcfsJobScheduler final : public JobScheduler {
 public:
  explicit FcfsJobScheduler(int workstations);
  void submit(const StreamJob& job, SimTime now) override;
  void finished(int job, SimTime now) override;
  std::vector<JobStart> decide(SimTime now) override;

 private:
  JobQueue queue_;
  DedicatedWorkstations workstations_;
};

extern const JobSchedulerEntry kFcfsEntry;

}  // namespace cosched::sched
