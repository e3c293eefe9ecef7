#pragma once
// Explicit coscheduling, the NOW model's best case (Brim & Miller 3.1): an Ousterhout (1982) matrix in
// which every job in turn owns all workstations for one global time slot. docs/models/now-schedulers.md
// has the rules.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

// The matrix shared by all workstations. Global slot k covers [k x quantum, (k + 1) x quantum); jobs take
// slots in rotation, skipping jobs that finished before the slot started. Ownership is computed from
// slot 0 onwards and cached, so every workstation gets the same answer whatever order they ask in.
class GangMatrix {
 public:
  // A completion reported at t frees the slots starting after t + notice_delay: the time for the notice to
  // reach the coordinator and its new schedule to reach every workstation (the NOW model gives 2L).
  GangMatrix(SimTime quantum, std::vector<JobId> jobs, SimTime notice_delay = 0);
  // An open workload's matrix (issue 24, docs/models/now-streams.md section 5): `rows` rows (the
  // multiprogramming level) whose jobs come and go. Slot k belongs to a row, in rotation over the rows that
  // hold a job when the slot starts; on each workstation the process of that row's job there runs.
  struct Rows {
    int count = 1;
  };
  GangMatrix(SimTime quantum, Rows rows);
  // An open workload under a job scheduler that suspends and resumes whole jobs (slurm-gang,
  // docs/models/now-streams.md section 3.5): each job runs when the job scheduler has it active. There are
  // no slots: a process runs until its job stops or it finishes.
  struct Suspensions {};
  explicit GangMatrix(Suspensions);

  SimTime quantum() const { return quantum_; }
  std::int64_t slot_at(SimTime time) const { return time / quantum_; }
  SimTime slot_end(SimTime time) const { return (slot_at(time) + 1) * quantum_; }
  bool has_job(JobId job) const;

  // The job owning `slot`; nothing once every job has finished. The first answer for a slot is final.
  std::optional<JobId> job_for_slot(std::int64_t slot);
  // Records that `job` completed at `time`: it owns no slot starting after `time` that has not been
  // handed out yet. Slots already handed out keep their answer, so a completion reported late (after a
  // workstation running ahead asked about a later slot) leaves those slots to the finished job, and
  // they idle. Repeated reports keep the first.
  void job_finished(JobId job, SimTime time);

  // Open workloads (a matrix built with Rows). Whether it is one.
  bool by_rows() const { return rows_ > 0; }
  // `job` holds a place in `row` for the slots starting at or after `from` ...
  void enter_row(JobId job, int row, SimTime from);
  // ... and before `until` (the coordinator's new schedule reaching the workstations after the job ended).
  void leave_row(JobId job, SimTime until);
  // The row of a job entered; nothing for one that never was.
  std::optional<int> row_of(JobId job) const;
  // The row owning `slot`; nothing when no row holds a job as it starts. The first answer for a slot is
  // final: the engines register a job's entry and exit before any workstation can reach the slots concerned.
  std::optional<int> row_for_slot(std::int64_t slot);

  // Flexible coscheduling (an open workload's matrix of rows, job_scheduler.policy fcs; docs/models/
  // now-streams.md section 3.6): each slot still belongs to a row, but a process is classed by what it did in
  // its own slots, and the processes classed F and DC fill the slots that leave a CPU idle.
  struct Flexible {
    SimTime granularity = 0;  // computation per completed wait at or above which a process is DC
    double blocking = 0;      // fraction of its slot time spent waiting above which a fine process is F
  };
  void set_flexible(Flexible thresholds) { flexible_ = thresholds; }
  const std::optional<Flexible>& flexible() const { return flexible_; }
  // The class of a process that did `slot` in one of its own slots (its activity's growth over the slot),
  // or `current` when the slot says nothing (no wait completed and less computation than the granularity).
  FcsClass classify(const ProcessActivity& slot, FcsClass current) const;

