#pragma once
// Linux's fair scheduler as an SMP machine's policy (scheduler.policy cfs or eevdf): one fair run queue per
// CPU (sched/fair/run_queue.hpp), the wake-up CPU choice of select_task_rq_fair, fork placement on the least
// loaded CPU, and load balancing, periodic and when a CPU goes idle. docs/models/linux-fair.md section 8.

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "sched/fair/fair_keys.hpp"
#include "sched/fair/run_queue.hpp"
#include "sched/smp/smp_scheduler.hpp"

namespace cosched::sched {

class SmpFair final : public SmpScheduler {
 public:
  // `migration_cost`: sysctl_sched_migration_cost, below which a thread that ran is cache hot (task_hot).
  // `skew_tick`: CPU c's ticks are offset by c x (TICK_NSEC / 2) / cpus (the kernel's skew_tick=1).
  SmpFair(const fair::Settings& settings, int cpus, Cycles migration_cost, bool skew_tick = false);

  bool decides_before_switch() const override { return true; }
  void enqueue(ThreadId thread, ReadyReason reason) override;
  std::optional<ThreadId> pick_next(CpuId cpu, std::optional<ThreadId> prev) override;
  Cycles time_slice(ThreadId thread) const override;
  void yield(ThreadId thread, CpuId cpu) override;
  void finished(ThreadId thread) override;
  std::vector<CpuId> wake(const std::vector<ThreadId>& woken, CpuId this_cpu) override;
  std::optional<CpuId> reschedule_idle(ThreadId thread, CpuId this_cpu) override;
  bool has_ready() const override { return ready_count() > 0; }
  std::size_t ready_count() const override;
  // Load balancing runs at each CPU's balance time, on the tick grid.
  std::optional<Cycles> next_change() const override;
  void change(Cycles now) override;
  bool change_is_repartition() const override { return false; }

  // The CPU whose queue holds the thread (or held it last), -1 before it was placed.
  CpuId cpu_of(ThreadId thread) const { return threads_.at(static_cast<std::size_t>(thread)).cpu; }
  std::int64_t migrations() const { return migrations_; }

 private:
  struct Thread {
    fair::Entity entity;
    CpuId cpu = -1;
    Cycles last_ran = -1;               // when it last left a CPU (the kernel's exec_start, for task_hot)
    std::optional<CpuId> pending_kick;  // reschedule_idle's answer once it was requeued
  };
  Thread& thread(ThreadId id);
  fair::RunQueue& rq(CpuId cpu) { return rqs_[static_cast<std::size_t>(cpu)]; }
  bool idle(CpuId cpu) const;
  // select_task_rq_fair for a wake-up: its previous CPU if idle, else the first idle CPU after it, else the
  // previous CPU.
  CpuId select_cpu(const Thread& t) const;
  // Queues a woken thread (or requeues a delayed sleeper) and says which CPU must reschedule, if any.
  std::optional<CpuId> wake_one(ThreadId id);
  // Pulls one thread to `cpu` from the busiest CPU if the loads differ enough (load_balance); true if it did.
  bool balance(CpuId cpu, Cycles now, bool newly_idle);
  Cycles balance_interval(CpuId cpu) const;

  std::vector<fair::RunQueue> rqs_;
  std::deque<Thread> threads_;  // by thread id; a deque, so that the queues' pointers stay valid
  int cpus_;
  Cycles migration_cost_;
  std::vector<Cycles> next_balance_;
  std::vector<int> balance_failed_;  // sd->nr_balance_failed, per CPU
  std::int64_t migrations_ = 0;
};

// scheduler.policy cfs's and eevdf's parameters in the SMP model.
struct SmpFairParams : config::SmpSchedulerParams, fair::FairKnobs {
  explicit SmpFairParams(fair::Algorithm algorithm) : fair::FairKnobs(algorithm) {}
  Cycles migration_cost = 500'000;  // sysctl_sched_migration_cost, 0.5 ms
  bool skew_tick = false;           // the skew_tick boot parameter
};
extern const SmpSchedulerEntry kSmpCfsEntry;
extern const SmpSchedulerEntry kSmpEevdfEntry;

}  // namespace cosched::sched
