#include "sched/fair/run_queue.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace cosched::sched::fair {

// ---- accounting ----

void RunQueue::avg_sums(Int128& sum, std::int64_t& weight) const {
  // avg_vruntime: the keys (vruntime - min_vruntime) weighted by the scaled-down weights of every queued
  // entity, delayed sleepers included, and of the running one while it is queued.
  sum = 0;
  weight = 0;
  for (const Entity* se : tree_) {
    sum += static_cast<Int128>(se->vruntime - min_vruntime_) * se->load.weight;
    weight += se->load.weight;
  }
  if (curr_ && curr_->on_rq) {
    sum += static_cast<Int128>(curr_->vruntime - min_vruntime_) * curr_->load.weight;
    weight += curr_->load.weight;
  }
}

Time RunQueue::avg_vruntime() const {
  Int128 avg = 0;
  std::int64_t load = 0;
  avg_sums(avg, load);
  if (load > 0) {
    // "sign flips effective floor / ceil"
    if (avg < 0) avg -= load - 1;
    avg /= load;
  }
  return min_vruntime_ + static_cast<Time>(avg);
}

bool RunQueue::eligible(const Entity& se) const {
  Int128 avg = 0;
  std::int64_t load = 0;
  avg_sums(avg, load);
  return avg >= static_cast<Int128>(se.vruntime - min_vruntime_) * load;
}

void RunQueue::advance_curr(Time t) {
  if (!curr_ || t <= last_update_) return;
  const Time delta = t - last_update_;
  curr_->sum_exec += delta;
  curr_->vruntime += calc_delta_fair(delta, curr_->load);
  last_update_ = t;
  update_min_vruntime();
}

void RunQueue::update_min_vruntime() {
  // update_min_vruntime: the smaller of the running task's and the leftmost's, never moving back.
  const Entity* c = curr_ && curr_->on_rq ? curr_ : nullptr;
  Time v = c ? c->vruntime : min_vruntime_;
  if (const Entity* left = leftmost()) v = c ? std::min(v, left->vruntime) : left->vruntime;
  min_vruntime_ = std::max(min_vruntime_, v);
}

bool RunQueue::protected_slice(const Entity& se) const {
  // 6.17+: protect_slice, vprot > vruntime, whatever RUN_TO_PARITY (which sets vprot's distance); before, the
  // stash of the deadline at the pick, under RUN_TO_PARITY only.
  if (s_.protect_period) return se.vprot > se.vruntime;
  return s_.on(Feature::RunToParity) && se.protect;
}

Time RunQueue::request_end(const Entity& se) const {
  // 6.17+: update_curr reschedules when the protection ends ("Always trigger resched at the end of a
  // protected period"), which without RUN_TO_PARITY is before the deadline.
  return s_.protect_period ? std::min(se.deadline, se.vprot) : se.deadline;
}

bool RunQueue::update_deadline(Entity& se) {
  if (se.vruntime < se.deadline) return false;
  se.slice = s_.base_slice;
  se.deadline = se.vruntime + calc_delta_fair(se.slice, se.load);
  se.protect = false;  // the kernel's marker vlag == deadline no longer holds
  return true;
}

Time RunQueue::tick_at_or_after(Time t) const {
  // The ticks are at tick_offset plus multiples of TICK_NSEC; one at exactly the last update was handled by
  // it.
  t = std::max(t, last_update_ + 1) - s_.tick_offset;
  return (t + s_.tick - 1) / s_.tick * s_.tick + s_.tick_offset;
}

Time RunQueue::time_vruntime_reaches(Time target) const {
  const Entity& c = *curr_;
  const Time need = target - c.vruntime;
  if (need <= 0) return last_update_;
  if (c.load.weight == kNice0Weight) return last_update_ + need;
  // calc_delta_fair is monotone and near-linear: start from the real-number answer and step to the exact one.
  auto x = static_cast<Time>((static_cast<Int128>(need) * c.load.weight + kNice0Weight - 1) / kNice0Weight);
  while (calc_delta_fair(x, c.load) < need) ++x;
  while (x > 1 && calc_delta_fair(x - 1, c.load) >= need) --x;
  return last_update_ + x;
}

