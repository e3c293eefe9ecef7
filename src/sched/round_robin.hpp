#pragma once
// SCHED_RR as the Tsafrir thesis simulates it (chapter 2): one global FIFO ready queue, fixed quantum.

#include <deque>

#include "sched/smp_scheduler.hpp"

namespace cosched::sched {

class RoundRobin final : public SmpScheduler {
 public:
  explicit RoundRobin(Cycles quantum);
  void enqueue(ThreadId thread) override { queue_.push_back(thread); }
  std::optional<ThreadId> pick_next(CpuId cpu) override;
  Cycles time_slice(ThreadId) const override { return quantum_; }
  bool has_ready() const override { return !queue_.empty(); }
  std::size_t ready_count() const override { return queue_.size(); }

 private:
  Cycles quantum_;
  std::deque<ThreadId> queue_;
};

}  // namespace cosched::sched
