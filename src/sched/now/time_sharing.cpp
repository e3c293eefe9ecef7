#include "sched/now/time_sharing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace cosched::sched {

TimeSharing::TimeSharing(int initial_level, SleepReturn sleep_return, TsDispatchTable table)
    : table_(std::move(table)), initial_level_(initial_level), sleep_return_(sleep_return) {
  if (initial_level < 0 || initial_level >= TsDispatchTable::kLevels) {
    throw std::invalid_argument(fmt::format("scheduler.initial_level: expected a TS level in 0..{}, got {}",
                                            TsDispatchTable::kLevels - 1, initial_level));
  }
}

TimeSharing::Process& TimeSharing::find(ProcessId process) {
  auto it = processes_.find(process);
  if (it == processes_.end())
    throw std::logic_error(fmt::format("time-sharing: unknown process {}", process));
  return it->second;
}

const TimeSharing::Process& TimeSharing::find(ProcessId process) const {
  return const_cast<TimeSharing*>(this)->find(process);
}

void TimeSharing::change_level(Process& process, int level) {
  process.level = level;
  process.quantum_left = table_.at(level).quantum;
  process.waiting_seconds = 0;
}

// ts.c ts_tick: a used-up quantum moves the process to tqexp with that level's quantum.
void TimeSharing::expire_quantum(Process& process) {
  change_level(process, table_.at(process.level).tqexp);
}

void TimeSharing::dequeue(ProcessId process, int level) {
  auto& queue = queues_[level];
  queue.erase(std::find(queue.begin(), queue.end(), process));
}

int TimeSharing::highest_ready_level() const {
  for (int level = TsDispatchTable::kLevels - 1; level >= 0; --level) {
    if (!queues_[level].empty()) return level;
  }
  return -1;
}

bool TimeSharing::has_ready() const {
  return highest_ready_level() >= 0;
}

void TimeSharing::admit(ProcessId process, JobId, ProcessShare, SimTime) {
  if (processes_.contains(process)) {
    throw std::logic_error(fmt::format("time-sharing: process {} admitted twice", process));
  }
  // ts.c ts_enterclass: start at the initial level with its full quantum and a zero waiting counter.
  processes_.emplace(process, Process{initial_level_, table_.at(initial_level_).quantum, 0, State::Ready});
  queues_[initial_level_].push_back(process);
}

void TimeSharing::wake(ProcessId process, SimTime) {
  auto& entry = find(process);
  if (entry.state != State::Blocked) {
    throw std::logic_error(fmt::format("time-sharing: process {} woken while not blocked", process));
  }
  // ts.c ts_wakeup boosts to slpret only past maxwait, and otherwise keeps the rest of the quantum;
  // Dimemas's SVR4 policy boosts on every wakeup.
  const auto& row = table_.at(entry.level);
  if (sleep_return_ == SleepReturn::Always || entry.waiting_seconds > row.maxwait_seconds) {
    change_level(entry, row.slpret);
  }
  // ts.c: "Processes waking up go to the back of their queue."
  entry.state = State::Ready;
  queues_[entry.level].push_back(process);
}

void TimeSharing::leave_cpu(ProcessId process, LeaveReason reason, SimTime, SimTime ran) {
  auto& entry = find(process);
  if (entry.state != State::Running) {
    throw std::logic_error(fmt::format("time-sharing: process {} left a CPU it was not running on", process));
  }
  switch (reason) {
    case LeaveReason::Finished:
      processes_.erase(process);
      return;
    case LeaveReason::QuantumExpired:
      expire_quantum(entry);
      entry.state = State::Ready;
      queues_[entry.level].push_back(process);
      return;
    case LeaveReason::Preempted:
      entry.state = State::Ready;
      entry.quantum_left -= ran;
      if (entry.quantum_left <= 0) {
        // Preempted exactly as its slice ran out: the expiry comes first (ts_tick runs before it).
        expire_quantum(entry);
        queues_[entry.level].push_back(process);
      } else {
        // ts.c ts_preempt: front of its level's queue, keeping the rest of its quantum.
        queues_[entry.level].push_front(process);
      }
      return;
    case LeaveReason::Blocked:
      entry.state = State::Blocked;
      entry.quantum_left -= ran;
      if (entry.quantum_left <= 0) {
        expire_quantum(entry);
      } else if (sleep_return_ == SleepReturn::Maxwait &&
                 entry.waiting_seconds > table_.at(entry.level).maxwait_seconds) {
        // ts.c ts_sleep: a process that ran through an update while past maxwait is boosted as it sleeps.
        change_level(entry, table_.at(entry.level).slpret);
      }
      return;
  }
}

