#pragma once
// Linux 2.4 SCHED_OTHER as the Tsafrir thesis describes and simulates it (chapter 6, 7.2): per-task counter
// (dynamic priority, in cycles: "the counter field of each task ... has cycle accuracy", 6.6.2), epochs,
// goodness (algorithm 1), schedule() with prev winning ties (algorithm 4), reschedule_idle (algorithm 2) and
// the three wakeup schemes of 6.6.1.2 (silly, aip, smart; algorithm 5).

#include <optional>
#include <string_view>
#include <vector>

#include "sched/smp_scheduler.hpp"

namespace cosched::sched {

struct Linux24Params {
  Cycles quantum = 0;                   // NICE_TO_TICKS(nice) for the default nice, in cycles (6.4.4)
  Cycles proc_change_penalty = 0;       // PROC_CHANGE_PENALTY (6.5.1, 6.6.2)
  Cycles same_address_space_bonus = 0;  // SAME_ADDRESS_SPACE_BONUS (6.5.1, 6.6.2)
  Cycles preemption_threshold = 0;      // PREEMPTION_THRESHOLD (6.5.2, 6.6.2)

  // Thesis 6.6.2: the Linux-2.2 values relative to its 20-tick quantum (15, 1 and 1 ticks: 75%, 5%, 5%),
  // the default of the thesis's simulations; and Linux 2.4's relative to its 5-tick quantum (300%, 20%, 20%).
  static Linux24Params linux22(Cycles quantum);
  static Linux24Params linux24(Cycles quantum);
};

enum class WakeupScheme { Silly, Aip, Smart };
// The two readings of AIP (thesis 6.6.1.2): the literal one skips CPUs whose need_resched is set only in the
// search for an idle CPU; the other also skips them in the preemption search of algorithm 2.
enum class AipSearch { IdleOnly, IdleAndPreemption };

class Linux24 final : public SmpScheduler {
 public:
  Linux24(Linux24Params params, WakeupScheme wakeup, AipSearch aip_search = AipSearch::IdleOnly);

  bool decides_before_switch() const override { return true; }
  void enqueue(ThreadId thread, ReadyReason reason) override;
  std::optional<ThreadId> pick_next(CpuId cpu, std::optional<ThreadId> prev) override;
  Cycles time_slice(ThreadId thread) const override { return counter(thread); }
  void charge(ThreadId thread, Cycles cycles) override;
  std::vector<CpuId> wake(const std::vector<ThreadId>& woken, CpuId this_cpu) override;
  std::optional<CpuId> reschedule_idle(ThreadId thread, CpuId this_cpu) override;
  bool has_ready() const override { return !ready_.empty(); }
  std::size_t ready_count() const override { return ready_.size(); }

  // Algorithm 1: how desirable `thread` is on `cpu`, whose current task is the host's CpuView::current.
  Cycles goodness(ThreadId thread, CpuId cpu) const;
  Cycles counter(ThreadId thread) const;
  // t.processor: the last CPU the thread was chosen for, -1 before its first.
  CpuId processor(ThreadId thread) const;
  // Starts a new epoch: every task's counter = counter / 2 + quantum (algorithm 4, lines 20-21).
  void new_epoch();
  std::int64_t epochs() const { return epochs_; }
  const std::vector<ThreadId>& ready() const { return ready_; }
  const Linux24Params& params() const { return params_; }

 private:
  struct Task {
    Cycles counter = 0;
    CpuId processor = -1;
    int space = 0;  // its address space (mm)
  };
  void grow();
  // reschedule_idle's choice with `flagged` the need_resched flags as this wake-up sees them.
  std::optional<CpuId> choose_cpu(ThreadId thread, const std::vector<char>& flagged, bool skip_flagged_idle,
                                  bool skip_flagged_busy) const;
  std::vector<CpuId> wake_smart(const std::vector<ThreadId>& woken);

  Linux24Params params_;
  WakeupScheme wakeup_;
  AipSearch aip_search_;
  std::vector<Task> tasks_;
  std::vector<ThreadId> ready_;  // runnable and not executing, in the order they became ready
  std::int64_t epochs_ = 0;
};

std::string_view wakeup_scheme_name(WakeupScheme scheme);

}  // namespace cosched::sched
