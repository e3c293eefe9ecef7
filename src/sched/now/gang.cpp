#include "sched/now/gang.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "config/limits.hpp"

namespace cosched::sched {

GangMatrix::GangMatrix(SimTime quantum, std::vector<JobId> jobs, SimTime notice_delay)
    : quantum_(quantum), notice_delay_(notice_delay), jobs_(std::move(jobs)), finished_at_(jobs_.size()) {
  if (quantum <= 0) {
    throw std::invalid_argument(
        fmt::format("scheduler.quantum: expected a positive gang slot, got {} ns", quantum));
  }
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (jobs_[i] == jobs_[j])
        throw std::invalid_argument(fmt::format("gang matrix: job {} listed twice", jobs_[i]));
    }
  }
}

GangMatrix::GangMatrix(SimTime quantum, Rows rows) : quantum_(quantum), notice_delay_(0), rows_(rows.count) {
  if (quantum <= 0) {
    throw std::invalid_argument(
        fmt::format("scheduler.quantum: expected a positive gang slot, got {} ns", quantum));
  }
  if (rows.count < 1) throw std::invalid_argument("gang matrix: expected at least one row");
  partner_.assign(static_cast<std::size_t>(rows.count), -1);
}

GangMatrix::GangMatrix(Suspensions)
    : quantum_(config::limits::kMaxSimulatedTime), notice_delay_(0), suspensions_(true) {}

bool GangMatrix::has_job(JobId job) const {
  if (by_rows()) return tenure_.contains(job);
  if (by_suspensions()) return changes_.contains(job);
  return std::find(jobs_.begin(), jobs_.end(), job) != jobs_.end();
}

void GangMatrix::enter_row(JobId job, int row, SimTime from) {
  if (row < 0 || row >= rows_)
    throw std::logic_error(fmt::format("gang matrix: job {} placed in row {} of {}", job, row, rows_));
  const auto [it, entered] = tenure_.emplace(job, RowTenure{row, from, std::nullopt, job});
  if (!entered) throw std::logic_error(fmt::format("gang matrix: job {} entered twice", job));
  live_.push_back(&it->second);  // map nodes stay where they are
}

void GangMatrix::leave_row(JobId job, SimTime until) {
  auto it = tenure_.find(job);
  if (it == tenure_.end()) throw std::logic_error(fmt::format("gang matrix: unknown job {}", job));
  if (!it->second.until) it->second.until = until;
}

std::optional<int> GangMatrix::row_of(JobId job) const {
  auto it = tenure_.find(job);
  if (it == tenure_.end()) return std::nullopt;
  return it->second.row;
}

std::optional<int> GangMatrix::row_for_slot(std::int64_t slot) {
  if (slot < 0) throw std::logic_error(fmt::format("gang matrix: no slot {}", slot));
  while (static_cast<std::int64_t>(row_owners_.size()) <= slot) {
    const auto next = static_cast<std::int64_t>(row_owners_.size());
    const SimTime start = next * quantum_;
    std::erase_if(live_, [start](const RowTenure* t) { return t->until && *t->until <= start; });
    std::vector<const RowTenure*> holders;
    for (const RowTenure* t : live_)
      if (t->from <= start) holders.push_back(t);
    std::vector<bool> held(static_cast<std::size_t>(rows_), false);
    for (const RowTenure* t : holders) held[t->row] = true;
    if (paired_) fold_reports(next - 1);
    // Ousterhout's rotation over the rows: the next row after the last slot's owner that holds a job, in
    // cycles from the lowest row to the highest. Paired gang decides its pairs as each cycle starts and
    // keeps them for the cycle: a row paired with a lower one that holds a job runs in that one's slot, not
    // in a slot of its own, so every row runs once a cycle.
    const auto next_owner = [&](int after) {
      for (int row = after + 1; row < rows_; ++row) {
        const int with = partner_[static_cast<std::size_t>(row)];
        if (held[row] && !(with >= 0 && with < row && held[with])) return row;
      }
      return -1;
    };
    int owner = next_owner(last_row_);
    if (owner < 0) {
      if (paired_) pair_cycle(start, holders);
      owner = next_owner(-1);
    }
    if (owner >= 0) last_row_ = owner;
    row_owners_.push_back(owner);
    if (!paired_) continue;
    const int with = owner >= 0 ? partner_[static_cast<std::size_t>(owner)] : -1;
    row_partners_.push_back(with >= 0 && held[with] ? with : -1);
    if (row_partners_.back() >= 0)
      for (const RowTenure* t : holders)
        if (t->row == owner || t->row == with) ++paired_slots_[t->job];
  }
  const int owner = row_owners_[slot];
  if (owner < 0) return std::nullopt;
  return owner;
}

