#pragma once
// The two loops a thread of `cosched host` spends its CPU time in (docs/host.md, section 3): a computation
// interval as a number of iterations of a dependent multiply-add chain, and a spin as polls of a barrier's
// generation word. Both count work, not time: an iteration or a poll does not advance while its thread is
// preempted, so an interval of C cycles stays C cycles of CPU time, as it is in the SMP model (a computation
// phase advances only while its thread runs, docs/models/smp.md section 6). Their cost per iteration is
// measured once per run in thread CPU time (calibrate_loops).

#include <atomic>
#include <cstdint>
#include <limits>

namespace cosched::host {

// A spin budget no barrier reaches: the `spin` algorithm's (always spin).
inline constexpr std::uint64_t kUnlimitedPolls = std::numeric_limits<std::uint64_t>::max();

// Runs `iterations` of the chain. Each iteration depends on the last, so the processor can neither skip
// nor overlap them: the cost per iteration is its multiply-add latency, steady from run to run.
void compute_iterations(std::uint64_t iterations);

struct PollResult {
  std::uint64_t polls = 0;  // polls made
  bool changed = false;     // the last poll saw `word` differ from `seen`
};

// What a waiter does between two polls: the processor's spin-wait hint (x86 `pause`), as a spinning barrier
// does, or a sched_yield() call (the `yield` waiting algorithm).
enum class BetweenPolls { Pause, Yield };

// Polls `word` (acquire) until it differs from `seen`, at most `max_polls` times.
PollResult poll_until_changed(const std::atomic<std::uint32_t>& word, std::uint32_t seen,
                              std::uint64_t max_polls, BetweenPolls between = BetweenPolls::Pause);

// Nanoseconds of the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) and of CLOCK_MONOTONIC.
std::int64_t thread_cpu_ns();
std::int64_t monotonic_ns();

struct LoopCosts {
  double ns_per_compute_iteration = 0;
  double ns_per_poll = 0;
};

// Each loop's cost in nanoseconds of thread CPU time per iteration (per poll of a word that never changes):
// the median of 5 trials of about 2 ms each after a warm-up, measured on the calling thread.
LoopCosts calibrate_loops();

}  // namespace cosched::host
