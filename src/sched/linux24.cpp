#include "sched/linux24.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace cosched::sched {

Linux24Params Linux24Params::linux22(Cycles quantum) {
  const double q = static_cast<double>(quantum);
  return {quantum, std::llround(q * 15 / 20), std::llround(q * 1 / 20), std::llround(q * 1 / 20)};
}

Linux24Params Linux24Params::linux24(Cycles quantum) {
  const double q = static_cast<double>(quantum);
  return {quantum, std::llround(q * 15 / 5), std::llround(q * 1 / 5), std::llround(q * 1 / 5)};
}

std::string_view wakeup_scheme_name(WakeupScheme scheme) {
  switch (scheme) {
    case WakeupScheme::Silly:
      return "silly";
    case WakeupScheme::Aip:
      return "aip";
    case WakeupScheme::Smart:
      return "smart";
  }
  return "?";
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
  const auto n = static_cast<std::size_t>(host_ ? host_->thread_count() : 0);
  const std::size_t old = tasks_.size();
  if (old >= n) return;
  tasks_.resize(n, Task{params_.quantum, -1, 0});
  for (std::size_t t = old; t < n; ++t) tasks_[t].space = host_->address_space(static_cast<ThreadId>(t));
}

Cycles Linux24::counter(ThreadId thread) const {
  return static_cast<std::size_t>(thread) < tasks_.size() ? tasks_[thread].counter : params_.quantum;
}

CpuId Linux24::processor(ThreadId thread) const {
  return static_cast<std::size_t>(thread) < tasks_.size() ? tasks_[thread].processor : -1;
}

void Linux24::enqueue(ThreadId thread, ReadyReason) {
  grow();
  ready_.push_back(thread);
}

void Linux24::charge(ThreadId thread, Cycles cycles) {
  grow();
  auto& counter = tasks_[thread].counter;
  counter = std::max<Cycles>(0, counter - cycles);
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

void Linux24::new_epoch() {
  // Algorithm 4, lines 20-21: every task, not only the runnable ones (6.5.4: "the only means in which the
  // Linux scheduler favors I/O bound over CPU bound tasks"). Running tasks are charged up to now first.
  grow();
  host_->settle_running();
  for (auto& task : tasks_) task.counter = task.counter / 2 + params_.quantum;
  ++epochs_;
  host_->slices_changed();
}

std::optional<ThreadId> Linux24::pick_next(CpuId cpu, std::optional<ThreadId> prev) {
  grow();
  // The bonus depends on the CPU's current task only: read its address space once per call.
  const ThreadId current = host_->cpu(cpu).current;
  const int current_space = current >= 0 ? host_->address_space(current) : -1;
  auto fast_goodness = [&](ThreadId t) {
    const auto& task = tasks_[static_cast<std::size_t>(t)];
    if (task.counter == 0) return Cycles{0};
    Cycles weight = task.counter;
    if (task.processor == cpu) weight += params_.proc_change_penalty;
    if (current_space >= 0 && task.space == current_space) weight += params_.same_address_space_bonus;
    return weight;
  };
  for (;;) {
    // Algorithm 4, lines 5-15: prev first, so that it wins ties; then the ready tasks in list order, each
    // replacing the best only when strictly better.
    std::optional<ThreadId> next = prev;
    Cycles best = prev ? fast_goodness(*prev) : -1;
    std::size_t best_index = ready_.size();
    for (std::size_t i = 0; i < ready_.size(); ++i) {
      const Cycles g = fast_goodness(ready_[i]);
      if (g > best) {
        best = g;
        next = ready_[i];
        best_index = i;
      }
    }
    if (best < 0) return std::nullopt;  // lines 17-18: nothing to run
    if (best == 0) {                    // lines 19-22: everyone exhausted its quantum
      new_epoch();
      continue;
    }
    if (best_index < ready_.size()) ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(best_index));
    tasks_[*next].processor = cpu;  // line 24
    return next;
  }
}

