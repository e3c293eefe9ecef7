#pragma once
// One CPU's fair run queue (struct cfs_rq) as Linux 6.1's CFS and 6.6+'s EEVDF run it: weights, virtual
// runtimes, placement on wakeup, the pick, wakeup preemption, the slice's end at a tick, yield. Both NOW
// workstations (sched/now/fair.hpp) and SMP CPUs drive it; it never advances time: each call says what time
// it is on this CPU. Each rule names the kernel function it comes from (docs/models/linux-fair.md 2-5).

#include <cstdint>
#include <optional>
#include <vector>

#include "sched/fair/kernel.hpp"
#include "sched/fair/weights.hpp"

namespace cosched::sched::fair {

// A task as its run queue sees it (struct sched_entity). The caller owns it; a queue holds pointers.
struct Entity {
  int id = -1;
  LoadWeight load;
  Time vruntime = 0;
  Time deadline = 0;       // EEVDF: vruntime + vslice at the request's start
  Time vlag = 0;           // EEVDF: V - vruntime when it left the queue, clamped (update_entity_lag)
  Time slice = 0;          // EEVDF: the request's length in real time
  Time sum_exec = 0;       // CPU time received
  Time prev_sum_exec = 0;  // sum_exec when it was last picked
  bool on_rq = false;      // queued or running (the kernel's se->on_rq)
  bool delayed = false;    // DELAY_DEQUEUE: it slept but stays queued until eligible
  // 6.6-6.15: picked and its deadline not renewed since (the kernel's stash vlag == deadline).
  bool protect = false;
  Time vprot = 0;             // 6.17+: protected from wakeup preemption while vruntime < vprot
  bool rel_deadline = false;  // PLACE_REL_DEADLINE: `deadline` holds deadline - vruntime while migrating
  std::uint64_t order = 0;    // when it entered the tree: ties go to the earlier one (an rbtree's insertion)
};

// How a task joins a queue (the enqueue flags that change placement).
enum class Enqueue {
  Initial,   // a new task (ENQUEUE_INITIAL: wake_up_new_task)
  Wakeup,    // a sleeper woken (ENQUEUE_WAKEUP)
  Migrated,  // moved here from another CPU's queue (ENQUEUE_MIGRATED)
};
// How a task leaves a queue.
enum class Dequeue {
  Sleep,    // it blocks (DEQUEUE_SLEEP): may be delayed under DELAY_DEQUEUE
  Migrate,  // it moves to another CPU's queue
  Exit,     // it exits: nothing is kept
};

class RunQueue {
 public:
  explicit RunQueue(const Settings& settings) : s_(settings) {}

  const Settings& settings() const { return s_; }
  Entity* curr() const { return curr_; }
  // Entities on the queue, the running one and delayed sleepers included (cfs_rq->nr_running).
  int nr_running() const { return nr_running_; }
  // Those that can run: not delayed (h_nr_running - h_nr_delayed).
  int nr_runnable() const { return nr_running_ - nr_delayed_; }
  // Is there a task other than the running one that could run?
  bool has_waiting() const { return static_cast<int>(tree_.size()) > nr_delayed_; }
  Time min_vruntime() const { return min_vruntime_; }
  const std::vector<Entity*>& queued() const { return tree_; }

