#pragma once
// The decision logic of a workstation's local scheduler in the NOW model (Brim & Miller 3.1: TS, stride,
// stride with system credit, explicit gang scheduling). A scheduler never advances time, never sends
// messages and never touches SimGrid: the workstation's node (src/now/node.hpp) tells it what happened
// and asks what to do. Times are integer nanoseconds of simulated time.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "config/policy.hpp"

namespace cosched::sched {

using SimTime = std::int64_t;  // nanoseconds
using ProcessId = int;         // index of a process on this workstation
using JobId = int;             // index of a job instance in the scenario
// The job of a process that belongs to no parallel job: a workstation's noise daemon (docs/models/now.md
// section 8.2). Every policy schedules it as one of its own processes; gang runs it ahead of the slot's job.
inline constexpr JobId kSystemJob = -1;

enum class LeaveReason {
  Blocked,         // gave the CPU up voluntarily (a wait turned into blocking)
  QuantumExpired,  // its time slice ran out
  Preempted,       // a process judged more urgent by should_preempt took the CPU
  Finished,        // it exited
};

// What a process's job gives it of its workstation: tickets (stride scheduling) and a nice value (Linux's
// fair schedulers); each policy reads its own.
struct ProcessShare {
  constexpr ProcessShare(int tickets_, int nice_ = 0)
      : tickets(tickets_), nice(nice_) {}  // NOLINT: tickets alone
  int tickets;
  int nice;
};

// What a process has done so far, as its node measures it (flexible coscheduling's classification,
// docs/models/now-streams.md section 3.6): its computation, its waits for messages (spinning or blocked),
// and the waits it completed (reads and barriers).
struct ProcessActivity {
  SimTime compute = 0;
  SimTime waiting = 0;
  std::int64_t waits = 0;
};

// Flexible coscheduling's classes (Frachtenberg et al. 2003): CS needs coscheduling, F (frustrated) needs it
// but does not benefit from it, DC does not care. Their names in the records: CS, F, DC.
enum class FcsClass : std::uint8_t { CS, F, DC };
// A process's class as the run ends, and how many times it changed.
struct FcsRecord {
  FcsClass cls = FcsClass::CS;
  std::int64_t reclassifications = 0;
};

class LocalScheduler {
 public:
  virtual ~LocalScheduler() = default;

  // Declares a process of `job` on this workstation; it becomes runnable at `now`.
  virtual void admit(ProcessId process, JobId job, ProcessShare share, SimTime now) = 0;
  // A blocked process was woken by a message and is runnable again.
  virtual void wake(ProcessId process, SimTime now) = 0;
  // The running process leaves the CPU after running `ran` since it was dispatched (or since its last
  // quantum started). Blocked and Finished processes leave the ready set; the others stay in it.
  virtual void leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime ran) = 0;
  // Chooses the process to run next and removes it from the ready set; nothing when none should run.
  virtual std::optional<ProcessId> pick_next(SimTime now) = 0;
  // The time slice of a process just picked: how long it may run before its quantum expires.
  virtual SimTime time_slice(ProcessId process, SimTime now) const = 0;
  // Asked after wake() and tick(): should a ready process take the CPU from `running` now?
  virtual bool should_preempt(ProcessId running, SimTime now, SimTime ran) const = 0;
  // Why the running process leaves when should_preempt says so: a better process took the CPU, or (Linux's
  // fair schedulers, whose slices end at ticks) its slice is over.
  virtual LeaveReason preempt_reason() const { return LeaveReason::Preempted; }
  // The next time the scheduler wants tick() called (TS once-per-second update, gang slot boundary).
  virtual std::optional<SimTime> next_tick() const = 0;
  virtual void tick(SimTime now) = 0;
  // False when next_tick() is always empty: a driver may then skip asking it (a speed hint only).
  virtual bool ticks() const { return true; }
  // True when a wake-up may end the running process's time slice sooner than time_slice() said at its
  // dispatch: the driver then asks time_slice() again after each wake-up (Linux's fair schedulers, whose
  // slice ends depend on who else is queued).
  virtual bool slices_move() const { return false; }
  virtual bool has_ready() const = 0;
  // Under explicit coscheduling processes own their slot and never block (Brim & Miller 3.1).
  virtual bool processes_always_spin() const { return false; }
  // Policies that classify processes by what they do (flexible coscheduling). measures(): the node reports
  // each live process's activity at every tick, before tick(). spins_by_process(): whether a process spins
  // without end is its own (process_always_spins), not processes_always_spin()'s. fcs_record(): a process's
  // class, finished or not.
  virtual bool measures() const { return false; }
  // Returns whether the process's class changed.
  virtual bool measure(ProcessId /*process*/, const ProcessActivity& /*so_far*/, SimTime /*now*/) {
    return false;
  }
  virtual bool spins_by_process() const { return false; }
  virtual bool process_always_spins(ProcessId /*process*/) const { return processes_always_spin(); }
  virtual std::optional<FcsRecord> fcs_record(ProcessId /*process*/) const { return std::nullopt; }
};

class GangMatrix;

// A local scheduling policy as its registry lists it (sched/now/local_scheduler_registry.hpp); each policy
// declares its own beside its code: what every policy declares (its parameters derive from
// config::LocalSchedulerParams), and the family's traits and factory.
struct LocalSchedulerEntry {
  config::PolicySpec spec;
  // Every workstation's scheduler shares one gang matrix (explicit coscheduling).
  bool gang_matrix = false;
  // The policy for these parameters; `gang_matrix` is the matrix shared by all workstations (null unless the
  // entry asks for one). Throws std::invalid_argument naming the setting when the configuration is refused.
  std::unique_ptr<LocalScheduler> (*make)(const config::PolicyParams& params,
                                          std::shared_ptr<GangMatrix> gang_matrix);
  // Its processes are weighted by their jobs' nice values (workload.jobs[].nice).
  bool nice = false;
};

// scheduler.context_switch, which every policy takes, placed among its own keys where its errors come.
inline constexpr config::PolicyKey kContextSwitchKey =
    config::duration_key<&config::LocalSchedulerParams::context_switch, config::Zero::Allowed>(
        "context_switch",
        "the workstation's context switch W, charged at each dispatch (duration, default 100us)");

// The default quantum and gang slot (scheduler.quantum).
inline constexpr config::Nanos kDefaultQuantum = 10'000'000;

}  // namespace cosched::sched