void RunQueue::update(Time now) {
  // At the instant of the last update too: a queue that just grew may find the running task's slice
  // already over (under HRTICK, hrtick_update then reschedules at once).
  if (!curr_ || now < last_update_) return;
  const bool eevdf = s_.algorithm == Algorithm::Eevdf;
  Entity& c = *curr_;
  if (nr_running_ > 1) {
    // Others wait: the first tick (or high-resolution timer) that ends its slice reschedules.
    if (!need_resched_) {
      if (const auto due = resched_time(); due && *due <= now) {
        advance_curr(*due);
        if (eevdf) {
          update_deadline(c);
        } else if (c.sum_exec - c.prev_sum_exec > sched_slice(c)) {
          clear_buddies(c);  // check_preempt_tick: "ensure it doesn't get re-elected due to buddy favours"
        }
        need_resched_ = true;
      }
    }
  } else if (eevdf) {
    // Alone, it renews its request at each tick that finds the deadline reached, without rescheduling: at the
    // first such tick, then every `period` (the ticks one request spans).
    const Time first = tick_at_or_after(time_vruntime_reaches(c.deadline));
    if (first <= now) {
      advance_curr(first);
      update_deadline(c);
      const Time vslice = c.deadline - c.vruntime;
      Time ticks = std::max<Time>(1, (c.slice + s_.tick - 1) / s_.tick);
      while (calc_delta_fair(ticks * s_.tick, c.load) < vslice) ++ticks;
      const Time period = ticks * s_.tick;
      if (const Time count = (now - first) / period; count > 0) {
        advance_curr(first + count * period);
        update_deadline(c);
      }
    }
  }
  advance_curr(now);
  // update_curr at this event: a request whose deadline was reached is renewed here too; 6.17+ also
  // reschedules once the protection is over.
  if (eevdf && update_deadline(c) && nr_running_ > 1) need_resched_ = true;
  if (eevdf && s_.protect_period && nr_running_ > 1 && !protected_slice(c)) need_resched_ = true;
}

std::optional<Time> RunQueue::resched_time() const {
  // entity_tick checks only when others are queued (CFS: "if (cfs_rq->nr_running > 1)"; EEVDF: update_curr
  // reschedules only then).
  if (!curr_ || nr_running_ <= 1) return std::nullopt;
  if (need_resched_) return last_update_;
  const Entity& c = *curr_;
  const Time ran = c.sum_exec - c.prev_sum_exec;
  if (s_.algorithm == Algorithm::Eevdf) {
    // update_deadline at a tick: vruntime has reached the deadline (or, 6.17+, the end of the protection).
    Time due = tick_at_or_after(time_vruntime_reaches(request_end(c)));
    // hrtick_start_fair: a timer when the slice's real time has run.
    if (s_.on(Feature::Hrtick)) due = std::min(due, last_update_ + std::max<Time>(0, c.slice - ran));
    return due;
  }
  // check_preempt_tick: it ran more than its ideal slice, or, past the minimum granularity, its vruntime
  // leads the leftmost's by more than the ideal slice.
  const Time ideal = sched_slice(c);
  // hrtick_start_fair arms the timer at the slice's end, and entity_tick then skips check_preempt_tick
  // ("if (!sched_feat(DOUBLE_TICK) && hrtimer_active(&rq->hrtick_timer)) return;").
  if (s_.on(Feature::Hrtick)) return last_update_ + std::max<Time>(0, ideal - ran);
  Time when = last_update_ + std::max<Time>(0, ideal + 1 - ran);
  if (const Entity* left = leftmost()) {
    const Time granted = last_update_ + std::max<Time>(0, s_.min_granularity - ran);
    when = std::min(when, std::max(granted, time_vruntime_reaches(left->vruntime + ideal + 1)));
  }
  return tick_at_or_after(when);
}

Time RunQueue::sched_slice(const Entity& se) const {
  // sched_slice: the period (sched_latency, or nr x min_granularity past sched_nr_latency tasks) shared by
  // weight, counting `se` when it is not queued yet; at least min_granularity (BASE_SLICE).
  const auto nr = static_cast<unsigned>(nr_running_ + (se.on_rq ? 0 : 1));
  const Time period = nr > s_.nr_latency() ? static_cast<Time>(nr) * s_.min_granularity : s_.latency;
  const std::uint64_t load = load_ + (se.on_rq ? 0 : se.load.weight);
  const auto slice =
      static_cast<Time>(calc_delta(static_cast<std::uint64_t>(period), se.load.weight, load, 0));
  return std::max(slice, s_.min_granularity);
}