std::optional<int> GangMatrix::partner_for_slot(std::int64_t slot) {
  if (!paired_) return std::nullopt;
  row_for_slot(slot);
  const int with = row_partners_[static_cast<std::size_t>(slot)];
  if (with < 0) return std::nullopt;
  return with;
}

void GangMatrix::report(std::int64_t slot, JobId job, SimTime compute, SimTime busy) {
  if (slot < folded_before_)
    throw std::logic_error(fmt::format(
        "gang matrix: slot {} reported after the pairing used it (a workstation ran too far behind)", slot));
  Usage& use = reports_[slot][job];
  use.compute += compute;
  use.busy += busy;
}

// The reports of the slots before `before`, in slot order, into each job's use: each slot's figures plus
// half of the memory before it (the halving memory of fcs's classification, docs/models/now-streams.md 3.6).
void GangMatrix::fold_reports(std::int64_t before) {
  while (!reports_.empty() && reports_.begin()->first < before) {
    for (const auto& [job, slot_use] : reports_.begin()->second) {
      Usage& use = usage_[job];
      use = {slot_use.compute + use.compute / 2, slot_use.busy + use.busy / 2};
    }
    reports_.erase(reports_.begin());
  }
  folded_before_ = std::max(folded_before_, before);
}

// Each row's measured use (docs/models/now-streams.md 3.8): its jobs' computation over their computation and
// waiting, once every job in it has a measured slot.
std::vector<std::optional<double>> GangMatrix::row_utilizations(
    const std::vector<const RowTenure*>& holders) const {
  std::vector<Usage> row_use(static_cast<std::size_t>(rows_));
  std::vector<bool> measured(static_cast<std::size_t>(rows_), true);
  for (const RowTenure* t : holders) {
    auto it = usage_.find(t->job);
    if (it == usage_.end() || !it->second.utilization()) {
      measured[t->row] = false;
      continue;
    }
    row_use[t->row].compute += it->second.compute;
    row_use[t->row].busy += it->second.busy;
  }
  std::vector<std::optional<double>> use(static_cast<std::size_t>(rows_));
  for (int r = 0; r < rows_; ++r)
    if (measured[r]) use[r] = row_use[r].utilization();
  return use;
}

// The pairs of a cycle (docs/models/now-streams.md 3.8): the measured rows from the most to the least used;
// the most used row not yet paired goes with the least used one when their utilizations sum to at most the
// limit, and alone when even the least used is too much for it. Unmeasured rows run alone.
std::vector<int> GangMatrix::pair_rows(const std::vector<std::optional<double>>& use) const {
  std::vector<std::pair<double, int>> rows;  // (utilization, row)
  for (int r = 0; r < rows_; ++r)
    if (use[r]) rows.emplace_back(*use[r], r);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<int> partner(static_cast<std::size_t>(rows_), -1);
  std::size_t heavy = 0, light = rows.size();
  while (heavy + 1 < light) {
    if (rows[heavy].first + rows[light - 1].first <= paired_->limit) {
      partner[rows[heavy].second] = rows[light - 1].second;
      partner[rows[light - 1].second] = rows[heavy].second;
      --light;
    }
    ++heavy;
  }
  return partner;
}

void GangMatrix::pair_cycle(SimTime start, const std::vector<const RowTenure*>& holders) {
  const auto use = row_utilizations(holders);
  std::vector<int> partner = pair_rows(use);
  for (int r = 0; r < rows_; ++r) {
    const int with = partner[r];
    if (with != partner_[r])
      pair_changes_.push_back({start, r, with, use[r], with >= 0 ? use[with] : std::nullopt});
  }
  partner_ = std::move(partner);
}

std::optional<double> GangMatrix::utilization(JobId job) const {
  auto it = usage_.find(job);
  if (it == usage_.end()) return std::nullopt;
  return it->second.utilization();
}

std::int64_t GangMatrix::paired_slots(JobId job) const {
  auto it = paired_slots_.find(job);
  return it == paired_slots_.end() ? 0 : it->second;
}

void GangMatrix::set_active(JobId job, bool active, SimTime from) {
  auto& changes = changes_[job];
  // A change decided later that takes effect earlier (a suspension overtaking a resumption still paying
  // its cost) replaces those after it.
  while (!changes.empty() && changes.back().first > from) changes.pop_back();
  changes.emplace_back(from, active);
}

