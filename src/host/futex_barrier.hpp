#pragma once
// A job's barrier on the host (docs/host.md, section 4): a count of arrivals and a generation word that the
// last arriver advances. A waiter spins on the generation (busy_loop.hpp's polls), then blocks on it with
// FUTEX_WAIT; the last arriver wakes every blocked waiter with one FUTEX_WAKE, and only when one may be
// blocked, so that a barrier nobody blocked at makes no system call.

#include <atomic>
#include <cstdint>

namespace cosched::host {

// What one thread did at one barrier, added up over a job's threads: the SMP model's counts
// (docs/models/smp.md section 11), and the spin's polls.
struct WaitCounts {
  std::int64_t spins = 0;             // spins entered: not the last arriver, a budget above 0
  std::int64_t successful_spins = 0;  // a poll saw the barrier complete
  std::int64_t blocks = 0;            // blocked: budget 0, or the spin's budget ran out
  std::uint64_t polls = 0;
};

class FutexBarrier {
 public:
  explicit FutexBarrier(int threads) : threads_(threads) {}
  FutexBarrier(const FutexBarrier&) = delete;
  FutexBarrier& operator=(const FutexBarrier&) = delete;

  struct Arrival {
    bool last = false;             // it completed the barrier: it goes on at once, and waits for nothing
    std::uint32_t generation = 0;  // the barrier's generation it arrived in
  };
  Arrival arrive();

  // A waiter that is not the last arriver: spins up to `max_polls` polls (0: blocks at once; kUnlimitedPolls:
  // never blocks), then blocks until the generation moves on. With `yield`, each failed poll calls
  // sched_yield() (the `yield` waiting algorithm). Counts what it did into `counts`; returns true when its
  // spin failed (the SMP model's unsuccessful spin, whose time is the job's transition point).
  bool wait(Arrival arrival, std::uint64_t max_polls, bool yield, WaitCounts& counts);

  // Barriers completed so far.
  std::int64_t completed() const { return completed_.load(std::memory_order_relaxed); }

 private:
  void block(std::uint32_t generation);

  const int threads_;
  // Each on a cache line of its own: waiters poll the generation while arrivals change the count.
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<int> sleepers_{0};
  std::atomic<std::int64_t> completed_{0};
};

}  // namespace cosched::host
