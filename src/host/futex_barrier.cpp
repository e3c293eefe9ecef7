#include "host/futex_barrier.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <system_error>

#include "host/busy_loop.hpp"

namespace cosched::host {
namespace {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "a futex word is a plain 32-bit integer");

long futex(std::atomic<std::uint32_t>& word, int operation, std::uint32_t value) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), operation, value, nullptr, nullptr, 0);
}

}  // namespace

FutexBarrier::Arrival FutexBarrier::arrive() {
  const std::uint32_t generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 < threads_) return {false, generation};
  // The last arriver: the count is reset before the generation moves, so that no thread of the next barrier
  // (each arrives only after seeing the new generation) counts into the old one.
  arrived_.store(0, std::memory_order_relaxed);
  completed_.fetch_add(1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_seq_cst);
  // A waiter counts itself a sleeper before its FUTEX_WAIT, which fails at once if the generation has moved:
  // either this load sees it, or its FUTEX_WAIT sees the new generation (both sequentially consistent).
  if (sleepers_.load(std::memory_order_seq_cst) > 0) futex(generation_, FUTEX_WAKE_PRIVATE, INT_MAX);
  return {true, generation};
}

bool FutexBarrier::wait(Arrival arrival, std::uint64_t max_polls, bool yield, WaitCounts& counts) {
  bool failed = false;
  if (max_polls > 0) {
    ++counts.spins;
    const PollResult spin = poll_until_changed(generation_, arrival.generation, max_polls,
                                               yield ? BetweenPolls::Yield : BetweenPolls::Pause);
    counts.polls += spin.polls;
    if (spin.changed) {
      ++counts.successful_spins;
      return false;
    }
    failed = true;  // unsuccessful even if the barrier completes before the thread sleeps (smp.md 11)
  }
  ++counts.blocks;
  block(arrival.generation);
  return failed;
}

void FutexBarrier::block(std::uint32_t generation) {
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  // Spurious wake-ups and a FUTEX_WAKE meant for an earlier generation's sleepers are waited out.
  while (generation_.load(std::memory_order_seq_cst) == generation) {
    if (futex(generation_, FUTEX_WAIT_PRIVATE, generation) != 0 && errno != EAGAIN && errno != EINTR)
      throw std::system_error(errno, std::generic_category(), "FUTEX_WAIT");
  }
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace cosched::host