std::optional<CpuId> Linux24::choose_cpu(ThreadId thread, const std::vector<char>& flagged,
                                         bool skip_flagged_idle, bool skip_flagged_busy) const {
  // Algorithm 2, lines 3-14.
  const int cpus = host_->cpu_count();
  auto usable_idle = [&](CpuId c) {
    return host_->cpu(c).phase == CpuPhase::Idle && !(skip_flagged_idle && flagged[c]);
  };
  const CpuId previous = processor(thread);
  if (previous >= 0 && usable_idle(previous)) return previous;
  std::optional<CpuId> oldest;
  for (CpuId c = 0; c < cpus; ++c) {
    if (!usable_idle(c)) continue;
    if (!oldest || host_->cpu(c).idle_since < host_->cpu(*oldest).idle_since) oldest = c;
  }
  if (oldest) return oldest;
  Cycles max_prio = params_.preemption_threshold;
  std::optional<CpuId> next;
  for (CpuId c = 0; c < cpus; ++c) {
    const auto& view = host_->cpu(c);
    if (view.phase == CpuPhase::Idle || view.current < 0) continue;
    if (skip_flagged_busy && flagged[c]) continue;
    const Cycles diff = goodness(thread, c) - goodness(view.current, c);
    if (diff > max_prio) {
      max_prio = diff;
      next = c;
    }
  }
  return next;
}

std::optional<CpuId> Linux24::reschedule_idle(ThreadId thread, CpuId) {
  std::vector<char> flagged(static_cast<std::size_t>(host_->cpu_count()));
  for (CpuId c = 0; c < host_->cpu_count(); ++c) flagged[c] = host_->cpu(c).need_resched;
  const bool aip = wakeup_ == WakeupScheme::Aip;
  return choose_cpu(thread, flagged, aip, aip && aip_search_ == AipSearch::IdleAndPreemption);
}

std::vector<CpuId> Linux24::wake(const std::vector<ThreadId>& woken, CpuId) {
  grow();
  if (wakeup_ == WakeupScheme::Smart) return wake_smart(woken);
  // silly and aip: reschedule_idle for each task in turn (algorithm 3). The chosen CPUs run schedule() only
  // after the whole loop (6.6.1.2, silly: "first assigns idle CPUs to all of the awakening tasks and only
  // then schedule is invoked"), so an idle CPU stays idle, and goodness(current) unchanged, during the loop.
  std::vector<char> flagged(static_cast<std::size_t>(host_->cpu_count()));
  for (CpuId c = 0; c < host_->cpu_count(); ++c) flagged[c] = host_->cpu(c).need_resched;
  const bool aip = wakeup_ == WakeupScheme::Aip;
  std::vector<CpuId> chosen;
  for (ThreadId thread : woken) {
    auto cpu = choose_cpu(thread, flagged, aip, aip && aip_search_ == AipSearch::IdleAndPreemption);
    if (!cpu) continue;
    flagged[*cpu] = 1;
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
  const int cpus = host_->cpu_count();
  std::vector<char> taken(static_cast<std::size_t>(cpus));
  for (CpuId c = 0; c < cpus; ++c) taken[c] = host_->cpu(c).need_resched;
  std::vector<char> placed(woken.size());
  std::vector<CpuId> chosen;
  auto free_idle = [&](CpuId c) { return host_->cpu(c).phase == CpuPhase::Idle && !taken[c]; };
  for (std::size_t i = 0; i < woken.size(); ++i) {
    const CpuId previous = processor(woken[i]);
    if (previous >= 0 && free_idle(previous)) {
      taken[previous] = 1;
      placed[i] = 1;
      chosen.push_back(previous);
    }
  }
  for (std::size_t i = 0; i < woken.size(); ++i) {
    if (placed[i]) continue;
    std::optional<CpuId> oldest;
    for (CpuId c = 0; c < cpus; ++c) {
      if (free_idle(c) && (!oldest || host_->cpu(c).idle_since < host_->cpu(*oldest).idle_since)) oldest = c;
    }
    if (!oldest) break;
    taken[*oldest] = 1;
    placed[i] = 1;
    chosen.push_back(*oldest);
  }
  struct Triplet {
    Cycles d;
    std::size_t task;
    CpuId cpu;
  };
  std::vector<Triplet> tri;
  for (std::size_t i = 0; i < woken.size(); ++i) {
    if (placed[i]) continue;
    for (CpuId c = 0; c < cpus; ++c) {
      const auto& view = host_->cpu(c);
      if (taken[c] || view.phase == CpuPhase::Idle || view.current < 0) continue;
      const Cycles d = goodness(woken[i], c) - goodness(view.current, c);
      if (d > params_.preemption_threshold) tri.push_back({d, i, c});
    }
  }
  // Larger d first; ties by wake order, then CPU id (a choice: the thesis does not order ties).
  std::sort(tri.begin(), tri.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(b.d, a.task, a.cpu) < std::tie(a.d, b.task, b.cpu);
  });
  for (const auto& t : tri) {
    if (placed[t.task] || taken[t.cpu]) continue;
    placed[t.task] = 1;
    taken[t.cpu] = 1;
    chosen.push_back(t.cpu);
  }
  return chosen;
}

}  // namespace cosched::sched