  // Paired gang scheduling (an open workload's matrix of rows, job_scheduler.policy paired-gang;
  // docs/models/now-streams.md section 3.8): each slot's row may run with a partner row, paired by how
  // much of the CPU their jobs were measured to use, the local scheduler running either row's process.
  struct Paired {
    double limit = 1;  // two rows are paired when their utilizations sum to at most this
  };
  void set_paired(Paired rule) { paired_ = rule; }
  const std::optional<Paired>& paired() const { return paired_; }
  // The row running beside the owner of `slot`; nothing when the owner runs alone.
  std::optional<int> partner_for_slot(std::int64_t slot);
  // What one process of `job` did in `slot`, one its row ran in: its computation, and its computation plus
  // its waiting. Each workstation reports a slot as it ends; the pairing of slot s folds in the slots before
  // s - 1 only, which every workstation has reported by the time any reaches s (a slot exceeds how far the
  // engines let one workstation run ahead of another, L, or behind, o). A report for a slot already folded
  // in is a program error.
  void report(std::int64_t slot, JobId job, SimTime compute, SimTime busy);
  // `job`'s CPU utilization as the pairing last saw it (its computation over its computation and waiting in
  // its row's slots, each earlier slot weighing half as much as the next); nothing before its first
  // measured slot. And how many slots its row ran paired while it held it.
  std::optional<double> utilization(JobId job) const;
  std::int64_t paired_slots(JobId job) const;
  // A row's partner changing as a cycle of the rotation starts (pairs.csv): the row, its new partner (-1:
  // alone), and the utilizations the pairing used (nothing: a row not measured yet, or holding no job).
  struct PairChange {
    SimTime time = 0;  // the start of the cycle's first slot
    int row = 0;
    int partner = -1;
    std::optional<double> utilization, partner_utilization;
  };
  // Every change so far, in time order, then by row.
  const std::vector<PairChange>& pair_changes() const { return pair_changes_; }

  // Suspensions (a matrix built with Suspensions). Whether it is one.
  bool by_suspensions() const { return suspensions_; }
  // `job` runs from `from` on (started or resumed), or is stopped from `from` on (suspended); a change
  // replaces the job's changes registered for later times. The engines register each change before any
  // workstation reaches its time.
  void set_active(JobId job, bool active, SimTime from);
  // Whether `job` runs at `time` (a job never set is stopped).
  bool active(JobId job, SimTime time) const;

 private:
  std::size_t index_of(JobId job) const;

  SimTime quantum_;
  SimTime notice_delay_;
  std::vector<JobId> jobs_;
  std::vector<std::optional<SimTime>> finished_at_;  // by index in jobs_
  std::vector<int> owners_;                          // by slot: index in jobs_, -1 when all have finished
  // Open workloads: the rows, and each job's row and the slot starts it holds it over ([from, until)).
  struct RowTenure {
    int row = 0;
    SimTime from = 0;
    std::optional<SimTime> until;
    JobId job = 0;
  };
  int rows_ = 0;
  std::map<JobId, RowTenure> tenure_;
  // The tenures that may still hold a row at a slot not yet handed out: one that ended at or before the
  // start of the slot being handed out ends before every later one too, and leaves this list (so a slot
  // costs the jobs in the matrix, not every job the stream has had).
  std::vector<const RowTenure*> live_;
  std::vector<int> row_owners_;  // by slot: the row, -1 for none
  int last_row_ = -1;            // the last slot's owner other than none
  std::optional<Flexible> flexible_;
  // Paired gang: the rows each slot's owner row runs with (-1: alone), by slot; the reports not yet folded
  // in, by slot; each job's measured use with its memory, and its paired slots.
  struct Usage {
    SimTime compute = 0;
    SimTime busy = 0;
    // Its computation over its computation and waiting; nothing before any.
    std::optional<double> utilization() const {
      if (busy <= 0) return std::nullopt;
      return static_cast<double>(compute) / static_cast<double>(busy);
    }
  };
  void fold_reports(std::int64_t before);
  // Each row's utilization: its jobs' computation over their computation and waiting, once every job in it
  // has a measured slot; nothing for a row not measured yet or holding no job.
  std::vector<std::optional<double>> row_utilizations(const std::vector<const RowTenure*>& holders) const;
  std::vector<int> pair_rows(const std::vector<std::optional<double>>& use) const;
  // Decides the pairs of the cycle starting at `start`, recording each row whose partner changes.
  void pair_cycle(SimTime start, const std::vector<const RowTenure*>& holders);
  std::optional<Paired> paired_;
  std::vector<int> partner_;       // by row: its partner in the rotation's current cycle, -1 for none
  std::vector<int> row_partners_;  // by slot: the row beside its owner, -1 for none
  std::map<std::int64_t, std::map<JobId, Usage>> reports_;
  std::int64_t folded_before_ = 0;  // the slots before this one are folded in
  std::map<JobId, Usage> usage_;
  std::map<JobId, std::int64_t> paired_slots_;
  std::vector<PairChange> pair_changes_;
  // Suspensions: each job's changes, (time, runs from then on), in time order.
  bool suspensions_ = false;
  std::map<JobId, std::vector<std::pair<SimTime, bool>>> changes_;
};

