// Stride with system credit (docs/models/now-schedulers.md): a process that blocks is credited the part
// of its quantum it gave up, capped; while it holds credit it is charged at half rate. S = 2^20, 10 ms
// quantum.

#include "sched/now/stride_credit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "sched/now/stride.hpp"

namespace cosched::sched {
namespace {

constexpr SimTime kMs = 1'000'000;
constexpr SimTime kQuantum = 10 * kMs;
constexpr double S = Stride::kStride1;

TEST(StrideCredit, EarnsTheUnusedQuantumUpToTheCap) {
  StrideCredit credit(kQuantum);
  EXPECT_EQ(credit.credit_cap(), kQuantum) << "the cap defaults to one quantum";
  credit.admit(0, 0, 1, 0);
  credit.admit(1, 1, 1, 0);
  ASSERT_EQ(credit.pick_next(0), 0);
  credit.leave_cpu(0, LeaveReason::Blocked, 3 * kMs, 3 * kMs);
  EXPECT_EQ(credit.credit(0), 7 * kMs) << "blocked after 3 ms of a 10 ms quantum: 7 ms given up";
  EXPECT_DOUBLE_EQ(credit.pass(0), 1.3 * S) << "no credit yet when it ran: charged as plain stride";
  ASSERT_EQ(credit.pick_next(3 * kMs), 1);
  credit.wake(0, 5 * kMs);
  credit.leave_cpu(1, LeaveReason::QuantumExpired, 13 * kMs, 10 * kMs);
  EXPECT_EQ(credit.credit(1), 0) << "a full quantum used earns nothing";
  ASSERT_EQ(credit.pick_next(13 * kMs), 0);
  double before = credit.pass(0);
  credit.leave_cpu(0, LeaveReason::Blocked, 15 * kMs, 2 * kMs);
  EXPECT_NEAR(credit.pass(0) - before, S / 2 * 0.2, 1e-6) << "2 ms run on credit cost half of 0.2 stride";
  EXPECT_EQ(credit.credit(0), kQuantum) << "7 - 2 + 8 = 13 ms, capped at one quantum";

  StrideCredit small_cap(kQuantum, 4 * kMs);
  small_cap.admit(0, 0, 1, 0);
  ASSERT_EQ(small_cap.pick_next(0), 0);
  small_cap.leave_cpu(0, LeaveReason::Blocked, 3 * kMs, 3 * kMs);
  EXPECT_EQ(small_cap.credit(0), 4 * kMs) << "7 ms given up, capped at the configured 4 ms";
}

TEST(StrideCredit, HalvesTheChargeUntilTheCreditIsUsedUp) {
  StrideCredit credit(kQuantum);
  credit.admit(0, 0, 1, 0);
  ASSERT_EQ(credit.pick_next(0), 0);
  credit.leave_cpu(0, LeaveReason::Blocked, 3 * kMs, 3 * kMs);
  credit.wake(0, 10 * kMs);
  ASSERT_EQ(credit.credit(0), 7 * kMs);

  ASSERT_EQ(credit.pick_next(10 * kMs), 0);
  double before = credit.pass(0);
  credit.leave_cpu(0, LeaveReason::Preempted, 15 * kMs, 5 * kMs);
  EXPECT_NEAR(credit.pass(0) - before, S / 2 * 0.5, 1e-6) << "5 ms all on credit: half of 0.5 stride";
  EXPECT_EQ(credit.credit(0), 2 * kMs) << "credit is consumed one for one";

  ASSERT_EQ(credit.pick_next(15 * kMs), 0);
  before = credit.pass(0);
  credit.leave_cpu(0, LeaveReason::Preempted, 21 * kMs, 6 * kMs);
  EXPECT_NEAR(credit.pass(0) - before, S / 2 * 0.2 + S * 0.4, 1e-6)
      << "6 ms split where the credit runs out: 2 ms at half rate, 4 ms at full rate";
  EXPECT_EQ(credit.credit(0), 0) << "used up";

  ASSERT_EQ(credit.pick_next(21 * kMs), 0);
  before = credit.pass(0);
  credit.leave_cpu(0, LeaveReason::Preempted, 25 * kMs, 4 * kMs);
  EXPECT_NEAR(credit.pass(0) - before, S * 0.4, 1e-6) << "no credit: plain stride charge";
}

struct CpuTimes {
  SimTime blocking = 0;
  SimTime cpu_bound = 0;
};

// A small closed loop standing in for a workstation: process 0 computes `burst`, then blocks until a
// message arrives `sleep` later, forever; process 1 never blocks. Both have one ticket. The loop asks the
// scheduler for preemption on every wakeup, as the node does.
CpuTimes run_blocking_against_cpu_bound(Stride& scheduler, SimTime burst, SimTime sleep, SimTime horizon) {
  constexpr SimTime kNever = std::numeric_limits<SimTime>::max();
  scheduler.admit(0, 0, 1, 0);
  scheduler.admit(1, 1, 1, 0);
  CpuTimes out;
  SimTime now = 0;
  SimTime dispatched = 0;
  SimTime burst_left = burst;
  SimTime wakes_at = kNever;
  constexpr ProcessId kIdle = -1;
  ProcessId running = kIdle;
  auto leave = [&](LeaveReason reason) {
    SimTime ran = now - dispatched;
    if (running == 0) {
      out.blocking += ran;
      burst_left -= ran;
    } else {
      out.cpu_bound += ran;
    }
    scheduler.leave_cpu(running, reason, now, ran);
    running = kIdle;
  };
  while (now < horizon) {
    if (running == kIdle) {
      running = scheduler.pick_next(now).value();  // process 1 is always ready
      dispatched = now;
    }
    SimTime slice_end = dispatched + scheduler.time_slice(running, now);
    SimTime burst_end = running == 0 ? dispatched + burst_left : kNever;
    now = std::min({slice_end, burst_end, wakes_at});
    if (now == burst_end) {
      leave(LeaveReason::Blocked);
      burst_left = burst;
      wakes_at = now + sleep;
    } else if (now == wakes_at) {
      scheduler.wake(0, now);
      wakes_at = kNever;
      if (scheduler.should_preempt(running, now, now - dispatched)) leave(LeaveReason::Preempted);
    } else {
      leave(LeaveReason::QuantumExpired);
    }
  }
  return out;
}

TEST(StrideCredit, GivesAProcessThatBlocksOftenMoreCpuThanPlainStride) {
  // Process 0 asks for 2 ms of CPU every 5 ms (40%), below its fair half.
  constexpr SimTime kHorizon = 10'000 * kMs;
  Stride plain(kQuantum);
  StrideCredit credited(kQuantum);
  auto without_credit = run_blocking_against_cpu_bound(plain, 2 * kMs, 3 * kMs, kHorizon);
  auto with_credit = run_blocking_against_cpu_bound(credited, 2 * kMs, 3 * kMs, kHorizon);
  double share_without = static_cast<double>(without_credit.blocking) / kHorizon;
  double share_with = static_cast<double>(with_credit.blocking) / kHorizon;
  // Neither reaches the 40% it asks for: while it runs on credit its own lag holds still, but the
  // cpu-bound process's lag still falls, so some wakeups find it ahead (2/7 = 28.6% without credit,
  // 33.3% with, for these numbers).
  EXPECT_GT(share_with, share_without * 1.1)
      << "credit for the quantum it gave up lets the blocking process take the CPU more often when it wakes: "
      << share_with << " of the CPU with credit against " << share_without << " without";
  EXPECT_NEAR(static_cast<double>(with_credit.blocking + with_credit.cpu_bound) / kHorizon, 1.0, 0.002)
      << "the CPU never idles: process 1 is always ready";
}

}  // namespace
}  // namespace cosched::sched
