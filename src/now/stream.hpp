#pragma once
// An open workload's run (issue 24; docs/models/now-streams.md section 5): the stream's jobs, the job
// scheduler in front of the workstations, and the coordinator's bookkeeping the engines consult. Pure C++
// (no SimGrid): the engines call it in simulated-time order and carry out its starts.
//
// Timing (section 5.3). The job scheduler sits at a coordinator. A job finishing at t (its last process
// passing its last barrier) is known there at t + notice, notice = L + 2o: the finish message's send
// overhead, its latency and the coordinator's overhead to handle it (LogP, Culler et al. 1993). A start
// decided at t takes effect on the job's workstations at t + start_delay, start_delay = L + o: the start
// message's latency and its handling there. Both exceed how far the engines let a workstation run ahead
// of another (L) or report an event late (o), so that every decision is made on complete knowledge and
// every start reaches a workstation before it has simulated past it: both engines give the same run.

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <vector>

#include "now/node.hpp"
#include "now/stream_jobs.hpp"
#include "sched/jobs/job_scheduler.hpp"
#include "sched/now/gang.hpp"

namespace cosched::now {

inline constexpr Nanos kNoTime = std::numeric_limits<Nanos>::max();

struct StreamTiming {
  Nanos notice = 0;       // a finish at t is known to the job scheduler at t + notice
  Nanos start_delay = 0;  // a start decided at t takes effect on the workstations at t + start_delay
};

// One process of a started job, to be admitted on its workstation at `at`; or, with rank kSignal, a job of
// the workstation suspended or resumed at `at` (its local scheduler reconsiders what runs).
struct ProcessStart {
  static constexpr int kSignal = -1;
  Nanos at = 0;
  int job = 0;
  int rank = 0;
};

class Stream {
 public:
  // `layouts`: one per job of `build`, in its order, their workstations filled in as jobs start. `matrix`:
  // the gang matrix of the gang job scheduler's rows or of the slurm-gang job scheduler's suspensions (null
  // otherwise). `capacity`: processes a workstation may hold at once (1 for dedicated policies, mpl for
  // time-share and slurm-gang; per row for gang).
  Stream(StreamBuild build, std::unique_ptr<sched::JobScheduler> scheduler, StreamTiming timing,
         int workstations, int capacity, std::vector<JobLayout>* layouts,
         std::shared_ptr<sched::GangMatrix> matrix);

  const StreamBuild& build() const { return build_; }
  const StreamTiming& timing() const { return timing_; }

  // The coordinator. The time of its next events (a submit, or a finish becoming known); kNoTime for none.
  Nanos next_decision() const;
  // Its events at `now` (= next_decision()) in the order of sched::JobScheduler (finishes by job, submits
  // by job, one decide()); queues each start's processes on their workstations. Returns the workstations
  // given processes to start, each once.
  std::vector<int> decide(Nanos now);
  // A job's last process finished at `time` (the JobTracker's listener; any order of report).
  void job_finished(int job, Nanos time);
  // Called when a finish makes the coordinator's next decision earlier than it was (the SimGrid engine's
  // coordinator waits for it).
  void on_earlier_decision(std::function<void(Nanos)> listener) { earlier_ = std::move(listener); }
  // Every job has finished and the coordinator knows it: nothing is left to decide or start.
  bool done() const { return known_finished_ == static_cast<int>(build_.jobs.size()); }
  // Jobs wait that the job scheduler never starts, with nothing running and nothing left to tell it: a
  // policy's bug, which the engines report rather than wait forever.
  bool stalled() const { return !done() && next_decision() == kNoTime && started_ == known_finished_; }

  // The workstations. The time of workstation w's next process start or signal; kNoTime for none.
  Nanos next_start(int w) const { return pending_[w].empty() ? kNoTime : pending_[w].front().at; }
  ProcessStart pop_start(int w);

  // Records: when each job started on its workstations (-1: never) and where; how often it was suspended.
  Nanos start_time(int job) const { return start_[job]; }
  int suspensions(int job) const { return suspensions_[job]; }
  const std::vector<int>& workstations_of(int job) const { return (*layouts_)[job].workstation_of; }

 private:
  void check_start(const sched::JobStart& start) const;
  bool by_rows() const { return matrix_ && matrix_->by_rows(); }
  // Queues an event for workstation w, in time order (a resumption's cost may place it after later ones),
  // and adds w to `touched` (the workstations given events by one decision) unless it is there.
  void queue_event(int w, ProcessStart event, std::vector<int>& touched);
  // The suspensions and resumptions the job scheduler decided at `now`, reaching the workstations at `at`.
  void carry_out_signals(Nanos now, Nanos at, std::vector<int>& touched);
  // The decision lines of cosched_now_jobs: a job's name, a time, a start.
  std::string name(int job) const;
  static std::string seconds(Nanos time);
  void log_start(const sched::JobStart& start, Nanos now, Nanos at) const;

  StreamBuild build_;
  std::unique_ptr<sched::JobScheduler> scheduler_;
  StreamTiming timing_;
  int workstations_;
  int capacity_;
  std::vector<JobLayout>* layouts_;
  std::shared_ptr<sched::GangMatrix> matrix_;
  std::size_t next_submit_ = 0;                    // the first job not yet submitted
  std::set<std::pair<Nanos, int>> notices_;        // (time known to the coordinator, job), not yet told
  int known_finished_ = 0;                         // finishes told to the job scheduler
  int started_ = 0;                                // jobs started
  std::vector<Nanos> start_;                       // by job
  std::vector<int> row_;                           // by job: its gang row, -1
  std::vector<int> suspensions_;                   // by job: times it was stopped (at its start included)
  std::vector<std::vector<int>> load_;             // by row (one unless gang), by workstation: jobs placed
  std::vector<std::deque<ProcessStart>> pending_;  // by workstation, in time order
  std::function<void(Nanos)> earlier_;
};

}  // namespace cosched::now
