#include "sched/smp/fair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "config/keys.hpp"

namespace cosched::sched {
namespace {

// A slice without end: the thread runs until an event changes its CPU's queue.
constexpr Cycles kUntilAnEvent = 1'000'000'000'000'000;
// sd->busy_factor and sd->cache_nice_tries of a last-level-cache domain (sd_init).
constexpr int kBusyFactor = 16;
constexpr int kCacheNiceTries = 1;

}  // namespace

SmpFair::SmpFair(const fair::Settings& settings, int cpus, Cycles migration_cost, bool skew_tick)
    : cpus_(cpus), migration_cost_(migration_cost) {
  if (cpus <= 0) throw std::invalid_argument("fair SMP policy: at least one CPU");
  rqs_.reserve(static_cast<std::size_t>(cpus));
  for (int c = 0; c < cpus; ++c) {
    // tick_setup_sched_timer: every CPU's tick on the jiffies grid, or, with skew_tick, offset by
    // (TICK_NSEC >> 1) / num_possible_cpus() x its id.
    fair::Settings s = settings;
    if (skew_tick) s.tick_offset = settings.tick / 2 / cpus * c;
    rqs_.emplace_back(s);
  }
  balance_failed_.assign(static_cast<std::size_t>(cpus), 0);
  next_balance_.assign(static_cast<std::size_t>(cpus), 0);
  for (CpuId c = 0; c < cpus; ++c) next_balance_[static_cast<std::size_t>(c)] = balance_interval(c);
}

SmpFair::Thread& SmpFair::thread(ThreadId id) {
  if (id < 0) throw std::logic_error("fair SMP policy: a negative thread id");
  while (static_cast<std::size_t>(id) >= threads_.size()) {
    threads_.emplace_back();
    threads_.back().entity.id = static_cast<int>(threads_.size()) - 1;
  }
  return threads_[static_cast<std::size_t>(id)];
}

bool SmpFair::idle(CpuId cpu) const {
  // available_idle_cpu: nothing running or queued (a thread woken here a moment ago counts).
  const auto& q = rqs_[static_cast<std::size_t>(cpu)];
  return q.nr_running() == 0 && !q.curr();
}

std::size_t SmpFair::ready_count() const {
  std::size_t n = 0;
  for (const auto& q : rqs_) n += static_cast<std::size_t>(q.nr_runnable() - (q.curr() ? 1 : 0));
  return n;
}

Cycles SmpFair::balance_interval(CpuId cpu) const {
  // get_sd_balance_interval for one domain spanning the machine: sd->balance_interval = its weight in ms,
  // times busy_factor on a busy CPU less a jiffy, within [1 jiffy, HZ x cpus / 10 jiffies].
  const Cycles tick = rqs_.front().settings().tick;
  const bool busy = rqs_[static_cast<std::size_t>(cpu)].curr() != nullptr;
  const Cycles ms = 1'000'000;
  Cycles jiffies = (static_cast<Cycles>(cpus_) * (busy ? kBusyFactor : 1) * ms + tick - 1) / tick;
  if (busy) jiffies -= 1;
  const Cycles hz = 1'000'000'000 / tick;
  jiffies = std::clamp<Cycles>(jiffies, 1, std::max<Cycles>(1, hz * cpus_ / 10));
  return jiffies * tick;
}

CpuId SmpFair::select_cpu(const Thread& t) const {
  // select_idle_sibling(p, prev, prev): prev if idle, else a scan of the cache domain from prev + 1.
  const CpuId prev = t.cpu >= 0 ? t.cpu : 0;
  if (idle(prev)) return prev;
  for (int i = 1; i < cpus_; ++i) {
    const CpuId c = (prev + i) % cpus_;
    if (idle(c)) return c;
  }
  return prev;
}

std::optional<CpuId> SmpFair::wake_one(ThreadId id) {
  Thread& t = thread(id);
  const Cycles now = host_->now();
  if (t.entity.delayed) {
    // ttwu_runnable: still queued where it slept, woken in place.
    rq(t.cpu).requeue(t.entity, now);
  } else {
    t.cpu = select_cpu(t);
    rq(t.cpu).enqueue(t.entity, fair::Enqueue::Wakeup, now);
  }
  auto& q = rq(t.cpu);
  if (!q.curr()) return t.cpu;  // an idle CPU: its idle task is preempted
  if (q.wakeup_preempt(t.entity, now)) return t.cpu;
  return std::nullopt;
}

void SmpFair::enqueue(ThreadId id, ReadyReason reason) {
  Thread& t = thread(id);
  const Cycles now = host_->now();
  switch (reason) {
    case ReadyReason::Start: {
      t.entity.load = fair::nice_weight(host_->nice(id));
      // Fork balancing (find_idlest_cpu): the CPU with the fewest queued threads, the lowest id on a tie.
      CpuId best = 0;
      for (CpuId c = 1; c < cpus_; ++c)
        if (rq(c).nr_running() < rq(best).nr_running()) best = c;
      t.cpu = best;
      rq(best).enqueue(t.entity, fair::Enqueue::Initial, now);
      return;
    }
    case ReadyReason::Woken:
      return;  // placed by wake(), which follows with the waker's CPU
    case ReadyReason::Preempted:
    case ReadyReason::Requeued:
      // A preempted thread never left its queue. One that gave its CPU up (to block, or to regroup) and is
      // runnable again by the end of its switch out wakes as any sleeper; reschedule_idle follows.
      if (t.entity.on_rq && !t.entity.delayed) return;
      t.pending_kick = wake_one(id);
      return;
  }
}

std::vector<CpuId> SmpFair::wake(const std::vector<ThreadId>& woken, CpuId) {
  std::vector<CpuId> kicks;
  for (ThreadId id : woken) {
    const auto target = wake_one(id);
    if (target && std::find(kicks.begin(), kicks.end(), *target) == kicks.end()) kicks.push_back(*target);
  }
  host_->slices_changed();  // queues grew: their running threads' slices may end sooner
  return kicks;
}

std::optional<CpuId> SmpFair::reschedule_idle(ThreadId id, CpuId) {
  const auto target = std::exchange(thread(id).pending_kick, std::nullopt);
  if (target) host_->slices_changed();
  return target;
}

std::optional<ThreadId> SmpFair::pick_next(CpuId cpu, std::optional<ThreadId> prev) {
  auto& q = rq(cpu);
  const Cycles now = host_->now();
  if (fair::Entity* curr = q.curr()) {
    Thread& t = thread(curr->id);
    t.last_ran = now;
    // schedule(): a running thread that is not `prev` leaves the CPU to block or finish (DEQUEUE_SLEEP).
    if (!prev) q.dequeue(*curr, fair::Dequeue::Sleep, now);
    q.put_prev(now);
  }
  fair::Entity* next = q.pick(now);
  if (!next && balance(cpu, now, true)) next = q.pick(now);  // newidle balance
  if (!next) return std::nullopt;
  Thread& t = thread(next->id);
  t.cpu = cpu;
  t.pending_kick.reset();
  return next->id;
}

void SmpFair::yield(ThreadId id, CpuId cpu) {
  // do_sched_yield: yield_task_fair on the yielder's queue; schedule() follows.
  if (thread(id).cpu != cpu) throw std::logic_error("fair SMP policy: a thread yields off its CPU");
  rq(cpu).yield(host_->now());
}

Cycles SmpFair::time_slice(ThreadId id) const {
  const auto& t = threads_.at(static_cast<std::size_t>(id));
  const auto& q = rqs_[static_cast<std::size_t>(t.cpu)];
  const auto due = q.resched_time();
  return due ? std::max<Cycles>(1, *due - host_->now()) : kUntilAnEvent;
}

void SmpFair::finished(ThreadId id) {
  // An exiting thread is dequeued for good (DEQUEUE_SPECIAL: never delayed).
  Thread& t = thread(id);
  if (t.entity.on_rq) rq(t.cpu).dequeue(t.entity, fair::Dequeue::Exit, host_->now());
}

bool SmpFair::balance(CpuId cpu, Cycles now, bool newly_idle) {
  auto& here = rq(cpu);
  // find_busiest_queue: the most runnable threads (the lowest id on a tie).
  CpuId busiest = -1;
  for (CpuId c = 0; c < cpus_; ++c)
    if (c != cpu && (busiest < 0 || rq(c).nr_runnable() > rq(busiest).nr_runnable())) busiest = c;
  if (busiest < 0) return false;
  auto& there = rq(busiest);
  // Choice (docs/models/linux-fair.md 8): an imbalance is two runnable threads more there than here; a CPU
  // going idle pulls from any CPU with a thread waiting.
  const int gap = there.nr_runnable() - here.nr_runnable();
  if (newly_idle ? there.nr_runnable() < 2 : gap < 2) return false;
  // detach_tasks: the thread queued longest, unless it ran within the migration cost (task_hot), which
  // only a balance after more than cache_nice_tries failures ignores.
  const bool hot_ok = !newly_idle && balance_failed_[static_cast<std::size_t>(cpu)] > kCacheNiceTries;
  fair::Entity* pick = nullptr;
  for (fair::Entity* e : there.queued()) {
    if (e->delayed) continue;
    const Thread& t = threads_[static_cast<std::size_t>(e->id)];
    const bool hot = t.last_ran >= 0 && now - t.last_ran < migration_cost_;
    if (hot && !hot_ok) continue;
    if (!pick || e->order < pick->order) pick = e;
  }
  if (!pick) {
    if (!newly_idle) ++balance_failed_[static_cast<std::size_t>(cpu)];
    return false;
  }
  balance_failed_[static_cast<std::size_t>(cpu)] = 0;
  there.dequeue(*pick, fair::Dequeue::Migrate, now);
  thread(pick->id).cpu = cpu;
  here.enqueue(*pick, fair::Enqueue::Migrated, now);
  ++migrations_;
  return true;
}

std::optional<Cycles> SmpFair::next_change() const {
  return *std::min_element(next_balance_.begin(), next_balance_.end());
}

void SmpFair::change(Cycles now) {
  // rebalance_domains at each CPU whose balance time has come, in ascending id.
  bool moved = false;
  for (CpuId c = 0; c < cpus_; ++c) {
    auto& next = next_balance_[static_cast<std::size_t>(c)];
    if (next > now) continue;
    if (balance(c, now, false)) {
      moved = true;
      if (!rq(c).curr()) host_->resched_cpu(c);  // an idle CPU runs what it pulled
    }
    next = now + balance_interval(c);
  }
  if (moved) {
    host_->settle_running();
    host_->slices_changed();
  }
}

namespace {

void check_fair(const config::Field& scenario, const config::PolicyParams&, const config::SmpConfig& smp) {
  // The tunables are nanoseconds and the policy counts one cycle as one: the machine platform.cpus builds.
  if (smp.platform_file.empty()) return;
  const auto scheduler = scenario.child(scenario.node()["scheduler"], "scheduler");
  scheduler.child(scheduler.node()["policy"], "policy")
      .error(
          "cfs and eevdf need platform.cpus (their tunables are in nanoseconds, one cycle each on the 1 Gf "
          "host platform.cpus builds), not platform.file");
}

std::unique_ptr<SmpScheduler> make_fair(const config::PolicyParams& params, const config::SmpConfig&,
                                        int cpus, std::uint64_t) {
  const auto& p = static_cast<const SmpFairParams&>(params);
  return std::make_unique<SmpFair>(p.settings(cpus), cpus, p.migration_cost, p.skew_tick);
}

void smp_fair_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& p = static_cast<const SmpFairParams&>(params);
  fair::fair_json(p, p.cpus, out);
  out["migration_cost"] = p.migration_cost;
  out["skew_tick"] = p.skew_tick;
}

const config::PolicyKey kMigrationCostKey = {
    "migration_cost",
    "sysctl_sched_migration_cost: a thread that ran this recently is cache hot and not pulled by load "
    "balancing (cycles, 0 to 10^9; default 500000, 0.5 ms)",
    [](const config::Field& f, config::PolicyParams& params) {
      const auto v = f.non_negative_integer();
      if (v > 1'000'000'000) f.fail("a number of cycles from 0 to 1000000000");
      config::params_as<SmpFairParams>(params).migration_cost = v;
    }};

const config::PolicyKey kSkewTickKey = {
    "skew_tick",
    "the kernel's skew_tick boot parameter: offset CPU c's tick by c x (TICK_NSEC / 2) / cpus instead of "
    "ticking every CPU at once (true or false, default false as the kernel)",
    [](const config::Field& f, config::PolicyParams& params) {
      config::params_as<SmpFairParams>(params).skew_tick = f.boolean();
    }};

const config::PolicyKey kSmpCfsKeys[] = {fair::kKernelKey,
                                         fair::kHzKey,
                                         fair::kTunableScalingKey,
                                         fair::kLatencyKey,
                                         fair::kMinGranularityKey,
                                         fair::kWakeupGranularityKey,
                                         fair::kFeaturesKey,
                                         kMigrationCostKey,
                                         kSkewTickKey};
const config::PolicyKey kSmpEevdfKeys[] = {fair::kKernelKey,    fair::kHzKey,       fair::kTunableScalingKey,
                                           fair::kBaseSliceKey, fair::kFeaturesKey, kMigrationCostKey,
                                           kSkewTickKey};

}  // namespace

const SmpSchedulerEntry kSmpCfsEntry{
    {"cfs", "Linux's Completely Fair Scheduler as of 6.1, a run queue per CPU (docs/models/linux-fair.md)",
     kSmpCfsKeys,
     []() -> std::unique_ptr<config::PolicyParams> {
       return std::make_unique<SmpFairParams>(fair::Algorithm::Cfs);
     },
     smp_fair_json},
    check_fair,
    make_fair,
    /*partitions=*/false,
    /*yields=*/true,
    /*nice=*/true};

const SmpSchedulerEntry kSmpEevdfEntry{
    {"eevdf", "Linux's EEVDF scheduler of 6.6 onwards, a run queue per CPU (docs/models/linux-fair.md)",
     kSmpEevdfKeys,
     []() -> std::unique_ptr<config::PolicyParams> {
       return std::make_unique<SmpFairParams>(fair::Algorithm::Eevdf);
     },
     smp_fair_json},
    check_fair,
    make_fair,
    /*partitions=*/false,
    /*yields=*/true,
    /*nice=*/true};

}  // namespace cosched::sched