class Gang final : public LocalScheduler {
 public:
  explicit Gang(std::shared_ptr<GangMatrix> matrix);

  void admit(ProcessId process, JobId job, ProcessShare share, SimTime now) override;
  void wake(ProcessId process, SimTime now) override;
  void leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime ran) override;
  std::optional<ProcessId> pick_next(SimTime now) override;
  SimTime time_slice(ProcessId process, SimTime now) const override;
  bool should_preempt(ProcessId running, SimTime now, SimTime ran) const override;
  std::optional<SimTime> next_tick() const override;
  void tick(SimTime now) override { observe(now); }
  // Whether any process is ready, whatever its job: pick_next may still return nothing in a slot whose
  // job has no ready process here.
  bool has_ready() const override { return !ready_.empty(); }
  // Under flexible coscheduling only CS processes spin without end; F and DC ones wait by their jobs'
  // algorithms, so that a filler may take the CPU when they block.
  // Under paired gang every process waits by its job's algorithm, so that the partner's process may run
  // when it blocks.
  bool processes_always_spin() const override { return !matrix_->flexible() && !matrix_->paired(); }
  bool measures() const override { return matrix_->flexible() || matrix_->paired(); }
  bool measure(ProcessId process, const ProcessActivity& so_far, SimTime now) override;
  bool spins_by_process() const override { return matrix_->flexible().has_value(); }
  bool process_always_spins(ProcessId process) const override;
  std::optional<FcsRecord> fcs_record(ProcessId process) const override;

 private:
  enum class State { Ready, Running, Blocked };
  struct Process {
    JobId job;
    State state;
    bool woken = false;  // woken since it last ran (paired gang: it takes the CPU from its partner's process)
  };

  Process& find(ProcessId process);
  const Process& find(ProcessId process) const;
  void observe(SimTime now) { latest_time_ = std::max(latest_time_, now); }
  // The first ready process of the job (closed matrix) or row (open workload) owning the slot at `now`, in
  // the order they became ready.
  std::deque<ProcessId>::const_iterator ready_owner(SimTime now) const;
  // The first ready process of `row`'s jobs or `partner`'s (none for no row), in the order they became ready.
  std::deque<ProcessId>::const_iterator ready_in_row(std::optional<int> row,
                                                     std::optional<int> partner = std::nullopt) const;
  // Paired gang: whether `running` leaves the CPU to a process of the slot's other row.
  bool paired_preempts(ProcessId running, SimTime now) const;

  // Flexible coscheduling: the first ready process of the slot's row, else the first ready F or DC one.
  std::deque<ProcessId>::const_iterator ready_flexible(SimTime now) const;
  bool flexible_preempts(ProcessId running, SimTime now) const;
  FcsClass class_of(ProcessId process) const;

  std::shared_ptr<GangMatrix> matrix_;
  std::map<ProcessId, Process> processes_;
  // Flexible coscheduling, by process id (a workstation numbers its processes 0, 1, ...; kept after a
  // process finishes, for the record): whether it was admitted, its activity at the last tick, its class.
  struct Measured {
    bool admitted = false;
    ProcessActivity last;
    ProcessActivity window;  // its own slots, each earlier one weighing half as much as the next
    FcsRecord record;
  };
  const Measured* measured(ProcessId process) const;
  std::vector<Measured> measured_;
  std::deque<ProcessId> ready_;
  int ready_system_ = 0;  // ready processes of kSystemJob (noise daemons): ready_owner looks for them first
  SimTime latest_time_ = 0;  // next_tick() takes no time: the latest one seen stands in for now
};

// scheduler.policy gang's parameters: the global slot (scheduler.quantum).
struct GangParams : config::LocalSchedulerParams {
  config::Nanos slot = kDefaultQuantum;
  config::Nanos quantum() const override { return slot; }
};
extern const LocalSchedulerEntry kGangEntry;

}  // namespace cosched::sched