bool GangMatrix::active(JobId job, SimTime time) const {
  auto it = changes_.find(job);
  if (it == changes_.end()) return false;
  const auto& changes = it->second;
  // The last change at or before `time`.
  auto after = std::upper_bound(changes.begin(), changes.end(), time,
                                [](SimTime t, const std::pair<SimTime, bool>& c) { return t < c.first; });
  return after != changes.begin() && std::prev(after)->second;
}

FcsClass GangMatrix::classify(const ProcessActivity& slot, FcsClass current) const {
  const Flexible& f = *flexible_;
  const SimTime busy = slot.compute + slot.waiting;
  if (busy <= 0) return current;
  // Waiting for more than `blocking` of the time it computed or waited, coscheduled as it was.
  const bool waits_much = static_cast<double>(slot.waiting) > f.blocking * static_cast<double>(busy);
  if (slot.waits == 0) {
    // No wait completed: coarse if it computed at least the granularity and mostly computed; a process
    // caught in one long wait says nothing yet.
    return slot.compute >= f.granularity && !waits_much ? FcsClass::DC : current;
  }
  // Coarse: as much computation per completed wait as the granularity, or more.
  if (slot.compute / slot.waits >= f.granularity) return FcsClass::DC;
  return waits_much ? FcsClass::F : FcsClass::CS;
}

std::size_t GangMatrix::index_of(JobId job) const {
  auto it = std::find(jobs_.begin(), jobs_.end(), job);
  if (it == jobs_.end()) throw std::logic_error(fmt::format("gang matrix: unknown job {}", job));
  return static_cast<std::size_t>(it - jobs_.begin());
}

std::optional<JobId> GangMatrix::job_for_slot(std::int64_t slot) {
  if (slot < 0) throw std::logic_error(fmt::format("gang matrix: no slot {}", slot));
  int count = static_cast<int>(jobs_.size());
  while (static_cast<std::int64_t>(owners_.size()) <= slot) {
    SimTime start = static_cast<SimTime>(owners_.size()) * quantum_;
    // Ousterhout's rotation: the next job after the previous slot's owner, among the jobs still running
    // when this slot starts. A job finishing exactly at the start still owns the slot (it idles), so that
    // a completion and a slot boundary at the same instant give the same answer in either order.
    int previous = owners_.empty() ? -1 : owners_.back();
    bool all_finished = !owners_.empty() && previous < 0;
    int owner = -1;
    for (int step = 1; !all_finished && step <= count; ++step) {
      int candidate = (previous + step) % count;
      const auto& finished = finished_at_[candidate];
      if (!finished || *finished >= start) {
        owner = candidate;
        break;
      }
    }
    owners_.push_back(owner);
  }
  int owner = owners_[slot];
  if (owner < 0) return std::nullopt;
  return jobs_[owner];
}

void GangMatrix::job_finished(JobId job, SimTime time) {
  auto& finished = finished_at_[index_of(job)];
  // Slots already handed out keep their answer: a workstation that ran ahead of the reporting one (the
  // NOW nodes advance quietly up to the next possible message arrival) has already acted on it. With a
  // notice delay of at least twice that lookahead no slot concerned has been handed out yet.
  if (!finished) finished = time + notice_delay_;
}

Gang::Gang(std::shared_ptr<GangMatrix> matrix) : matrix_(std::move(matrix)) {
  if (!matrix_)
    throw std::invalid_argument("scheduler.policy: gang needs the gang matrix shared by all workstations");
}

Gang::Process& Gang::find(ProcessId process) {
  auto it = processes_.find(process);
  if (it == processes_.end()) throw std::logic_error(fmt::format("gang: unknown process {}", process));
  return it->second;
}

const Gang::Process& Gang::find(ProcessId process) const {
  return const_cast<Gang*>(this)->find(process);
}

void Gang::admit(ProcessId process, JobId job, ProcessShare, SimTime now) {
  if (job != kSystemJob && !matrix_->has_job(job)) {
    throw std::invalid_argument(
        fmt::format("gang: process {} belongs to job {}, which has no row in the matrix", process, job));
  }
  if (processes_.contains(process))
    throw std::logic_error(fmt::format("gang: process {} admitted twice", process));
  observe(now);
  processes_.emplace(process, Process{job, State::Ready});
  ready_.push_back(process);
  if (job == kSystemJob) ++ready_system_;
  if (matrix_->flexible() || matrix_->paired()) {  // measured (fcs: every process starts CS)
    if (process >= static_cast<ProcessId>(measured_.size()))
      measured_.resize(static_cast<std::size_t>(process) + 1);
    measured_[static_cast<std::size_t>(process)].admitted = true;
  }
}

