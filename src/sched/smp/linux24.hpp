#pragma once
// Linux 2.4 SCHED_OTHER as the Tsafrir thesis describes and simulates it (chapter 6, 7.2): per-task counter
// (dynamic priority, in cycles: "the counter field of each task ... has cycle accuracy", 6.6.2), epochs,
// goodness (algorithm 1), schedule() with prev winning ties (algorithm 4), reschedule_idle (algorithm 2) and
// the three wakeup schemes of 6.6.1.2 (silly, aip, smart; algorithm 5).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sched/smp/smp_scheduler.hpp"

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
  bool has_ready() const override { return ready_count_ > 0; }
  std::size_t ready_count() const override { return ready_count_; }

  // Algorithm 1: how desirable `thread` is on `cpu`, whose current task is the host's CpuView::current.
  Cycles goodness(ThreadId thread, CpuId cpu) const;
  Cycles counter(ThreadId thread) const;
  // t.processor: the last CPU the thread was chosen for, -1 before its first.
  CpuId processor(ThreadId thread) const;
  // Starts a new epoch: every task's counter = counter / 2 + quantum (algorithm 4, lines 20-21).
  void new_epoch();
  std::int64_t epochs() const { return epochs_; }
  // The ready list in its order (the order threads became ready).
  std::vector<ThreadId> ready() const;
  const Linux24Params& params() const { return params_; }

 private:
  // Implementation note (docs/models/smp.md §15): the ready list is not a scanned vector but an index that
  // gives schedule() the same choice as the full scan of algorithm 4. A ready thread's goodness on a CPU is
  // its counter plus PROC_CHANGE_PENALTY if it is in the CPU's list (processor == cpu) plus
  // SAME_ADDRESS_SPACE_BONUS if it is in the list of the address space of the CPU's current task. So the best
  // ready thread is either in one of those two small lists (scanned in full) or it is the first thread of
  // neither in the order (counter descending, position in the ready list ascending), which `by_counter_`
  // keeps. Ties go to the earlier position in the ready list (`seq`), as in the scan.
  struct Key {
    Cycles counter;
    std::uint64_t seq;
    ThreadId thread;
  };
  struct KeyOrder {
    bool operator()(const Key& a, const Key& b) const {
      return a.counter != b.counter ? a.counter > b.counter : a.seq < b.seq;
    }
  };
  using CounterIndex = std::set<Key, KeyOrder>;

  struct Task {
    Cycles counter = 0;
    CpuId processor = -1;
    int space = 0;  // its address space (mm), as a dense index into by_space_
    bool ready = false;
    std::uint64_t seq = 0;  // position in the ready list: the order it became ready
    CounterIndex::iterator entry;
    int cpu_slot = -1;    // its place in by_cpu_[processor] while ready
    int space_slot = -1;  // its place in by_space_[space] while ready
  };
  void grow();
  // grow() only when `thread` is not known yet (the host's thread count is a virtual call).
  void ensure(ThreadId thread) {
    if (thread >= known_) [[unlikely]]
      grow();
  }
  void index_insert(ThreadId thread);
  void index_remove(ThreadId thread);
  // Re-keys a ready thread whose counter changed.
  void index_recount(ThreadId thread);
  void set_processor(ThreadId thread, CpuId cpu);
  void slot_push(std::vector<ThreadId>& list, int Task::*slot, ThreadId thread);
  void slot_erase(std::vector<ThreadId>& list, int Task::*slot, ThreadId thread);
  // goodness (algorithm 1) on `cpu` whose current task has address space `current_space` (-1: idle task).
  Cycles weight(const Task& task, CpuId cpu, int current_space) const;
  int current_space(CpuId cpu);
  // Reads the CPUs into snap_ and their need_resched flags into flagged_.
  void snapshot();
  // reschedule_idle's choice on snap_, with `flagged_` the need_resched flags as this wake-up sees them.
  std::optional<CpuId> choose_cpu(ThreadId thread, bool skip_flagged_idle, bool skip_flagged_busy) const;
  std::vector<CpuId> wake_smart(const std::vector<ThreadId>& woken);

  Linux24Params params_;
  WakeupScheme wakeup_;
  AipSearch aip_search_;
  std::vector<Task> tasks_;
  int known_ = 0;  // tasks_.size(), kept by grow(): ensure() runs for every CPU in the wake-up paths
  std::unordered_map<int, int> space_ids_;  // host address space -> dense index
  // The ready list: runnable threads not executing, in the order they became ready (Task::seq).
  CounterIndex by_counter_;
  std::vector<std::vector<ThreadId>> by_cpu_;    // ready threads by processor
  std::vector<std::vector<ThreadId>> by_space_;  // ready threads by address space
  std::vector<CounterIndex::node_type>
      spare_nodes_;  // reused, so that the index allocates only while growing
  std::size_t ready_count_ = 0;
  std::uint64_t next_seq_ = 0;
  std::int64_t epochs_ = 0;
  // Scratch space of the wake-up paths, kept to avoid allocations.
  struct CpuSnap {
    bool idle = false;
    bool busy = false;            // not idle, with a current task
    int space = -1;               // the current task's address space
    Cycles current_goodness = 0;  // goodness(current, cpu)
    Cycles idle_since = 0;
  };
  std::vector<CpuSnap> snap_;
  int idle_cpus_ = 0;
  std::vector<char> flagged_;
  std::vector<char> placed_;
  std::vector<CpuId> busy_;
  struct Triplet {
    Cycles d;
    std::size_t task;
    CpuId cpu;
  };
  std::vector<Triplet> tri_;
};

// scheduler.policy linux24's parameters (thesis 6.6): the three Linux parameters and which set they are
// (linux22, linux24 or explicit), the wakeup scheme and where aip looks. Linux 2.2's values unless given
// (thesis 6.6.2: "use the parameter values of Linux-2.2").
struct Linux24SchedulerParams : config::SmpSchedulerParams {
  std::string params_given = "linux22";
  Linux24Params values;
  WakeupScheme wakeup = WakeupScheme::Smart;
  AipSearch aip_search = AipSearch::IdleOnly;
  void derive(Cycles scheduler_quantum, int platform_cpus) override {
    SmpSchedulerParams::derive(scheduler_quantum, platform_cpus);
    values = Linux24Params::linux22(scheduler_quantum);
  }
};
extern const SmpSchedulerEntry kLinux24Entry;

}  // namespace cosched::sched