int RunQueue::wakeup_preempt_entity(const Entity& curr, const Entity& woken) const {
  const Time vdiff = curr.vruntime - woken.vruntime;
  if (vdiff <= 0) return -1;
  // wakeup_gran: the granularity in the woken entity's virtual time.
  const Time gran = calc_delta_fair(s_.wakeup_granularity, woken.load);
  return vdiff > gran ? 1 : 0;
}

// ---- the tree ----

void RunQueue::tree_insert(Entity& se) {
  se.order = next_order_++;
  tree_.push_back(&se);
}

void RunQueue::tree_erase(Entity& se) {
  const auto it = std::find(tree_.begin(), tree_.end(), &se);
  if (it == tree_.end()) throw std::logic_error("fair run queue: erasing an entity not in the tree");
  tree_.erase(it);
}

Entity* RunQueue::leftmost() const {
  Entity* best = nullptr;
  for (Entity* se : tree_)
    if (!best || std::tie(se->vruntime, se->order) < std::tie(best->vruntime, best->order)) best = se;
  return best;
}

void RunQueue::account_enqueue(const Entity& se) {
  ++nr_running_;
  load_ += se.load.weight;
}

void RunQueue::account_dequeue(const Entity& se) {
  --nr_running_;
  load_ -= se.load.weight;
}

void RunQueue::clear_buddies(const Entity& se) {
  if (next_ == &se) next_ = nullptr;
  if (last_ == &se) last_ = nullptr;
  if (skip_ == &se) skip_ = nullptr;
}

// ---- placement ----

void RunQueue::place_cfs(Entity& se, bool initial) {
  // place_entity (6.1): from min_vruntime; a new task one vslice later (START_DEBIT); a sleeper at most
  // sched_latency (half of it under GENTLE_FAIR_SLEEPERS) earlier, never earlier than it left.
  Time vruntime = min_vruntime_;
  if (initial) {
    if (s_.on(Feature::StartDebit)) vruntime += calc_delta_fair(sched_slice(se), se.load);
    se.vruntime = vruntime;  // Choice: no parent; the kernel takes max(parent's vruntime, this)
    return;
  }
  Time thresh = s_.latency;
  if (s_.on(Feature::GentleFairSleepers)) thresh >>= 1;
  se.vruntime = std::max(se.vruntime, vruntime - thresh);
}

void RunQueue::place_eevdf(Entity& se, Enqueue how) {
  // place_entity (6.6+): at V minus its lag, the lag scaled by (W + w) / W so that adding it leaves V where
  // it was; its request starts there (half a slice for a new task under PLACE_DEADLINE_INITIAL).
  const Time v = avg_vruntime();
  Time lag = 0;
  se.slice = s_.base_slice;
  Time vslice = calc_delta_fair(se.slice, se.load);
  if (s_.on(Feature::PlaceLag) && nr_running_ > 0) {
    const auto load = static_cast<std::int64_t>(load_);
    lag = static_cast<Time>(static_cast<Int128>(se.vlag) * (load + se.load.weight) / load);
  }
  se.vruntime = v - lag;
  if (se.rel_deadline) {
    // PLACE_REL_DEADLINE: a migrated task keeps what was left of its request.
    se.deadline += se.vruntime;
    se.rel_deadline = false;
    return;
  }
  if (s_.on(Feature::PlaceDeadlineInitial) && how == Enqueue::Initial) vslice /= 2;
  se.deadline = se.vruntime + vslice;
}

void RunQueue::update_entity_lag(Entity& se) {
  // update_entity_lag: V - vruntime, clamped to the virtual length of max(2 slices, a tick).
  const Time lag = avg_vruntime() - se.vruntime;
  const Time limit = calc_delta_fair(std::max(2 * se.slice, s_.tick), se.load);
  se.vlag = std::clamp(lag, -limit, limit);
}

// ---- operations ----

