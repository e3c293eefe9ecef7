// The informed waiting algorithms of Brim & Miller 3.3 (wait/now/informed.hpp, docs/models/now.md section
// 5.2): each prediction from an Observation, with expectations derived by hand.
//
// Platform: L 10us, o 2us, W 100us; a job of P = 4 processes, sync_interval 150 ms, v = 1.5. Phase
// factors are uniform on [lo, hi] = [2/2.5, 3/2.5] = [0.8, 1.2]; the latest of 4 is expected at
// lo + (hi - lo) 4/5 = 1.12, the k-th arrival at 0.8 + 0.4 k/5. Threshold 2W = 200us, margin (the
// window) 3W = 300us, reply spin (the read baseline) 2L + 4o + W = 128us.

#include "wait/now/informed.hpp"

#include <gtest/gtest.h>

#include "wait/now/now_wait.hpp"

namespace cosched::wait {
namespace {

constexpr Nanos kUs = 1'000;
constexpr Nanos kMs = 1'000'000;

WaitPlatform platform() {
  WaitPlatform p{10 * kUs, 2 * kUs, 100 * kUs, 60 * kMs};
  p.sync_interval = 150 * kMs;
  p.imbalance = 1.5;
  p.processes = 4;
  return p;
}

std::unique_ptr<NowWaitAlgorithm> make(const std::string& algorithm, std::optional<Nanos> threshold = {}) {
  auto params = std::make_unique<TwoPhaseParams>();
  params->threshold = threshold;
  return make_now_wait({algorithm, std::move(params)}, platform());
}

// At a barrier: its phase lasted `dedicated` on a dedicated machine and `elapsed` here (pace 2 below).
Observation barrier(Nanos dedicated, Nanos elapsed, Nanos in_barrier) {
  Observation seen;
  seen.kind = WaitKind::Barrier;
  seen.phase_dedicated = dedicated;
  seen.phase_elapsed = elapsed;
  seen.barrier_elapsed = in_barrier;
  return seen;
}

Observation told(int arrived, Nanos open_for, Nanos since) {
  Observation seen = barrier(150 * kMs, 300 * kMs, since);
  seen.arrived = arrived;
  seen.told_elapsed = open_for;
  seen.since_told = since;
  return seen;
}

TEST(InformedWait, VarianceGuessPredictsFromItsOwnFactorAndPace) {
  auto guess = make("variance-guess");
  // Own factor 150/150 = 1.0, pace 300/150 = 2: the latest is (1.12 - 1.0) x 150 ms x 2 = 36 ms away.
  EXPECT_EQ(static_cast<Informed&>(*guess).remaining(barrier(150 * kMs, 300 * kMs, 0)), 36 * kMs);
  EXPECT_EQ(guess->first_spin(barrier(150 * kMs, 300 * kMs, 0)), 0) << "36 ms > 2W: block";
  // 35.9 ms later it is 100us away: spin to the prediction plus the 300us margin.
  EXPECT_EQ(guess->after_wake(barrier(150 * kMs, 300 * kMs, 35'900 * kUs)), 400 * kUs);
  EXPECT_EQ(guess->after_wake(barrier(150 * kMs, 300 * kMs, 35'800 * kUs)), 500 * kUs)
      << "200us away is not more than two switches: spin";
  EXPECT_EQ(guess->after_wake(barrier(150 * kMs, 300 * kMs, 35'799 * kUs)), 0) << "201us away: block";
  // Overdue (200us past the prediction): one margin.
  EXPECT_EQ(guess->after_wake(barrier(150 * kMs, 300 * kMs, 36'200 * kUs)), 300 * kUs);
  // A phase that ran out at a barrier: the prediction failed, block.
  EXPECT_EQ(guess->next_spin(barrier(150 * kMs, 300 * kMs, 36'500 * kUs)), 0);
  // A process slower than the expected latest (factor 1.15 = 172.5/150) predicts no wait.
  EXPECT_EQ(guess->first_spin(barrier(172'500 * kUs, 345 * kMs, 0)), 300 * kUs);
  // Pace 1 (no elapsed phase known): (1.12 - 1.0) x 150 ms = 18 ms.
  EXPECT_EQ(static_cast<Informed&>(*guess).remaining(barrier(150 * kMs, 0, 0)), 18 * kMs);
  EXPECT_FALSE(guess->needs_arrival_replies()) << "variance-guess knows the imbalance, nothing from the root";
}

TEST(InformedWait, ThresholdKeyMovesTheBlockingDecision) {
  auto guess = make("variance-guess", 40 * kMs);
  EXPECT_EQ(guess->first_spin(barrier(150 * kMs, 300 * kMs, 0)), 36'300 * kUs)
      << "36 ms is within a 40 ms threshold: spin 36 ms + 300us";
}

TEST(InformedWait, ReadsWaitAsUnderPairwise) {
  for (const char* name : {"variance-guess", "variance-with-proc-count", "avg-proc-delay"}) {
    auto w = make(name);
    Observation read;
    read.kind = WaitKind::Read;
    EXPECT_EQ(w->first_spin(read), 128 * kUs) << name << ": 2L + 4o + W";
    EXPECT_EQ(w->extension(WaitKind::Read), 300 * kUs) << name << ": the extend rule, one window";
    EXPECT_EQ(w->extension(WaitKind::Barrier), 0) << name << ": at barriers the prediction decides";
  }
}

TEST(InformedWait, VarianceWithProcCountPredictsFromTheCountTheRootReturned) {
  auto count = make("variance-with-proc-count");
  EXPECT_TRUE(count->needs_arrival_replies());
  Observation none = barrier(150 * kMs, 300 * kMs, 0);
  EXPECT_EQ(count->first_spin(none), 128 * kUs) << "no reply yet: spin the read baseline for it";
  // 2 of 4 arrived: the 2nd arrival's factor 0.8 + 0.4 x 2/5 = 0.96; (1.12 - 0.96) x 150 ms x 2 = 48 ms.
  EXPECT_EQ(static_cast<Informed&>(*count).remaining(told(2, 0, 0)), 48 * kMs);
  EXPECT_EQ(count->first_spin(told(2, 0, 0)), 0) << "48 ms away: block";
  // 3 of 4: (1.12 - 1.04) x 300 ms = 24 ms; told 23.95 ms ago: 50us away, spin 350us.
  EXPECT_EQ(count->after_wake(told(3, 0, 23'950 * kUs)), 350 * kUs);
  // All 4 arrived: the notice is due: one margin.
  EXPECT_EQ(count->first_spin(told(4, 0, 0)), 300 * kUs);
}

TEST(InformedWait, AvgProcDelayPredictsFromElapsedTimeOverArrivals) {
  auto avg = make("avg-proc-delay");
  EXPECT_TRUE(avg->needs_arrival_replies());
  EXPECT_EQ(avg->first_spin(barrier(150 * kMs, 300 * kMs, 0)), 128 * kUs) << "no reply yet";
  // Open 10 ms with 2 of 4 arrived: 5 ms per process, 2 to come: 10 ms.
  EXPECT_EQ(static_cast<Informed&>(*avg).remaining(told(2, 10 * kMs, 0)), 10 * kMs);
  EXPECT_EQ(avg->first_spin(told(2, 10 * kMs, 0)), 0);
  EXPECT_EQ(avg->after_wake(told(2, 10 * kMs, 9'900 * kUs)), 400 * kUs) << "100us left";
  // The first arrival: the barrier has been open 0 s, so it predicts completion now (one margin).
  EXPECT_EQ(avg->first_spin(told(1, 0, 0)), 300 * kUs);
  // It does not use the imbalance: the same prediction with another pace.
  Observation other = told(2, 10 * kMs, 0);
  other.phase_elapsed = 450 * kMs;
  EXPECT_EQ(static_cast<Informed&>(*avg).remaining(other), 10 * kMs);
}

}  // namespace
}  // namespace cosched::wait
