#pragma once
// What every job-level scheduler (sched/jobs/job_scheduler.hpp) shares: the queue of submitted jobs in submit
// order, and the checks that the NOW engine keeps to the interface's contract (a job submitted once, no
// larger than the platform; only started jobs finish).

#include <deque>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched {

class JobQueue {
 public:
  JobQueue(std::string_view policy, int workstations);

  // Queues `job`; throws std::invalid_argument for a job of no process or of more processes than there are
  // workstations (now::build_stream skips those, docs/models/now-streams.md section 4), or one seen before.
  void push(const StreamJob& job);
  bool empty() const { return waiting_.empty(); }
  const std::deque<StreamJob>& waiting() const { return waiting_; }
  // Takes the waiting job at `index` (0: the head) out of the queue and records it as running there.
  StreamJob start(std::size_t index, std::vector<int> workstations, SimTime now);
  // Records that a running job finished; returns where it ran. Throws std::logic_error for a job that is
  // not running.
  std::vector<int> finish(int job);

  struct Running {
    StreamJob job;
    SimTime start = 0;
    std::vector<int> workstations;
  };
  const std::map<int, Running>& running() const { return running_; }
  int workstations() const { return workstations_; }

 private:
  std::string_view policy_;
  int workstations_;
  std::deque<StreamJob> waiting_;
  std::map<int, Running> running_;
  std::set<int> seen_;
};

}  // namespace cosched::sched
