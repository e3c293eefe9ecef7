#pragma once
// Completion of the parallel jobs and each job's barriers, shared by all workstations of a run (pure
// bookkeeping). Every record is a minimum, a maximum or a sum, so the order in which the workstations report
// does not change it.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace cosched::now {

using Nanos = std::int64_t;

// One barrier of one job, over its processes: barriers.csv's row (docs/models/now.md section 7).
struct BarrierSummary {
  Nanos first_arrival = -1;
  Nanos last_arrival = -1;
  Nanos last_pass = -1;
  std::int64_t blocks = 0;  // times its processes blocked while waiting at it
};

class JobTracker {
 public:
  explicit JobTracker(std::vector<int> processes_per_job);
  // A process of `job` passed its last barrier at `now`; returns true when that completes the job.
  bool process_finished(int job, Nanos now);
  std::optional<Nanos> completion(int job) const { return completion_[job]; }
  bool all_done() const { return jobs_left_ == 0; }
  // A process of `job` arrived at, blocked at, or passed `barrier` at `now`. Kept per job, not per process: a
  // run of 65,536 workstations and 1,000 barriers would otherwise hold 1.5 GB of per-process records.
  void barrier_arrived(int job, int barrier, Nanos now) {
    auto& b = summary(job, barrier);
    if (b.first_arrival < 0 || now < b.first_arrival) b.first_arrival = now;
    b.last_arrival = std::max(b.last_arrival, now);
  }
  void barrier_blocked(int job, int barrier) { ++summary(job, barrier).blocks; }
  void barrier_passed(int job, int barrier, Nanos now) {
    auto& b = summary(job, barrier);
    b.last_pass = std::max(b.last_pass, now);
    ++barriers_passed_;
  }
  // The barriers of `job` some process arrived at, in order.
  const std::vector<BarrierSummary>& barriers(int job) const { return barriers_[job]; }
  // Progress: process-barriers passed so far, out of total_barriers().
  std::int64_t barriers_passed() const { return barriers_passed_; }
  int jobs() const { return static_cast<int>(completion_.size()); }
  // Called when a job completes (gang scheduling's matrix listens).
  void on_job_done(std::function<void(int job, Nanos now)> listener) { listener_ = std::move(listener); }

 private:
  std::vector<int> left_;
  std::vector<std::optional<Nanos>> completion_;
  std::vector<Nanos> latest_;  // the latest finish reported so far, by job
  int jobs_left_;
  std::int64_t barriers_passed_ = 0;
  std::function<void(int, Nanos)> listener_;
  std::vector<std::vector<BarrierSummary>> barriers_;  // by job, then barrier
  BarrierSummary& summary(int job, int barrier) {
    auto& list = barriers_[job];
    if (static_cast<std::size_t>(barrier) >= list.size()) list.resize(static_cast<std::size_t>(barrier) + 1);
    return list[barrier];
  }
};

inline JobTracker::JobTracker(std::vector<int> processes_per_job)
    : left_(std::move(processes_per_job)),
      completion_(left_.size()),
      latest_(left_.size(), 0),
      jobs_left_(static_cast<int>(left_.size())),
      barriers_(left_.size()) {}

inline bool JobTracker::process_finished(int job, Nanos now) {
  // Workstations report in the order their actors run, not in time order: keep the latest time.
  latest_[job] = std::max(latest_[job], now);
  if (--left_[job] > 0) return false;
  completion_[job] = latest_[job];
  --jobs_left_;
  if (listener_) listener_(job, latest_[job]);
  return true;
}

}  // namespace cosched::now
