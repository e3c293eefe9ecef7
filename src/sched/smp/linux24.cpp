#include "sched/smp/linux24.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "config/cycles.hpp"
#include "util/log.hpp"
#include "util/registry.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_linux24);

namespace cosched::sched {

Linux24Params Linux24Params::linux22(Cycles quantum) {
  const double q = static_cast<double>(quantum);
  return {quantum, std::llround(q * 15 / 20), std::llround(q * 1 / 20), std::llround(q * 1 / 20)};
}

Linux24Params Linux24Params::linux24(Cycles quantum) {
  const double q = static_cast<double>(quantum);
  return {quantum, std::llround(q * 15 / 5), std::llround(q * 1 / 5), std::llround(q * 1 / 5)};
}

Linux24::Linux24(Linux24Params params, WakeupScheme wakeup, AipSearch aip_search)
    : params_(params), wakeup_(wakeup), aip_search_(aip_search) {
  if (params_.quantum <= 0)
    throw std::invalid_argument("scheduler.quantum: the Linux quantum must be positive");
  if (params_.proc_change_penalty < 0 || params_.same_address_space_bonus < 0 ||
      params_.preemption_threshold < 0)
    throw std::invalid_argument("scheduler.params: the Linux parameters must not be negative");
}

void Linux24::grow() {
  // Every task starts an epoch with a full quantum (6.4.4: the counter is refreshed from the static
  // priority).
  if (!host_) return;
  if (by_cpu_.size() < static_cast<std::size_t>(host_->cpu_count()))
    by_cpu_.resize(static_cast<std::size_t>(host_->cpu_count()));
  const auto n = static_cast<std::size_t>(host_->thread_count());
  const std::size_t old = tasks_.size();
  if (old >= n) return;
  Task fresh;
  fresh.counter = params_.quantum;
  tasks_.resize(n, fresh);
  known_ = static_cast<int>(n);
  for (std::size_t t = old; t < n; ++t) {
    const auto [it, added] = space_ids_.try_emplace(host_->address_space(static_cast<ThreadId>(t)),
                                                    static_cast<int>(space_ids_.size()));
    tasks_[t].space = it->second;
  }
  by_space_.resize(space_ids_.size());
}

Cycles Linux24::counter(ThreadId thread) const {
  return static_cast<std::size_t>(thread) < tasks_.size() ? tasks_[thread].counter : params_.quantum;
}

CpuId Linux24::processor(ThreadId thread) const {
  return static_cast<std::size_t>(thread) < tasks_.size() ? tasks_[thread].processor : -1;
}

std::vector<ThreadId> Linux24::ready() const {
  std::vector<ThreadId> list;
  list.reserve(ready_count_);
  for (const Key& key : by_counter_) list.push_back(key.thread);
  std::sort(list.begin(), list.end(), [&](ThreadId a, ThreadId b) { return tasks_[a].seq < tasks_[b].seq; });
  return list;
}

void Linux24::slot_push(std::vector<ThreadId>& list, int Task::*slot, ThreadId thread) {
  tasks_[thread].*slot = static_cast<int>(list.size());
  list.push_back(thread);
}

void Linux24::slot_erase(std::vector<ThreadId>& list, int Task::*slot, ThreadId thread) {
  // Order within the list does not matter (ties are broken by seq): move the last one into the hole.
  const int at = tasks_[thread].*slot;
  const ThreadId last = list.back();
  list[static_cast<std::size_t>(at)] = last;
  tasks_[last].*slot = at;
  list.pop_back();
  tasks_[thread].*slot = -1;
}

void Linux24::index_insert(ThreadId thread) {
  Task& task = tasks_[thread];
  task.ready = true;
  const Key key{task.counter, task.seq, thread};
  if (spare_nodes_.empty()) {
    task.entry = by_counter_.insert(key).first;
  } else {
    auto node = std::move(spare_nodes_.back());
    spare_nodes_.pop_back();
    node.value() = key;
    task.entry = by_counter_.insert(std::move(node)).position;
  }
  if (task.processor >= 0)
    slot_push(by_cpu_[static_cast<std::size_t>(task.processor)], &Task::cpu_slot, thread);
  slot_push(by_space_[static_cast<std::size_t>(task.space)], &Task::space_slot, thread);
  ++ready_count_;
}

void Linux24::index_remove(ThreadId thread) {
  Task& task = tasks_[thread];
  task.ready = false;
  spare_nodes_.push_back(by_counter_.extract(task.entry));
  if (task.processor >= 0)
    slot_erase(by_cpu_[static_cast<std::size_t>(task.processor)], &Task::cpu_slot, thread);
  slot_erase(by_space_[static_cast<std::size_t>(task.space)], &Task::space_slot, thread);
  --ready_count_;
}

void Linux24::index_recount(ThreadId thread) {
  Task& task = tasks_[thread];
  auto node = by_counter_.extract(task.entry);
  node.value().counter = task.counter;
  task.entry = by_counter_.insert(std::move(node)).position;
}

void Linux24::set_processor(ThreadId thread, CpuId cpu) {
  Task& task = tasks_[thread];
  if (task.processor == cpu) return;
  if (task.ready && task.processor >= 0)
    slot_erase(by_cpu_[static_cast<std::size_t>(task.processor)], &Task::cpu_slot, thread);
  task.processor = cpu;
  if (task.ready) slot_push(by_cpu_[static_cast<std::size_t>(cpu)], &Task::cpu_slot, thread);
}

void Linux24::enqueue(ThreadId thread, ReadyReason) {
  grow();
  Task& task = tasks_[thread];
  if (task.ready) throw std::logic_error("Linux24: a thread entered the ready list twice");
  task.seq = next_seq_++;  // the tail of the ready list
  index_insert(thread);
}

void Linux24::charge(ThreadId thread, Cycles cycles) {
  ensure(thread);
  Task& task = tasks_[thread];
  const Cycles counter = std::max<Cycles>(0, task.counter - cycles);
  if (counter == task.counter) return;
  task.counter = counter;
  if (task.ready) index_recount(thread);
}

Cycles Linux24::goodness(ThreadId thread, CpuId cpu) const {
  // Algorithm 1.
  Cycles weight = counter(thread);
  if (weight == 0) return 0;
  if (processor(thread) == cpu) weight += params_.proc_change_penalty;
  const ThreadId current = host_->cpu(cpu).current;
  if (current >= 0 && host_->address_space(current) == host_->address_space(thread))
    weight += params_.same_address_space_bonus;
  return weight;
}

Cycles Linux24::weight(const Task& task, CpuId cpu, int current_space) const {
  // Algorithm 1 with the CPU's current task's address space given (-1: the idle task).
  if (task.counter == 0) return 0;
  Cycles weight = task.counter;
  if (task.processor == cpu) weight += params_.proc_change_penalty;
  if (task.space == current_space) weight += params_.same_address_space_bonus;
  return weight;
}

int Linux24::current_space(CpuId cpu) {
  const ThreadId current = host_->cpu(cpu).current;
  if (current < 0) return -1;
  ensure(current);
  return tasks_[static_cast<std::size_t>(current)].space;
}

void Linux24::new_epoch() {
  // Algorithm 4, lines 20-21: every task, not only the runnable ones (6.5.4: "the only means in which the
  // Linux scheduler favors I/O bound over CPU bound tasks"). Running tasks are charged up to now first.
  grow();
  host_->settle_running();
  for (auto& task : tasks_) task.counter = task.counter / 2 + params_.quantum;
  // Re-key the ready list: halving may make counters equal, so its order can change.
  const std::size_t first = spare_nodes_.size();
  while (!by_counter_.empty()) spare_nodes_.push_back(by_counter_.extract(by_counter_.begin()));
  for (std::size_t i = first; i < spare_nodes_.size(); ++i) {
    auto& node = spare_nodes_[i];
    Task& task = tasks_[static_cast<std::size_t>(node.value().thread)];
    node.value().counter = task.counter;
    task.entry = by_counter_.insert(std::move(node)).position;
  }
  spare_nodes_.resize(first);
  ++epochs_;
  host_->slices_changed();
}

std::optional<ThreadId> Linux24::pick_next(CpuId cpu, std::optional<ThreadId> prev) {
  if (tasks_.empty()) grow();
  if (prev) ensure(*prev);
  // The bonus depends on the CPU's current task only: read its address space once per call.
  const int space = current_space(cpu);
  const auto& on_cpu = by_cpu_[static_cast<std::size_t>(cpu)];
  for (;;) {
    // Algorithm 4, lines 5-15: prev first, so that it wins ties; then the ready tasks in list order, each
    // replacing the best only when strictly better. The same choice from the index: the best ready thread by
    // (goodness descending, list position ascending), taken only when strictly better than prev.
    const Cycles prev_goodness = prev ? weight(tasks_[static_cast<std::size_t>(*prev)], cpu, space) : -1;
    ThreadId found = -1;
    Cycles found_goodness = -1;
    std::uint64_t found_seq = 0;
    auto consider = [&](ThreadId t) {
      const Task& task = tasks_[static_cast<std::size_t>(t)];
      const Cycles g = weight(task, cpu, space);
      if (g > found_goodness || (g == found_goodness && task.seq < found_seq)) {
        found = t;
        found_goodness = g;
        found_seq = task.seq;
      }
    };
    // Threads that may get a bonus on this CPU: all of them.
    for (ThreadId t : on_cpu) consider(t);
    if (space >= 0)
      for (ThreadId t : by_space_[static_cast<std::size_t>(space)]) consider(t);
    // Any other thread's goodness is its counter: the first of them in counter order is their best.
    for (const Key& key : by_counter_) {
      const Task& task = tasks_[static_cast<std::size_t>(key.thread)];
      if (task.processor == cpu || task.space == space) continue;  // considered above
      consider(key.thread);
      break;
    }
    std::optional<ThreadId> next = prev;
    Cycles best = prev_goodness;
    const bool from_ready = found >= 0 && found_goodness > prev_goodness;
    if (from_ready) {
      next = found;
      best = found_goodness;
    }
    if (best < 0) return std::nullopt;  // lines 17-18: nothing to run
    if (best == 0) {                    // lines 19-22: everyone exhausted its quantum
      XBT_DEBUG("cycle %lld cpu %d schedule(): every runnable counter is 0, new epoch",
                static_cast<long long>(host_->now()), cpu);
      new_epoch();
      continue;
    }
    XBT_DEBUG(
        "cycle %lld cpu %d schedule(): thread %d wins with goodness %lld (counter %lld%s%s), %s %d (%lld)",
        static_cast<long long>(host_->now()), cpu, *next, static_cast<long long>(best),
        static_cast<long long>(tasks_[static_cast<std::size_t>(*next)].counter),
        tasks_[static_cast<std::size_t>(*next)].processor == cpu ? " + same CPU" : "",
        tasks_[static_cast<std::size_t>(*next)].space == space ? " + same address space" : "",
        !prev        ? "no prev; best ready thread"
        : from_ready ? "beats prev thread"
                     : "prev wins over ready thread",
        !prev        ? found
        : from_ready ? *prev
                     : found,
        static_cast<long long>(!prev        ? found_goodness
                               : from_ready ? prev_goodness
                                            : found_goodness));
    if (from_ready) index_remove(found);
    set_processor(*next, cpu);  // line 24
    return next;
  }
}

void Linux24::snapshot() {
  // The wake-up paths read every CPU many times while nothing on the CPUs changes: read each once.
  const int cpus = host_->cpu_count();
  snap_.resize(static_cast<std::size_t>(cpus));
  flagged_.resize(static_cast<std::size_t>(cpus));
  idle_cpus_ = 0;
  for (CpuId c = 0; c < cpus; ++c) {
    const CpuView& view = host_->cpu(c);
    CpuSnap& snap = snap_[static_cast<std::size_t>(c)];
    flagged_[c] = view.need_resched;
    snap.idle = view.phase == CpuPhase::Idle;
    snap.idle_since = view.idle_since;
    idle_cpus_ += snap.idle ? 1 : 0;
    snap.busy = !snap.idle && view.current >= 0;
    if (snap.busy) {
      ensure(view.current);
      const Task& current = tasks_[static_cast<std::size_t>(view.current)];
      snap.space = current.space;
      snap.current_goodness = weight(current, c, current.space);
    } else {
      snap.space = -1;
      snap.current_goodness = 0;
    }
  }
}

std::optional<CpuId> Linux24::choose_cpu(ThreadId thread, bool skip_flagged_idle,
                                         bool skip_flagged_busy) const {
  // Algorithm 2, lines 3-14, on the snapshot of the CPUs.
  const int cpus = static_cast<int>(snap_.size());
  auto usable_idle = [&](CpuId c) { return snap_[c].idle && !(skip_flagged_idle && flagged_[c]); };
  const Task& task = tasks_[static_cast<std::size_t>(thread)];
  const CpuId previous = task.processor;
  if (idle_cpus_ > 0) {
    if (previous >= 0 && usable_idle(previous)) return previous;
    std::optional<CpuId> oldest;
    for (CpuId c = 0; c < cpus; ++c) {
      if (!usable_idle(c)) continue;
      if (!oldest || snap_[c].idle_since < snap_[*oldest].idle_since) oldest = c;
    }
    if (oldest) return oldest;
  }
  Cycles max_prio = params_.preemption_threshold;
  std::optional<CpuId> next;
  for (CpuId c = 0; c < cpus; ++c) {
    const CpuSnap& snap = snap_[c];
    if (!snap.busy) continue;
    if (skip_flagged_busy && flagged_[c]) continue;
    const Cycles diff = weight(task, c, snap.space) - snap.current_goodness;
    if (diff > max_prio) {
      max_prio = diff;
      next = c;
    }
  }
  return next;
}

std::optional<CpuId> Linux24::reschedule_idle(ThreadId thread, CpuId) {
  // choose_cpu's rule (algorithm 2, lines 3-14) in one pass over the CPUs, without the snapshot: the
  // task's previous CPU if it is a usable idle CPU, else the usable idle CPU idle the longest (the first in
  // id order among equals), else the busy CPU with the largest goodness difference above the threshold (the
  // first in id order among equals). Once a usable idle CPU is known, no busy CPU can be chosen, so their
  // goodness is no longer computed.
  ensure(thread);
  const bool skip_flagged_idle = wakeup_ == WakeupScheme::Aip;
  const bool skip_flagged_busy = skip_flagged_idle && aip_search_ == AipSearch::IdleAndPreemption;
  const int cpus = host_->cpu_count();
  const Task task = tasks_[static_cast<std::size_t>(thread)];  // a copy: ensure() below may grow tasks_
  const CpuId previous = task.processor;
  bool previous_idle = false;
  std::optional<CpuId> oldest;
  Cycles oldest_since = 0;
  Cycles max_prio = params_.preemption_threshold;
  std::optional<CpuId> next;
  for (CpuId c = 0; c < cpus; ++c) {
    const CpuView& view = host_->cpu(c);
    if (view.phase == CpuPhase::Idle) {
      if (skip_flagged_idle && view.need_resched) continue;
      if (c == previous) previous_idle = true;
      if (!oldest || view.idle_since < oldest_since) {
        oldest = c;
        oldest_since = view.idle_since;
      }
      continue;
    }
    if (oldest || view.current < 0) continue;
    if (skip_flagged_busy && view.need_resched) continue;
    ensure(view.current);
    const Task& current = tasks_[static_cast<std::size_t>(view.current)];
    const Cycles diff = weight(task, c, current.space) - weight(current, c, current.space);
    if (diff > max_prio) {
      max_prio = diff;
      next = c;
    }
  }
  if (previous_idle) return previous;
  if (oldest) return oldest;
  return next;
}

std::vector<CpuId> Linux24::wake(const std::vector<ThreadId>& woken, CpuId) {
  for (ThreadId thread : woken) ensure(thread);
  // The chosen CPUs run schedule() only after the decisions (below), so the CPUs do not change meanwhile.
  snapshot();
  if (wakeup_ == WakeupScheme::Smart) return wake_smart(woken);
  // silly and aip: reschedule_idle for each task in turn (algorithm 3). The chosen CPUs run schedule() only
  // after the whole loop (6.6.1.2, silly: "first assigns idle CPUs to all of the awakening tasks and only
  // then schedule is invoked"), so an idle CPU stays idle, and goodness(current) unchanged, during the loop.
  const bool aip = wakeup_ == WakeupScheme::Aip;
  std::vector<CpuId> chosen;
  for (ThreadId thread : woken) {
    auto cpu = choose_cpu(thread, aip, aip && aip_search_ == AipSearch::IdleAndPreemption);
    XBT_DEBUG("cycle %lld %s wakeup: reschedule_idle(thread %d) chooses cpu %d%s",
              static_cast<long long>(host_->now()), aip ? "aip" : "silly", thread, cpu.value_or(-1),
              cpu && snap_[*cpu].idle ? " (idle)"
              : cpu                   ? " (preempts)"
                                      : " (none)");
    if (!cpu) continue;
    flagged_[*cpu] = 1;
    chosen.push_back(*cpu);
  }
  return chosen;
}

std::vector<CpuId> Linux24::wake_smart(const std::vector<ThreadId>& woken) {
  // Thesis 6.6.1.2, SMART: reschedule_idle's local considerations made global. Decide first, then set the
  // flags. Idle CPUs first: each task's previous CPU when idle, then the least recently active ones; then the
  // busy CPUs by the triplets TRI = {(d, t, c) : d = goodness(t, c) - goodness(c.current, c) > PT}, larger d
  // first, each task and each CPU assigned at most once (algorithm 5). CPUs whose need_resched is already set
  // will reschedule anyway and are not assigned again.
  const int cpus = static_cast<int>(snap_.size());
  auto& taken = flagged_;  // from snapshot(): the need_resched flags
  placed_.assign(woken.size(), 0);
  auto& placed = placed_;
  std::vector<CpuId> chosen;
  if (idle_cpus_ > 0) {
    auto free_idle = [&](CpuId c) { return snap_[c].idle && !taken[c]; };
    for (std::size_t i = 0; i < woken.size(); ++i) {
      const CpuId previous = processor(woken[i]);
      if (previous >= 0 && free_idle(previous)) {
        XBT_DEBUG("cycle %lld smart wakeup: thread %d to cpu %d, its previous CPU, idle",
                  static_cast<long long>(host_->now()), woken[i], previous);
        taken[previous] = 1;
        placed[i] = 1;
        chosen.push_back(previous);
      }
    }
    for (std::size_t i = 0; i < woken.size(); ++i) {
      if (placed[i]) continue;
      std::optional<CpuId> oldest;
      for (CpuId c = 0; c < cpus; ++c) {
        if (free_idle(c) && (!oldest || snap_[c].idle_since < snap_[*oldest].idle_since)) oldest = c;
      }
      if (!oldest) break;
      XBT_DEBUG("cycle %lld smart wakeup: thread %d to cpu %d, idle the longest",
                static_cast<long long>(host_->now()), woken[i], *oldest);
      taken[*oldest] = 1;
      placed[i] = 1;
      chosen.push_back(*oldest);
    }
  }
  auto& tri = tri_;
  tri.clear();
  // TRI without computing every (task, CPU) pair: on any CPU but its processor a task's goodness is at most
  // counter + SAME_ADDRESS_SPACE_BONUS, so only the CPUs whose current goodness is below that minus the
  // threshold can give a triplet; its processor is tried apart. A task with counter 0 has goodness 0 and
  // gives none (goodness is never negative). The set is the same as from all pairs; it is sorted below, so
  // the order in which it is built does not matter.
  auto& busy = busy_;
  busy.clear();
  Cycles lowest = 0;  // the smallest current goodness among them
  for (CpuId c = 0; c < cpus; ++c) {
    if (taken[c] || !snap_[c].busy) continue;
    if (busy.empty() || snap_[c].current_goodness < lowest) lowest = snap_[c].current_goodness;
    busy.push_back(c);
  }
  auto try_pair = [&](std::size_t i, const Task& task, CpuId c) {
    const Cycles d = weight(task, c, snap_[c].space) - snap_[c].current_goodness;
    if (d > params_.preemption_threshold) tri.push_back({d, i, c});
  };
  for (std::size_t i = 0; i < woken.size() && !busy.empty(); ++i) {
    if (placed[i]) continue;
    const Task& task = tasks_[static_cast<std::size_t>(woken[i])];
    if (task.counter == 0) continue;
    const CpuId own = task.processor;
    const Cycles limit = task.counter + params_.same_address_space_bonus - params_.preemption_threshold;
    if (lowest >= limit) {  // no CPU but its processor can give a triplet
      if (own >= 0 && !taken[own] && snap_[own].busy) try_pair(i, task, own);
      continue;
    }
    for (CpuId c : busy)
      if (c == own || snap_[c].current_goodness < limit) try_pair(i, task, c);
  }
  // Larger d first; ties by wake order, then CPU id (a choice: the thesis does not order ties).
  std::sort(tri.begin(), tri.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(b.d, a.task, a.cpu) < std::tie(a.d, b.task, b.cpu);
  });
  for (const auto& t : tri) {
    if (placed[t.task] || taken[t.cpu]) continue;
    XBT_DEBUG("cycle %lld smart wakeup: thread %d to cpu %d, goodness gain %lld over its current thread",
              static_cast<long long>(host_->now()), woken[t.task], t.cpu, static_cast<long long>(t.d));
    placed[t.task] = 1;
    taken[t.cpu] = 1;
    chosen.push_back(t.cpu);
  }
  return chosen;
}