void Gang::wake(ProcessId process, SimTime now) {
  auto& entry = find(process);
  if (entry.state != State::Blocked) {
    throw std::logic_error(fmt::format("gang: process {} woken while not blocked", process));
  }
  observe(now);
  entry.state = State::Ready;
  entry.woken = true;
  ready_.push_back(process);
  if (entry.job == kSystemJob) ++ready_system_;
}

void Gang::leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime) {
  auto& entry = find(process);
  if (entry.state != State::Running) {
    throw std::logic_error(fmt::format("gang: process {} left a CPU it was not running on", process));
  }
  observe(now);
  switch (reason) {
    case LeaveReason::QuantumExpired:
    case LeaveReason::Preempted:
      entry.state = State::Ready;
      ready_.push_back(process);
      if (entry.job == kSystemJob) ++ready_system_;
      return;
    case LeaveReason::Blocked:
      entry.state = State::Blocked;
      return;
    case LeaveReason::Finished:
      processes_.erase(process);
      return;
  }
}

std::deque<ProcessId>::const_iterator Gang::ready_owner(SimTime now) const {
  // A ready system process (a noise daemon) runs first, in every slot: the kernel's daemons outrank the
  // matrix's jobs (docs/models/now-schedulers.md, gang).
  if (ready_system_ > 0)
    return std::find_if(ready_.begin(), ready_.end(),
                        [&](ProcessId id) { return find(id).job == kSystemJob; });
  if (matrix_->flexible()) return ready_flexible(now);
  if (matrix_->by_suspensions())
    return std::find_if(ready_.begin(), ready_.end(),
                        [&](ProcessId id) { return matrix_->active(find(id).job, now); });
  if (matrix_->by_rows()) {
    const std::int64_t slot = matrix_->slot_at(now);
    return ready_in_row(matrix_->row_for_slot(slot), matrix_->partner_for_slot(slot));
  }
  auto owner = matrix_->job_for_slot(matrix_->slot_at(now));
  if (!owner) return ready_.end();
  return std::find_if(ready_.begin(), ready_.end(), [&](ProcessId id) { return find(id).job == *owner; });
}

std::optional<ProcessId> Gang::pick_next(SimTime now) {
  observe(now);
  auto it = ready_owner(now);
  // Strict gang: outside its job's slot a process never runs, even on an otherwise idle CPU.
  if (it == ready_.end()) return std::nullopt;
  ProcessId next = *it;
  ready_.erase(it);
  auto& entry = find(next);
  entry.state = State::Running;
  entry.woken = false;
  if (entry.job == kSystemJob) --ready_system_;
  return next;
}

SimTime Gang::time_slice(ProcessId, SimTime now) const {
  // Under suspensions a process runs until its job stops (the matrix's one slot spans the longest run).
  return matrix_->slot_end(now) - now;
}

bool Gang::should_preempt(ProcessId running, SimTime now, SimTime) const {
  if (find(running).job == kSystemJob) return false;  // a daemon runs its work out
  if (matrix_->flexible()) return flexible_preempts(running, now);
  if (matrix_->paired()) return paired_preempts(running, now);
  // A suspended job's process stops at once, whether another runs or the CPU idles.
  if (matrix_->by_suspensions() && !matrix_->active(find(running).job, now)) return true;
  auto it = ready_owner(now);
  return it != ready_.end() && find(*it).job != find(running).job;
}

std::optional<SimTime> Gang::next_tick() const {
  if (matrix_->by_suspensions()) return std::nullopt;  // the stream's signals say when to reconsider
  return matrix_->slot_end(latest_time_);
}

const Gang::Measured* Gang::measured(ProcessId process) const {
  if (process < 0 || process >= static_cast<ProcessId>(measured_.size())) return nullptr;
  const Measured& m = measured_[static_cast<std::size_t>(process)];
  return m.admitted ? &m : nullptr;
}

FcsClass Gang::class_of(ProcessId process) const {
  const Measured* m = measured(process);
  return m ? m->record.cls : FcsClass::CS;
}

std::deque<ProcessId>::const_iterator Gang::ready_in_row(std::optional<int> row,
                                                         std::optional<int> partner) const {
  if (!row) return ready_.end();
  return std::find_if(ready_.begin(), ready_.end(), [&](ProcessId id) {
    const auto own = matrix_->row_of(find(id).job);
    return own == row || (partner && own == partner);
  });
}

