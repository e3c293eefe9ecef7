#pragma once
// SCHED_RR as the Tsafrir thesis simulates it (chapter 2): one global FIFO ready queue, fixed quantum.

#include <deque>

#include "sched/smp/smp_scheduler.hpp"

namespace cosched::sched {

class RoundRobin final : public SmpScheduler {
 public:
  explicit RoundRobin(Cycles quantum);
  // Every reason to become ready appends to the tail (thesis 2.1).
  void enqueue(ThreadId thread, ReadyReason) override { queue_.push_back(thread); }
  void enqueue(ThreadId thread) { enqueue(thread, ReadyReason::Preempted); }
  // The head of the queue; a thread leaving a CPU is queued before the CPU picks, so `prev` is never given.
  std::optional<ThreadId> pick_next(CpuId cpu, std::optional<ThreadId> prev = std::nullopt) override;
  Cycles time_slice(ThreadId) const override { return quantum_; }
  bool has_ready() const override { return !queue_.empty(); }
  std::size_t ready_count() const override { return queue_.size(); }

 private:
  Cycles quantum_;
  std::deque<ThreadId> queue_;
};

extern const SmpSchedulerEntry kRoundRobinEntry;

}  // namespace cosched::sched