  // Brings the running task's accounting to `now`: its CPU time and virtual runtime, EEVDF's slice renewals
  // at the ticks it crossed (update_curr, update_deadline, entity_tick), and sets need_resched when a tick or
  // this update found its slice over with others waiting.
  void update(Time now);
  void enqueue(Entity& se, Enqueue how, Time now);
  // Takes `se` off the queue; false when DELAY_DEQUEUE keeps a sleeper queued (it leaves at its next pick,
  // or is woken in place by requeue()).
  bool dequeue(Entity& se, Dequeue how, Time now);
  // A delayed sleeper is woken before it left (ttwu_runnable, requeue_delayed_entity).
  void requeue(Entity& se, Time now);
  // Asked once a woken task is queued: should it preempt the running one (check_preempt_wakeup_fair)?
  // Sets need_resched when so.
  bool wakeup_preempt(Entity& woken, Time now);
  // The running task leaves the CPU but stays queued (put_prev_entity); or, if it slept, just leaves.
  void put_prev(Time now);
  // The task to run next, which becomes the running one (pick_next_entity, set_next_entity); delayed
  // sleepers it would pick leave the queue (and are reported in `left`, when given). Null: nothing to run.
  Entity* pick(Time now, std::vector<Entity*>* left = nullptr);
  // sched_yield() by the running task (yield_task_fair); the caller then reschedules.
  void yield(Time now);

  bool need_resched() const { return need_resched_; }
  void clear_resched() { need_resched_ = false; }
  // When a tick (or the high-resolution timer) will end the running task's slice if nothing else happens
  // before; nothing when no other task waits.
  std::optional<Time> resched_time() const;

  // The weighted average of the queue's virtual runtimes, V (avg_vruntime).
  Time avg_vruntime() const;
  // V >= vruntime, as the kernel tests it without dividing (entity_eligible, vruntime_eligible).
  bool eligible(const Entity& se) const;
  // CFS's slice for `se` (sched_slice) and its virtual length (sched_vslice).
  Time sched_slice(const Entity& se) const;
  // CFS: how far `woken` must be behind `curr` to preempt it: 1 yes, 0 within the granularity, -1 not behind
  // (wakeup_preempt_entity).
  int wakeup_preempt_entity(const Entity& curr, const Entity& woken) const;

 private:
  // curr's accounting from last_update_ to `t` with nothing else happening.
  void advance_curr(Time t);
  void update_min_vruntime();
  // EEVDF: renews the request when vruntime has reached the deadline; true when it did (update_deadline).
  bool update_deadline(Entity& se);
  // EEVDF: is the running task's slice protected (RUN_TO_PARITY, protect_slice)? And until what vruntime
  // does its request or protection last, whichever ends first (a tick then reschedules)?
  bool protected_slice(const Entity& se) const;
  Time request_end(const Entity& se) const;
  // The first tick at or after `t` (or `t` itself under HRTICK when `exact`).
  Time tick_at_or_after(Time t) const;
  // The earliest time curr's virtual runtime reaches `target` if it runs on from last_update_.
  Time time_vruntime_reaches(Time target) const;
  void place_cfs(Entity& se, bool initial);
  void place_eevdf(Entity& se, Enqueue how);
  void update_entity_lag(Entity& se);
  void tree_insert(Entity& se);
  void tree_erase(Entity& se);
  Entity* leftmost() const;  // CFS: smallest vruntime; ties to the earlier entry
  Entity* pick_cfs();
  Entity* pick_eevdf() const;
  // CFS's tick check (check_preempt_tick) at `t`, with curr accounted to `t`.
  bool cfs_tick_preempts(Time t) const;
  void clear_buddies(const Entity& se);
  void account_enqueue(const Entity& se);
  void account_dequeue(const Entity& se);
  // avg_vruntime's sums: sum of (v - min_vruntime) x w and of w over the queue and the running task.
  void avg_sums(Int128& sum, std::int64_t& weight) const;

  Settings s_;
  std::vector<Entity*> tree_;  // queued entities but the running one (the rbtree)
  Entity* curr_ = nullptr;
  Entity* next_ = nullptr;  // CFS buddies
  Entity* last_ = nullptr;
  Entity* skip_ = nullptr;
  int nr_running_ = 0;
  int nr_delayed_ = 0;
  std::uint64_t load_ = 0;  // sum of the queued weights, the running one's included (cfs_rq->load)
  Time min_vruntime_ = 0;
  Time last_update_ = 0;  // curr accounted up to here (exec_start)
  std::uint64_t next_order_ = 0;
  bool need_resched_ = false;
};

}  // namespace cosched::sched::fair
