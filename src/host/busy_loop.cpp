#include "host/busy_loop.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cosched::host {
namespace {

inline void spin_hint() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

std::int64_t clock_ns(clockid_t clock) {
  timespec now{};
  if (::clock_gettime(clock, &now) != 0) throw std::runtime_error("clock_gettime failed");
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

constexpr int kTrials = 5;
constexpr std::int64_t kTrialNs = 2'000'000;

// Nanoseconds of thread CPU time per unit of `work(n)`: n grown until one run takes kTrialNs (which is the
// warm-up), then the median of kTrials runs of that n.
template <typename Work>
double ns_per_unit(Work work) {
  std::uint64_t n = 1 << 12;
  while (true) {
    const std::int64_t start = thread_cpu_ns();
    work(n);
    if (thread_cpu_ns() - start >= kTrialNs) break;
    n *= 2;
  }
  std::array<double, kTrials> trials{};
  for (auto& trial : trials) {
    const std::int64_t start = thread_cpu_ns();
    work(n);
    trial = static_cast<double>(thread_cpu_ns() - start) / static_cast<double>(n);
  }
  std::sort(trials.begin(), trials.end());
  return trials[kTrials / 2];
}

}  // namespace

void compute_iterations(std::uint64_t iterations) {
  std::uint64_t x = iterations;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;  // Knuth's MMIX LCG: one multiply-add
    asm volatile("" : "+r"(x));  // the compiler may not fold the chain into a closed form
  }
}

PollResult poll_until_changed(const std::atomic<std::uint32_t>& word, std::uint32_t seen,
                              std::uint64_t max_polls, BetweenPolls between) {
  for (std::uint64_t polls = 1; polls <= max_polls; ++polls) {
    if (word.load(std::memory_order_acquire) != seen) return {polls, true};
    if (between == BetweenPolls::Yield) {
      ::sched_yield();
    } else {
      spin_hint();
    }
  }
  return {max_polls, false};
}

std::int64_t thread_cpu_ns() {
  return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

std::int64_t monotonic_ns() {
  return clock_ns(CLOCK_MONOTONIC);
}

LoopCosts calibrate_loops() {
  LoopCosts costs;
  costs.ns_per_compute_iteration = ns_per_unit([](std::uint64_t n) { compute_iterations(n); });
  const std::atomic<std::uint32_t> never_changes{0};
  costs.ns_per_poll =
      ns_per_unit([&never_changes](std::uint64_t n) { poll_until_changed(never_changes, 0, n); });
  return costs;
}

}  // namespace cosched::host
