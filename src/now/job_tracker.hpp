#pragma once
// Completion of the parallel jobs, shared by all workstations of a run (pure bookkeeping).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace cosched::now {

using Nanos = std::int64_t;

class JobTracker {
 public:
  explicit JobTracker(std::vector<int> processes_per_job);
  // A process of `job` passed its last barrier at `now`; returns true when that completes the job.
  bool process_finished(int job, Nanos now);
  std::optional<Nanos> completion(int job) const { return completion_[job]; }
  bool all_done() const { return jobs_left_ == 0; }
  // Progress: process-barriers passed so far, out of total_barriers().
  void barrier_passed() { ++barriers_passed_; }
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
};

inline JobTracker::JobTracker(std::vector<int> processes_per_job)
    : left_(std::move(processes_per_job)),
      completion_(left_.size()),
      latest_(left_.size(), 0),
      jobs_left_(static_cast<int>(left_.size())) {}

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