namespace {

using config::Field;
using config::PolicyParams;

// The wakeup schemes scheduler.wakeup names (thesis 6.6.1.2), in the order error messages list them:
// silly, reschedule_idle for each woken task in turn, the chosen CPUs rescheduling after the loop; aip, silly
// passing over the CPUs whose need_resched is already set (avoid idle preemption); smart, reschedule_idle
// made global: idle CPUs first, then the largest goodness gains (algorithm 5).
const config::Names<WakeupScheme> kWakeupNames = {
    {"silly", WakeupScheme::Silly}, {"aip", WakeupScheme::Aip}, {"smart", WakeupScheme::Smart}};
// scheduler.aip_search: where aip looks for a CPU: idle CPUs only (the literal reading of AIP), or idle CPUs,
// then CPUs to preempt.
const config::Names<AipSearch> kAipSearchNames = {{"idle", AipSearch::IdleOnly},
                                                  {"all", AipSearch::IdleAndPreemption}};

// One of `names` ("silly, aip or smart" in the error).
template <typename Enum>
Enum named(const Field& f, config::Names<Enum> names) {
  std::vector<std::string_view> all;
  for (const auto& [name, value] : names) all.push_back(name);
  const std::string expected = util::join_list(all, " or ");
  const auto text = f.scalar(expected);
  for (const auto& [name, value] : names)
    if (text == name) return value;
  f.fail(expected);
}

// scheduler.params: linux22 | linux24 | {proc_change_penalty, same_address_space_bonus, preemption_threshold}
// (thesis 6.6.2), the explicit values in cycles or % of the quantum.
void read_params(const Field& field, PolicyParams& params) {
  auto& linux = config::params_as<Linux24SchedulerParams>(params);
  if (field.is_map()) {
    config::MapReader map(field, "linux22, linux24 or a mapping of the three parameters");
    const std::string expected = "a non-negative duration in cycles or % of the quantum";
    linux.params_given = "explicit";
    linux.values.proc_change_penalty =
        config::smp_cycles(map.required("proc_change_penalty"), linux.quantum, expected);
    linux.values.same_address_space_bonus =
        config::smp_cycles(map.required("same_address_space_bonus"), linux.quantum, expected);
    linux.values.preemption_threshold =
        config::smp_cycles(map.required("preemption_threshold"), linux.quantum, expected);
    map.finish();
    return;
  }
  const std::string expected =
      "linux22, linux24 or a mapping of proc_change_penalty, same_address_space_bonus and "
      "preemption_threshold";
  const auto name = field.scalar(expected);
  if (name == "linux22") {
    linux.values = Linux24Params::linux22(linux.quantum);
  } else if (name == "linux24") {
    linux.values = Linux24Params::linux24(linux.quantum);
  } else {
    field.fail(expected);
  }
  linux.params_given = name;
}

const config::PolicyKey kLinux24Keys[] = {
    {"params",
     "the goodness parameters: linux22 (default), linux24, or a mapping of proc_change_penalty, "
     "same_address_space_bonus and preemption_threshold in cycles or % of the quantum (thesis 6.6.2)",
     read_params},
    {"wakeup", "the wakeup scheme: silly, aip or smart (thesis 6.6.1.2; default smart)",
     [](const Field& f, PolicyParams& params) {
       config::params_as<Linux24SchedulerParams>(params).wakeup = named(f, kWakeupNames);
     }},
    {"aip_search", "where aip looks for a CPU: idle (default) or all; with wakeup: aip only",
     [](const Field& f, PolicyParams& params) {
       auto& linux = config::params_as<Linux24SchedulerParams>(params);
       linux.aip_search = named(f, kAipSearchNames);
       if (linux.wakeup != WakeupScheme::Aip) f.error("aip_search applies only to wakeup: aip");
     }},
};

void linux24_json(const PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& linux = static_cast<const Linux24SchedulerParams&>(params);
  out["params"] = linux.params_given;
  out["proc_change_penalty"] = linux.values.proc_change_penalty;
  out["same_address_space_bonus"] = linux.values.same_address_space_bonus;
  out["preemption_threshold"] = linux.values.preemption_threshold;
  out["wakeup"] = config::name_of(kWakeupNames, linux.wakeup);
  if (linux.wakeup == WakeupScheme::Aip)
    out["aip_search"] = config::name_of(kAipSearchNames, linux.aip_search);
}

}  // namespace

const SmpSchedulerEntry kLinux24Entry{
    {"linux24",
     "Linux 2.4 SCHED_OTHER: counters, epochs, goodness, reschedule_idle, wakeup schemes (thesis chapters "
     "6-7)",
     kLinux24Keys, config::default_params<Linux24SchedulerParams>, linux24_json},
    nullptr,
    [](const PolicyParams& params, const config::SmpConfig&, int,
       std::uint64_t) -> std::unique_ptr<SmpScheduler> {
      const auto& linux = static_cast<const Linux24SchedulerParams&>(params);
      return std::make_unique<Linux24>(linux.values, linux.wakeup, linux.aip_search);
    }};

}  // namespace cosched::sched
