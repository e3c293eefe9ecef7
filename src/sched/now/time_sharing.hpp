#pragma once
// The Solaris time-sharing class (TS) as the NOW model's "worst-case" local scheduler (Brim & Miller 3.1):
// 60 priority levels driven only by the dispatch table (illumos usr/src/uts/common/disp/ts.c). Each rule
// and its source is in docs/models/now-schedulers.md.

#include <array>
#include <deque>
#include <map>

#include "sched/now/local_scheduler.hpp"
#include "sched/now/ts_dispatch_table.hpp"

namespace cosched::sched {

// When a woken process gets the table's sleep-return level.
enum class SleepReturn {
  Always,   // on every wakeup: the SVR4 policy of Dimemas, which implicit coscheduling relies on
  Maxwait,  // as illumos ts.c: only when its waiting counter exceeds maxwait of its level
};

class TimeSharing final : public LocalScheduler {
 public:
  // Half of the user range, where illumos ts_enterclass starts a process (tsmedumdpri).
  static constexpr int kDefaultInitialLevel = 29;
  static constexpr SimTime kUpdatePeriod = 1'000'000'000;  // ts_update runs once per second

  explicit TimeSharing(int initial_level = kDefaultInitialLevel,
                       SleepReturn sleep_return = SleepReturn::Always,
                       TsDispatchTable table = TsDispatchTable::solaris_default());

  void admit(ProcessId process, JobId job, ProcessShare share, SimTime now) override;
  void wake(ProcessId process, SimTime now) override;
  void leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime ran) override;
  std::optional<ProcessId> pick_next(SimTime now) override;
  SimTime time_slice(ProcessId process, SimTime now) const override;
  bool should_preempt(ProcessId running, SimTime now, SimTime ran) const override;
  std::optional<SimTime> next_tick() const override { return next_update_; }
  void tick(SimTime now) override;
  bool has_ready() const override;

  int level(ProcessId process) const { return find(process).level; }
  // Once-per-second updates since the counter was last reset (illumos ts_dispwait).
  int waiting_seconds(ProcessId process) const { return find(process).waiting_seconds; }

 private:
  enum class State { Ready, Running, Blocked };
  struct Process {
    int level;
    SimTime quantum_left;
    int waiting_seconds;
    State state;
  };

  Process& find(ProcessId process);
  const Process& find(ProcessId process) const;
  // Moves to `level` with a fresh quantum of that level and resets the waiting counter.
  void change_level(Process& process, int level);
  void expire_quantum(Process& process);
  void dequeue(ProcessId process, int level);
  int highest_ready_level() const;  // -1 when nothing is ready

  TsDispatchTable table_;
  int initial_level_;
  SleepReturn sleep_return_;
  std::map<ProcessId, Process> processes_;
  std::array<std::deque<ProcessId>, TsDispatchTable::kLevels> queues_;
  SimTime next_update_ = kUpdatePeriod;
};

// scheduler.policy ts's parameters: its quanta come from the dispatch table.
struct TimeSharingParams : config::LocalSchedulerParams {
  SleepReturn sleep_return = SleepReturn::Always;
  int initial_level = TimeSharing::kDefaultInitialLevel;
  // The dispatch table's quanta are 20 to 200 ms: the footprint estimates' 10 ms bounds the switches they
  // make.
  config::Nanos quantum() const override { return kDefaultQuantum; }
};
extern const LocalSchedulerEntry kTimeSharingEntry;

}  // namespace cosched::sched
