#pragma once
// The decision logic of an SMP scheduling policy: which ready thread a free CPU runs next and for how long.
// Policies never advance time or touch SimGrid; the SMP machine (src/smp/machine.hpp) calls them.

#include <cstdint>
#include <memory>
#include <optional>

namespace cosched::sched {

using ThreadId = int;
using CpuId = int;
using Cycles = std::int64_t;

class SmpScheduler {
 public:
  virtual ~SmpScheduler() = default;
  // The thread became ready (start-up, preemption, wake-up after a barrier).
  virtual void enqueue(ThreadId thread) = 0;
  // The thread a free CPU should run next, removed from the ready set; nothing when none is ready.
  virtual std::optional<ThreadId> pick_next(CpuId cpu) = 0;
  // How long the thread may run once dispatched, in cycles.
  virtual Cycles time_slice(ThreadId thread) const = 0;
  virtual bool has_ready() const = 0;
  virtual std::size_t ready_count() const = 0;
};

}  // namespace cosched::sched