void RunQueue::enqueue(Entity& se, Enqueue how, Time now) {
  if (se.on_rq) throw std::logic_error("fair run queue: enqueuing a queued entity");
  update(now);
  if (s_.algorithm == Algorithm::Cfs) {
    if (how == Enqueue::Migrated) se.vruntime += min_vruntime_;  // renormalized on arrival
    if (how != Enqueue::Migrated) place_cfs(se, how == Enqueue::Initial);
  } else {
    place_eevdf(se, how);
  }
  account_enqueue(se);
  tree_insert(se);
  se.on_rq = true;
}

bool RunQueue::dequeue(Entity& se, Dequeue how, Time now) {
  if (!se.on_rq) throw std::logic_error("fair run queue: dequeuing an entity not queued");
  update(now);
  const bool eevdf = s_.algorithm == Algorithm::Eevdf;
  if (eevdf && how == Dequeue::Sleep && !se.delayed && s_.on(Feature::DelayDequeue) && !eligible(se)) {
    // dequeue_entity: a sleeper that received more than its share stays queued, competing, until it is
    // eligible again; it leaves when next picked.
    se.delayed = true;
    ++nr_delayed_;
    return false;
  }
  clear_buddies(se);
  if (eevdf) {
    update_entity_lag(se);
    if (s_.on(Feature::PlaceRelDeadline) && how == Dequeue::Migrate) {
      se.deadline -= se.vruntime;
      se.rel_deadline = true;
    }
  }
  if (&se != curr_) tree_erase(se);
  se.on_rq = false;
  account_dequeue(se);
  if (se.delayed) {
    // finish_delayed_dequeue_entity
    se.delayed = false;
    --nr_delayed_;
    if (s_.on(Feature::DelayZero) && se.vlag > 0) se.vlag = 0;
  }
  if (!eevdf && how == Dequeue::Migrate) se.vruntime -= min_vruntime_;  // carried relative to this queue
  update_min_vruntime();
  return true;
}

void RunQueue::requeue(Entity& se, Time now) {
  if (!se.delayed) throw std::logic_error("fair run queue: requeuing an entity not delayed");
  update(now);
  if (s_.on(Feature::DelayZero)) {
    // requeue_delayed_entity: a positive lag is dropped and the entity placed afresh at V.
    update_entity_lag(se);
    if (se.vlag > 0) {
      if (&se != curr_) tree_erase(se);
      account_dequeue(se);
      se.vlag = 0;
      place_eevdf(se, Enqueue::Wakeup);
      account_enqueue(se);
      if (&se != curr_) tree_insert(se);
    }
  }
  se.delayed = false;
  --nr_delayed_;
}

bool RunQueue::wakeup_preempt(Entity& woken, Time now) {
  if (!curr_ || &woken == curr_) return false;
  if (need_resched_) return true;  // "if (test_tsk_need_resched(curr)) return;": already on its way out
  update(now);
  if (need_resched_) return true;
  if (s_.algorithm == Algorithm::Cfs) {
    const bool scale = static_cast<unsigned>(nr_running_) >= s_.nr_latency();
    bool next_marked = false;
    if (s_.on(Feature::NextBuddy) && scale) {
      next_ = &woken;
      next_marked = true;
    }
    if (!s_.on(Feature::WakeupPreemption)) return false;
    if (wakeup_preempt_entity(*curr_, woken) != 1) return false;
    // "Bias pick_next to pick the sched entity that is triggering this preemption."
    if (!next_marked) next_ = &woken;
    if (s_.on(Feature::LastBuddy) && scale && curr_->on_rq) last_ = curr_;
    need_resched_ = true;
    return true;
  }
  if (!s_.on(Feature::WakeupPreemption)) return false;
  // PREEMPT_SHORT needs a shorter slice than the running task's: every task has the base slice here.
  if (pick_eevdf() != &woken) return false;
  need_resched_ = true;
  return true;
}

void RunQueue::put_prev(Time now) {
  if (!curr_) return;
  update(now);
  if (curr_->on_rq) tree_insert(*curr_);
  curr_ = nullptr;
  need_resched_ = false;
}