std::optional<ProcessId> TimeSharing::pick_next(SimTime) {
  int level = highest_ready_level();
  if (level < 0) return std::nullopt;
  ProcessId head = queues_[level].front();
  queues_[level].pop_front();
  find(head).state = State::Running;
  return head;
}

SimTime TimeSharing::time_slice(ProcessId process, SimTime) const {
  return find(process).quantum_left;
}

bool TimeSharing::should_preempt(ProcessId running, SimTime, SimTime) const {
  // A process made runnable above the running one's level takes the CPU (ts.c via cpu_surrender).
  return highest_ready_level() > find(running).level;
}

void TimeSharing::tick(SimTime now) {
  next_update_ = (now / kUpdatePeriod + 1) * kUpdatePeriod;
  // ts.c ts_update_list counts every TS process, the running one included.
  for (auto& [id, entry] : processes_) ++entry.waiting_seconds;

  // Ready processes past maxwait move to lwait. They are taken in dispatch order so that processes
  // raised to the same level keep their relative order.
  std::vector<ProcessId> raised;
  for (int level = TsDispatchTable::kLevels - 1; level >= 0; --level) {
    for (ProcessId id : queues_[level]) {
      if (find(id).waiting_seconds > table_.at(level).maxwait_seconds) raised.push_back(id);
    }
  }
  for (ProcessId id : raised) {
    auto& entry = find(id);
    int target = table_.at(entry.level).lwait;
    if (target == entry.level) {
      // ts.c: "Only dequeue it if needs to move; otherwise it should just round-robin here."
      entry.waiting_seconds = 0;
      continue;
    }
    dequeue(id, entry.level);
    change_level(entry, target);
    queues_[target].push_back(id);
  }

  // Blocked processes are raised too (ts_sleep_promote = 1); ts_change_priority leaves the time left
  // of a thread that is not on a run queue as it was.
  for (auto& [id, entry] : processes_) {
    if (entry.state == State::Blocked && entry.waiting_seconds > table_.at(entry.level).maxwait_seconds) {
      entry.level = table_.at(entry.level).lwait;
      entry.waiting_seconds = 0;
    }
  }
  // The running process is left alone: ts.c only posts an AST for it (ts_trapret applies slpret at its
  // next trap), which the model has no equivalent of; its counter stays past maxwait until it leaves.
}

namespace {

const config::Names<SleepReturn> kSleepReturnNames = {{"always", SleepReturn::Always},
                                                      {"maxwait", SleepReturn::Maxwait}};

const config::PolicyKey kTimeSharingKeys[] = {
    {"quantum", "refused: ts takes its quanta from the Solaris dispatch table",
     [](const config::Field& f, config::PolicyParams&) {
       f.error("ts takes its quanta from the Solaris dispatch table; remove scheduler.quantum");
     }},
    kContextSwitchKey,
    config::choice_key<&TimeSharingParams::sleep_return, kSleepReturnNames>(
        "sleep_return",
        "when a woken process gets its level's sleep-return priority: always or maxwait (default always)"),
    {"initial_level", "the TS level a process starts at (integer 0 to 59, default 29)",
     [](const config::Field& f, config::PolicyParams& params) {
       auto level = f.non_negative_integer();
       if (level > 59) f.fail("a TS level from 0 to 59");
       config::params_as<TimeSharingParams>(params).initial_level = static_cast<int>(level);
     }},
};

void time_sharing_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& ts = static_cast<const TimeSharingParams&>(params);
  out["context_switch_s"] = static_cast<double>(ts.context_switch) * 1e-9;
  out["sleep_return"] = config::name_of(kSleepReturnNames, ts.sleep_return);
  out["initial_level"] = ts.initial_level;
}

}  // namespace

const LocalSchedulerEntry kTimeSharingEntry{
    {"ts", "Solaris time sharing: the dispatch table's levels, quanta and sleep returns (Brim & Miller 3.1)",
     kTimeSharingKeys, config::default_params<TimeSharingParams>, time_sharing_json},
    false,
    [](const config::PolicyParams& params, std::shared_ptr<GangMatrix>) -> std::unique_ptr<LocalScheduler> {
      const auto& ts = static_cast<const TimeSharingParams&>(params);
      return std::make_unique<TimeSharing>(ts.initial_level, ts.sleep_return,
                                           TsDispatchTable::solaris_default());
    }};

}  // namespace cosched::sched
