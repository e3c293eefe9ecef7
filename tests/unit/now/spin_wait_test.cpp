// SpinWait, the rules of a NOW process's wait (docs/models/now.md section 5), driven by hand as the
// workstation drives them, with pairwise waiting (B&M 3.3, 3.4) and no engine.

#include "now/spin_wait.hpp"

#include <gtest/gtest.h>

#include "wait/now/pairwise.hpp"

namespace cosched::now {
namespace {

using wait::WaitKind;
constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kBarrierSpin = 300 * kUs;  // 3W, W = 100us
constexpr std::int64_t kWindow = 300 * kUs;
constexpr std::int64_t kReadSpin = 128 * kUs;  // 2L + 4o + W

wait::Pairwise pairwise(bool extend,
                        config::NowWaitParams::Resume resume = config::NowWaitParams::Resume::Block) {
  wait::Pairwise algorithm({kReadSpin, kBarrierSpin, kWindow, kWindow, extend, true});
  algorithm.set_resume(resume);
  return algorithm;
}

// A process waiting at a barrier, with what the node would tell its algorithm.
struct Waiter {
  explicit Waiter(const wait::NowWaitAlgorithm& a) : algorithm(a) {
    spin.set_algorithm(algorithm);
    spin.begin();
  }
  SpinWait::Next decide(std::int64_t now) {
    return spin.decide(now, algorithm, false, [&]() -> const wait::Observation& { return observe(now); });
  }
  SpinWait::Cut quantum_cut(std::int64_t now, bool has_work = false) {
    return spin.quantum_cut(
        now, WaitKind::Barrier, algorithm, false, [&] { return has_work; },
        [&]() -> const wait::Observation& { return observe(now); });
  }
  const wait::Observation& observe(std::int64_t now) {
    seen.kind = WaitKind::Barrier;
    seen.phase_length = spin.phase_length();
    seen.messages = spin.messages();
    seen.since_last_message =
        spin.last_message() >= 0 ? std::optional<std::int64_t>(now - spin.last_message()) : std::nullopt;
    return seen;
  }
  const wait::NowWaitAlgorithm& algorithm;
  SpinWait spin;
  wait::Observation seen;
};

TEST(SpinWait, TheFirstDecisionOfAWaitSpinsTheBarrierBaseline) {
  const auto algorithm = pairwise(true);
  Waiter w(algorithm);
  ASSERT_EQ(w.decide(1000), SpinWait::Next::Spin);
  EXPECT_TRUE(w.spin.spinning());
  EXPECT_TRUE(w.spin.spun()) << "the wait entered a spin phase";
  EXPECT_EQ(w.spin.phase_end(), 1000 + kBarrierSpin) << "first phase: the barrier baseline, 3W";
}

TEST(SpinWait, ExtendAMessageDuringASpinMovesThePhaseEndToItsArrivalPlusAWindow) {
  const auto algorithm = pairwise(true);
  Waiter w(algorithm);
  w.decide(0);
  EXPECT_TRUE(w.spin.on_message(250 * kUs, WaitKind::Barrier, Message::Kind::BarrierArrival));
  EXPECT_EQ(w.spin.phase_end(), 250 * kUs + kWindow) << "B&M 3.4: extended by one conditional spin time";
  EXPECT_EQ(w.spin.messages().barrier_arrivals, 1);
  EXPECT_EQ(w.spin.last_message(), 250 * kUs);
  w.spin.on_message(10 * kUs + 250 * kUs, WaitKind::Barrier, Message::Kind::ReadRequest);
  EXPECT_EQ(w.spin.phase_end(), 260 * kUs + kWindow) << "each message extends the end again";
}

TEST(SpinWait, ExtendNeverShortensThePhase) {
  const auto algorithm = pairwise(true);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.on_message(0, WaitKind::Barrier, Message::Kind::BarrierArrival);
  EXPECT_EQ(w.spin.phase_end(), kBarrierSpin) << "a message at the start leaves the baseline's end";
}

TEST(SpinWait, CountAMessageDuringASpinIsCountedButDoesNotMoveTheEnd) {
  const auto algorithm = pairwise(false);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.on_message(100 * kUs, WaitKind::Barrier, Message::Kind::BarrierNotice);
  w.spin.on_message(120 * kUs, WaitKind::Barrier, Message::Kind::KeepAlive);
  EXPECT_EQ(w.spin.phase_end(), kBarrierSpin) << "count: messages are judged at the phase's end";
  EXPECT_EQ(w.spin.messages().barrier_notices, 1);
  EXPECT_EQ(w.spin.messages().keep_alives, 1);
  EXPECT_EQ(w.spin.messages().total(), 2);
}

TEST(SpinWait, AMessageToAProcessNotSpinningIsNotCounted) {
  const auto algorithm = pairwise(true);
  Waiter w(algorithm);
  EXPECT_FALSE(w.spin.on_message(5, WaitKind::Barrier, Message::Kind::BarrierArrival));
  EXPECT_EQ(w.spin.messages().total(), 0);
  EXPECT_EQ(w.spin.last_message(), -1);
}

TEST(SpinWait, CountAPhaseWithEnoughMessagesSpinsAnotherWindowAndOneWithoutBlocks) {
  const auto algorithm = pairwise(false);
  Waiter w(algorithm);
  w.decide(0);
  // threshold(300us) = floor(300 / 128) = 2 messages.
  w.spin.on_message(100 * kUs, WaitKind::Barrier, Message::Kind::ReadRequest);
  w.spin.on_message(200 * kUs, WaitKind::Barrier, Message::Kind::ReadRequest);
  ASSERT_EQ(w.decide(kBarrierSpin), SpinWait::Next::Spin) << "2 messages in 300us: another window";
  EXPECT_EQ(w.spin.phase_end(), kBarrierSpin + kWindow);
  EXPECT_EQ(w.spin.messages().total(), 0) << "a new phase counts afresh";
  w.spin.on_message(400 * kUs, WaitKind::Barrier, Message::Kind::ReadRequest);
  EXPECT_EQ(w.decide(kBarrierSpin + kWindow), SpinWait::Next::Block) << "1 message in 300us: block";
}

TEST(SpinWait, ExtendAPhaseThatRunsOutBlocks) {
  const auto algorithm = pairwise(true);
  Waiter w(algorithm);
  w.decide(0);
  EXPECT_EQ(w.decide(kBarrierSpin), SpinWait::Next::Block) << "extend: a phase that ends is the last";
  w.spin.block();
  EXPECT_FALSE(w.spin.spinning());
  EXPECT_TRUE(w.spin.blocked());
  ASSERT_EQ(w.decide(2 * kBarrierSpin), SpinWait::Next::Spin) << "woken, it runs again";
  EXPECT_EQ(w.spin.phase_end(), 2 * kBarrierSpin + kWindow) << "after a wake-up: one window";
}

TEST(SpinWait, AHandlerThatInterruptsASpinLeavesItsEnd) {
  const auto algorithm = pairwise(false);
  Waiter w(algorithm);
  w.decide(0);
  // A message arrived at 50us, its handler ran 2us: the spin goes on to the same end, unjudged.
  w.spin.on_message(50 * kUs, WaitKind::Barrier, Message::Kind::BarrierArrival);
  ASSERT_EQ(w.decide(52 * kUs), SpinWait::Next::Spin);
  EXPECT_EQ(w.spin.phase_end(), kBarrierSpin) << "section 5: a phase keeps its end while it handles";
  EXPECT_EQ(w.spin.messages().barrier_arrivals, 1) << "and keeps what it counted";
}

TEST(SpinWait, AQuantumCutJudgesThePhaseAtTheCut) {
  const auto algorithm = pairwise(false);
  Waiter w(algorithm);
  w.decide(0);
  EXPECT_EQ(w.quantum_cut(200 * kUs), SpinWait::Cut::Blocks)
      << "no message in 200us: the algorithm says block";
  EXPECT_EQ(w.spin.phase_length(), 200 * kUs) << "the phase ended at the cut";
}

TEST(SpinWait, AQuantumCutWithMessagesEnoughStartsANewPhase) {
  const auto algorithm = pairwise(false);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.on_message(10 * kUs, WaitKind::Barrier, Message::Kind::ReadRequest);
  EXPECT_EQ(w.quantum_cut(100 * kUs), SpinWait::Cut::SpinsAgain)
      << "1 message in 100us meets threshold(100us) = 1";
  EXPECT_EQ(w.spin.phase_end(), 100 * kUs + kWindow);
}

TEST(SpinWait, AQuantumCutDoesNotBlockAProcessWithWorkOrAfterItsPhase) {
  const auto algorithm = pairwise(false);
  Waiter w(algorithm);
  w.decide(0);
  EXPECT_EQ(w.quantum_cut(100 * kUs, true), SpinWait::Cut::None) << "messages to handle or send: no block";
  EXPECT_EQ(w.quantum_cut(kBarrierSpin), SpinWait::Cut::None)
      << "the phase already ran out: decide judges it";
}

TEST(SpinWait, ResumeBlockAnInterruptedSpinBlocksWhenItRunsAgain) {
  const auto algorithm = pairwise(true, config::NowWaitParams::Resume::Block);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.leave_cpu_runnable(WaitKind::Barrier, algorithm, false);
  EXPECT_EQ(w.decide(400 * kUs), SpinWait::Next::Block) << "B&M 3.3: pre-empted and slept";
}

TEST(SpinWait, ResumeKeepAnInterruptedSpinKeepsItsEnd) {
  const auto algorithm = pairwise(true, config::NowWaitParams::Resume::Keep);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.leave_cpu_runnable(WaitKind::Barrier, algorithm, false);
  ASSERT_EQ(w.decide(100 * kUs), SpinWait::Next::Spin);
  EXPECT_EQ(w.spin.phase_end(), kBarrierSpin) << "time off the CPU counts";
}

TEST(SpinWait, ResumeRestartAnInterruptedSpinStartsItsWaitAfresh) {
  const auto algorithm = pairwise(true, config::NowWaitParams::Resume::Restart);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.leave_cpu_runnable(WaitKind::Barrier, algorithm, false);
  ASSERT_EQ(w.decide(100 * kUs), SpinWait::Next::Spin);
  EXPECT_EQ(w.spin.phase_end(), 100 * kUs + kBarrierSpin) << "the first phase again";
}

TEST(SpinWait, KeptTheCpuTheSpinIsNotInterrupted) {
  const auto algorithm = pairwise(true, config::NowWaitParams::Resume::Block);
  Waiter w(algorithm);
  w.decide(0);
  w.spin.leave_cpu_runnable(WaitKind::Barrier, algorithm, false);
  w.spin.kept_cpu();
  ASSERT_EQ(w.decide(100 * kUs), SpinWait::Next::Spin) << "nobody else was ready: it never left";
  EXPECT_EQ(w.spin.phase_end(), kBarrierSpin);
}

TEST(SpinWait, AlwaysSpinNeverBlocks) {
  const auto algorithm = pairwise(true);
  SpinWait spin;
  spin.set_algorithm(algorithm);
  spin.begin();
  wait::Observation seen;
  const auto observe = [&]() -> const wait::Observation& { return seen; };
  ASSERT_EQ(spin.decide(0, algorithm, true, observe), SpinWait::Next::Spin);
  EXPECT_EQ(spin.phase_end(), wait::kSpinForever) << "gang: processes own their slot and spin";
  EXPECT_EQ(spin.quantum_cut(
                10, WaitKind::Barrier, algorithm, true, [] { return false; }, observe),
            SpinWait::Cut::None);
}

}  // namespace
}  // namespace cosched::now