bool Gang::paired_preempts(ProcessId running, SimTime now) const {
  const std::int64_t slot = matrix_->slot_at(now);
  const auto row = matrix_->row_for_slot(slot);
  const auto partner = matrix_->partner_for_slot(slot);
  const auto own = matrix_->row_of(find(running).job);
  // Outside its slot, as under gang: a process of the slot's rows takes the CPU.
  if (own != row && own != partner) return ready_in_row(row, partner) != ready_.end();
  // In its slot: a process of the other row woken since it last ran takes the CPU (the local scheduler
  // favours the process that blocked, as decay-usage schedulers do, so that the lightly used job is served).
  const auto other = own == row ? partner : row;
  return other && std::any_of(ready_.begin(), ready_.end(), [&](ProcessId id) {
           const Process& p = find(id);
           return p.woken && matrix_->row_of(p.job) == other;
         });
}

std::deque<ProcessId>::const_iterator Gang::ready_flexible(SimTime now) const {
  auto owner = ready_in_row(matrix_->row_for_slot(matrix_->slot_at(now)));
  if (owner != ready_.end()) return owner;
  // A filler: the first ready process classed F or DC, whatever its row, in the order they became ready.
  return std::find_if(ready_.begin(), ready_.end(),
                      [&](ProcessId id) { return class_of(id) != FcsClass::CS; });
}

bool Gang::flexible_preempts(ProcessId running, SimTime now) const {
  const auto row = matrix_->row_for_slot(matrix_->slot_at(now));
  if (row && matrix_->row_of(find(running).job) == row) return false;  // its own slot
  // The slot's row has a ready process here: it takes the CPU from a filler or from another row's process.
  if (ready_in_row(row) != ready_.end()) return true;
  // Otherwise a filler goes on; a CS process runs in its own slots only.
  return class_of(running) == FcsClass::CS;
}

bool Gang::measure(ProcessId process, const ProcessActivity& so_far, SimTime now) {
  if (!measured(process)) throw std::logic_error(fmt::format("gang: unknown process {} measured", process));
  Measured& m = measured_[static_cast<std::size_t>(process)];
  const ProcessActivity slot{so_far.compute - m.last.compute, so_far.waiting - m.last.waiting,
                             so_far.waits - m.last.waits};
  m.last = so_far;
  const std::int64_t ended = matrix_->slot_at(now) - 1;
  if (matrix_->paired()) {
    // Its use of the CPU in a slot its row ran in, for the pairing (docs/models/now-streams.md 3.8).
    if (ended < 0) return false;
    const auto own = matrix_->row_of(find(process).job);
    if (own == matrix_->row_for_slot(ended) || own == matrix_->partner_for_slot(ended))
      matrix_->report(ended, find(process).job, slot.compute, slot.compute + slot.waiting);
    return false;
  }
  // Classed by its own slots only (the one that just ended, when its row owned it): what it does as a
  // filler in other rows' slots says nothing of how it runs coscheduled.
  if (ended < 0 || matrix_->row_for_slot(ended) != matrix_->row_of(find(process).job)) return false;
  // Judged on its own slots with a memory (docs/models/now-streams.md 3.6): a slot's cut through a steady
  // process's waits (9 or 10 of them in 10 ms) alone would flip a process near a threshold at every slot.
  m.window = {slot.compute + m.window.compute / 2, slot.waiting + m.window.waiting / 2,
              slot.waits + m.window.waits / 2};
  const FcsClass next = matrix_->classify(m.window, m.record.cls);
  if (next == m.record.cls) return false;
  m.record.cls = next;
  ++m.record.reclassifications;
  return true;
}

bool Gang::process_always_spins(ProcessId process) const {
  if (matrix_->paired()) return false;
  return !matrix_->flexible() || class_of(process) == FcsClass::CS;
}

std::optional<FcsRecord> Gang::fcs_record(ProcessId process) const {
  const Measured* m = measured(process);
  if (!m) return std::nullopt;
  return m->record;
}

namespace {

const config::PolicyKey kGangKeys[] = {
    config::duration_key<&GangParams::slot>(
        "quantum", "the global time slot every job owns in turn (duration, default 10ms)"),
    kContextSwitchKey,
};

void gang_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& gang = static_cast<const GangParams&>(params);
  out["quantum_s"] = static_cast<double>(gang.slot) * 1e-9;
  out["context_switch_s"] = static_cast<double>(gang.context_switch) * 1e-9;
}

}  // namespace

const LocalSchedulerEntry kGangEntry{
    {"gang", "explicit coscheduling: one global matrix of time slots, one job per slot (Brim & Miller 3.1)",
     kGangKeys, config::default_params<GangParams>, gang_json},
    true,
    [](const config::PolicyParams&, std::shared_ptr<GangMatrix> matrix) -> std::unique_ptr<LocalScheduler> {
      return std::make_unique<Gang>(std::move(matrix));
    }};

}  // namespace cosched::sched
