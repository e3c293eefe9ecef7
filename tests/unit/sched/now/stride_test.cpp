// Stride scheduling (docs/models/now-schedulers.md): S = 2^20, stride = S / tickets, a 10 ms quantum.

#include "sched/now/stride.hpp"

#include <gtest/gtest.h>

#include <map>

namespace cosched::sched {
namespace {

constexpr SimTime kMs = 1'000'000;
constexpr SimTime kQuantum = 10 * kMs;
constexpr double S = Stride::kStride1;

// Runs CPU-bound processes for `quanta` full quanta from `now`; returns the CPU time each one got.
std::map<ProcessId, SimTime> run_full_quanta(Stride& stride, int quanta, SimTime now = 0) {
  std::map<ProcessId, SimTime> cpu;
  for (int i = 0; i < quanta; ++i) {
    auto next = stride.pick_next(now);
    if (!next) break;
    now += kQuantum;
    stride.leave_cpu(*next, LeaveReason::QuantumExpired, now, kQuantum);
    cpu[*next] += kQuantum;
  }
  return cpu;
}

TEST(Stride, SharesTheCpuInProportionToTickets) {
  Stride stride(kQuantum);
  stride.admit(0, 0, 1, 0);
  stride.admit(1, 1, 2, 0);
  auto cpu = run_full_quanta(stride, 3000);
  double ratio = static_cast<double>(cpu[1]) / static_cast<double>(cpu[0]);
  EXPECT_NEAR(ratio, 2.0, 0.02) << "the 2-ticket process gets twice the CPU of the 1-ticket one, within 1%";
}

TEST(Stride, ChargesPartialQuantaAndAdvancesTheGlobalPassByRunnableTickets) {
  Stride stride(kQuantum);
  stride.admit(0, 0, 1, 0);
  stride.admit(1, 1, 2, 0);
  EXPECT_DOUBLE_EQ(stride.pass(0), S) << "a newcomer starts one stride past the global pass (0)";
  EXPECT_DOUBLE_EQ(stride.pass(1), S / 2) << "stride of 2 tickets is S / 2";
  ASSERT_EQ(stride.pick_next(0), 1) << "smallest pass first";
  stride.leave_cpu(1, LeaveReason::Preempted, 4 * kMs, 4 * kMs);
  EXPECT_DOUBLE_EQ(stride.pass(1), S / 2 + S / 2 * 0.4) << "4 ms of a 10 ms quantum costs 0.4 stride";
  EXPECT_DOUBLE_EQ(stride.global_pass(), S / 3 * 0.4) << "global stride S / 3 for 0.4 quantum";
  ASSERT_EQ(stride.pick_next(4 * kMs), 1) << "0.7 S is still below process 0's S";
}

TEST(Stride, BreaksTiesByReadyOrder) {
  Stride stride(kQuantum);
  stride.admit(1, 1, 1, 0);
  stride.admit(0, 0, 1, 0);
  EXPECT_EQ(stride.pick_next(0), 1) << "equal passes: the process admitted first, though its id is larger";
}

TEST(Stride, ABlockedProcessKeepsOnlyItsLag) {
  Stride stride(kQuantum);
  stride.admit(0, 0, 1, 0);
  stride.admit(1, 1, 1, 0);
  ASSERT_EQ(stride.pick_next(0), 0);
  stride.leave_cpu(0, LeaveReason::Blocked, 2 * kMs, 2 * kMs);
  // pass 1.2 S, global pass S / 2 x 0.2 = 0.1 S: the lag kept is 1.1 S.
  EXPECT_EQ(stride.runnable_tickets(), 1) << "a blocked process leaves the runnable set";
  auto alone = run_full_quanta(stride, 100, 2 * kMs);
  EXPECT_EQ(alone[1], 100 * kQuantum) << "process 1 runs alone while 0 sleeps";
  SimTime woken = 2 * kMs + 100 * kQuantum;
  stride.wake(0, woken);
  EXPECT_DOUBLE_EQ(stride.global_pass(), 0.1 * S + 100 * S) << "alone, the global pass moved S per quantum";
  EXPECT_NEAR(stride.pass(0) - stride.global_pass(), 1.1 * S, 1e-6)
      << "the woken process gets its lag back, no more";
  auto after = run_full_quanta(stride, 100, woken);
  EXPECT_LE(after[0], 51 * kQuantum) << "a second of sleep earns no catch-up: the CPU is shared evenly again";
  EXPECT_GE(after[0], 49 * kQuantum) << "and the woken process still gets its half";
}

TEST(Stride, AWokenProcessWithASmallerPassPreempts) {
  Stride stride(kQuantum);
  stride.admit(1, 1, 1, 0);
  stride.admit(0, 0, 1, 0);
  ASSERT_EQ(stride.pick_next(0), 1) << "tie at S: process 1 was admitted first";
  stride.leave_cpu(1, LeaveReason::QuantumExpired, 10 * kMs, 10 * kMs);  // pass 2 S, global 0.5 S
  ASSERT_EQ(stride.pick_next(10 * kMs), 0);
  stride.leave_cpu(0, LeaveReason::Blocked, 11 * kMs, 1 * kMs);  // pass 1.1 S, global 0.55 S, lag 0.55 S
  ASSERT_EQ(stride.pick_next(11 * kMs), 1);
  stride.wake(0, 15 * kMs);  // global 0.55 S + 0.4 S: pass 1.5 S
  EXPECT_DOUBLE_EQ(stride.pass(0), 1.5 * S) << "global pass 0.95 S plus its lag 0.55 S";
  EXPECT_TRUE(stride.should_preempt(1, 15 * kMs, 4 * kMs)) << "1.5 S is below the runner's 2 S + 0.4 S";
  stride.leave_cpu(1, LeaveReason::Preempted, 15 * kMs, 4 * kMs);
  EXPECT_EQ(stride.pick_next(15 * kMs), 0) << "the woken process runs";
}

TEST(Stride, AWokenProcessWithALargerPassWaitsForTheQuantumEnd) {
  Stride stride(kQuantum);
  stride.admit(0, 0, 1, 0);
  stride.admit(1, 1, 1, 0);
  ASSERT_EQ(stride.pick_next(0), 0);
  stride.leave_cpu(0, LeaveReason::Blocked, 2 * kMs, 2 * kMs);  // lag 1.1 S
  ASSERT_EQ(stride.pick_next(2 * kMs), 1);                      // pass S, lag 0.9 S
  stride.wake(0, 5 * kMs);
  EXPECT_FALSE(stride.should_preempt(1, 5 * kMs, 3 * kMs))
      << "a lag of 1.1 S is behind the runner's 0.9 S + 0.3 S";
}

TEST(Stride, TheGlobalPassStandsStillWhenNothingIsRunnable) {
  Stride stride(kQuantum);
  stride.admit(0, 0, 1, 0);
  ASSERT_EQ(stride.pick_next(0), 0);
  stride.leave_cpu(0, LeaveReason::Blocked, 5 * kMs, 5 * kMs);
  double before = stride.global_pass();
  stride.tick(500 * kMs);
  EXPECT_DOUBLE_EQ(stride.global_pass(), before) << "no runnable tickets: the global pass does not move";
}

TEST(Stride, RefusesANonPositiveQuantumOrTicketCount) {
  EXPECT_THROW(Stride(0), std::invalid_argument) << "zero quantum";
  Stride stride(kQuantum);
  EXPECT_THROW(stride.admit(0, 0, 0, 0), std::invalid_argument) << "zero tickets";
}

}  // namespace
}  // namespace cosched::sched
