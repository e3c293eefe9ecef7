#pragma once
// A single CPU driving a fair run queue with CPU-bound tasks, for the closed-form checks of
// docs/models/linux-fair.md: each task runs until the queue's next rescheduling (a tick or the
// high-resolution timer), is put back, and the queue picks again.

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "sched/fair/run_queue.hpp"

namespace cosched::sched::fair::testing {

inline constexpr Time kUs = 1'000;
inline constexpr Time kMs = 1'000'000;

// A task that has not run yet.
inline Entity task(int id) {
  Entity e;
  e.id = id;
  return e;
}

struct Cpu {
  explicit Cpu(const Settings& s) : rq(s) {}

  RunQueue rq;
  Time now = 0;
  std::map<int, Time> cpu_time;
  std::vector<std::pair<Time, int>> picks;  // (time, task) of each pick that changed the running task

  void start(Entity& e, int nice = 0) {
    e.load = nice_weight(nice);
    rq.enqueue(e, Enqueue::Initial, now);
  }

  // Runs until `end`, every task CPU-bound.
  void run_until(Time end) {
    while (now < end) {
      if (!rq.curr()) {
        Entity* next = rq.pick(now);
        if (!next) {
          now = end;
          return;
        }
        if (picks.empty() || picks.back().second != next->id) picks.emplace_back(now, next->id);
      }
      const auto due = rq.resched_time();
      const Time until = due ? std::min(std::max(*due, now), end) : end;
      cpu_time[rq.curr()->id] += until - now;
      now = until;
      rq.update(now);
      if (rq.need_resched()) rq.put_prev(now);
    }
  }

  // The running task blocks now.
  void block_running() {
    Entity* e = rq.curr();
    rq.dequeue(*e, Dequeue::Sleep, now);
    rq.put_prev(now);
  }

  // `e` wakes now; true when it preempted the running task (which is then put back).
  bool wake(Entity& e) {
    if (e.delayed) {
      rq.requeue(e, now);
    } else {
      rq.enqueue(e, Enqueue::Wakeup, now);
    }
    const bool preempts = rq.wakeup_preempt(e, now);
    if (preempts) rq.put_prev(now);
    return preempts;
  }
};

inline Settings version_settings(std::string_view name, int cpus = 1, int hz = 1000) {
  return Settings::of(*kernel_version(name), cpus, TunableScaling::Log, hz);
}

}  // namespace cosched::sched::fair::testing