Entity* RunQueue::pick_cfs() {
  // pick_next_entity (6.1): the leftmost, unless it is the skip buddy and the second is not too far behind;
  // then the next buddy, or the last buddy, when picking it is not too unfair to the leftmost.
  Entity* left = leftmost();
  if (!left) return nullptr;
  Entity* se = left;
  if (skip_ == se) {
    Entity* second = nullptr;
    for (Entity* e : tree_)
      if (e != left &&
          (!second || std::tie(e->vruntime, e->order) < std::tie(second->vruntime, second->order)))
        second = e;
    if (second && wakeup_preempt_entity(*second, *left) < 1) se = second;
  }
  if (next_ && wakeup_preempt_entity(*next_, *left) < 1) {
    se = next_;
  } else if (last_ && wakeup_preempt_entity(*last_, *left) < 1) {
    se = last_;
  }
  return se;
}

Entity* RunQueue::pick_eevdf() const {
  // pick_eevdf: the eligible entity with the earliest virtual deadline, the running one included; under
  // RUN_TO_PARITY the running one while its request lasts, if it is still eligible.
  Entity* curr = curr_ && curr_->on_rq ? curr_ : nullptr;
  const auto first_by_deadline = [this](bool eligible_only) -> Entity* {
    Int128 avg = 0;
    std::int64_t load = 0;
    avg_sums(avg, load);
    Entity* best = nullptr;
    for (Entity* se : tree_) {
      if (eligible_only && avg < static_cast<Int128>(se->vruntime - min_vruntime_) * load) continue;
      if (!best || std::tie(se->deadline, se->order) < std::tie(best->deadline, best->order)) best = se;
    }
    return best;
  };
  if (nr_running_ == 1) return curr ? curr : first_by_deadline(false);
  if (curr && !eligible(*curr)) curr = nullptr;
  if (curr && protected_slice(*curr)) return curr;
  Entity* best = first_by_deadline(true);
  if (!best || (curr && curr->deadline < best->deadline)) best = curr;
  if (!best) best = leftmost();  // no eligible entity: the kernel's fallback to the leftmost
  return best;
}

Entity* RunQueue::pick(Time now, std::vector<Entity*>* left) {
  if (curr_) throw std::logic_error("fair run queue: picking while a task runs; put_prev first");
  while (true) {
    Entity* se = s_.algorithm == Algorithm::Eevdf ? pick_eevdf() : pick_cfs();
    if (!se) return nullptr;
    if (se->delayed) {
      // pick_next_entity (6.12+): a delayed sleeper it would pick leaves the queue instead.
      dequeue(*se, Dequeue::Sleep, now);
      if (left) left->push_back(se);
      continue;
    }
    // set_next_entity
    clear_buddies(*se);
    tree_erase(*se);
    curr_ = se;
    se->prev_sum_exec = se->sum_exec;
    se->protect = true;
    if (s_.protect_period) {
      // set_protect_slice: until the deadline, or for the smallest queued slice (RUN_TO_PARITY; every slice
      // is the base slice here) or the unscaled base slice (without it) if that ends first.
      const Time slice = std::min(s_.on(Feature::RunToParity) ? se->slice : s_.min_protect, se->slice);
      se->vprot = se->deadline;
      if (slice != se->slice)
        se->vprot = std::min(se->vprot, se->vruntime + calc_delta_fair(slice, se->load));
    }
    last_update_ = now;
    need_resched_ = false;
    return se;
  }
}

void RunQueue::yield(Time now) {
  if (!curr_ || nr_running_ <= 1) return;  // "if (unlikely(rq->nr_running == 1)) return;"
  clear_buddies(*curr_);
  update(now);
  if (s_.algorithm == Algorithm::Cfs) {
    skip_ = curr_;  // set_skip_buddy
  } else if (!s_.yield_forfeits) {
    curr_->deadline += calc_delta_fair(curr_->slice, curr_->load);  // a new request past the current one
    curr_->protect = false;
  } else if (eligible(*curr_)) {
    // 6.18: the yielder forfeits the rest of its request.
    curr_->vruntime = curr_->deadline;
    curr_->deadline += calc_delta_fair(curr_->slice, curr_->load);
    curr_->protect = false;
    update_min_vruntime();
  }
  need_resched_ = true;
}

}  // namespace cosched::sched::fair
