// The NOW waiting algorithms' decisions, and their defaults derived from the platform.

#include "wait/now/now_wait.hpp"

#include <gtest/gtest.h>

#include "wait/now/fixed_wait.hpp"
#include "wait/now/now_wait_registry.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::wait {
namespace {

constexpr Nanos kUs = 1'000;
// Brim & Miller's defaults: L 10us, o 2us, W 100us; V for sync 150 ms and v = 1.5: 0.4 x 150 ms.
const WaitPlatform kPlatform{10 * kUs, 2 * kUs, 100 * kUs, 60'000 * kUs};

// The start of a wait of `kind`.
Observation at(WaitKind kind) {
  Observation seen;
  seen.kind = kind;
  return seen;
}

// The end of a spin phase of `length` during which `messages` read requests arrived.
Observation after(WaitKind kind, Nanos length, int messages) {
  Observation seen = at(kind);
  seen.phase_length = length;
  seen.messages.read_requests = messages;
  return seen;
}

std::unique_ptr<NowWaitAlgorithm> make(const std::string& algorithm) {
  return make_now_wait(now_waits().defaults(algorithm), kPlatform);
}

TEST(NowWait, BlockNeverSpinsAndSpinNeverStops) {
  auto block = make("block");
  EXPECT_EQ(block->first_spin(at(WaitKind::Read)), 0);
  EXPECT_EQ(block->first_spin(at(WaitKind::Barrier)), 0);
  auto spin = make("spin");
  EXPECT_EQ(spin->first_spin(at(WaitKind::Barrier)), kSpinForever);
}

TEST(NowWait, PrefetchLeadIsWPlusLPlus2oUnlessGiven) {
  auto params = std::make_shared<config::NowWaitParams>();
  const config::PolicyChoice wait{"block", params};
  EXPECT_EQ(prefetch_lead(wait, kPlatform), -1) << "off without prefetch";
  params->prefetch = true;
  EXPECT_EQ(prefetch_lead(wait, kPlatform), 114 * kUs) << "W 100us + L 10us + 2 x o 2us";
  params->prefetch_lead = 7 * kUs;
  EXPECT_EQ(prefetch_lead(wait, kPlatform), 7 * kUs) << "the given lead";
}

TEST(NowWait, SpinFixedSpinsOnceThenBlocks) {
  auto params = std::make_shared<SpinFixedParams>();
  params->spin = 300 * kUs;
  auto fixed = make_now_wait({"spin-fixed", params}, kPlatform);
  EXPECT_EQ(fixed->first_spin(at(WaitKind::Read)), 300 * kUs);
  EXPECT_EQ(fixed->next_spin(after(WaitKind::Read, 300 * kUs, 50)), 0)
      << "no conditional phase, however many messages";
}

TEST(NowWait, PairwiseBaselinesAreARoundTripPlusASwitchAndThreeSwitches) {
  auto pairwise = make("pairwise");
  EXPECT_EQ(pairwise->first_spin(at(WaitKind::Read)), 128 * kUs) << "2L + 4o + W";
  EXPECT_EQ(pairwise->first_spin(at(WaitKind::Barrier)), 300 * kUs) << "3W (Brim & Miller 3.3)";
}

TEST(NowWait, PairwiseKeepsSpinningWhileMessagesArriveAtLeastOncePerReadBaseline) {
  Pairwise pairwise({128 * kUs, 300 * kUs, 300 * kUs});
  EXPECT_EQ(pairwise.threshold(300 * kUs), 2) << "a 300us window needs 2 messages: 'one to two'";
  EXPECT_EQ(pairwise.threshold(128 * kUs), 1) << "the read baseline needs 1";
  EXPECT_EQ(pairwise.threshold(50 * kUs), 1) << "never less than one";
  EXPECT_EQ(pairwise.next_spin(after(WaitKind::Barrier, 300 * kUs, 2)), 300 * kUs)
      << "2 messages: another window";
  EXPECT_EQ(pairwise.next_spin(after(WaitKind::Barrier, 300 * kUs, 1)), 0) << "1 message: block";
  EXPECT_EQ(pairwise.next_spin(after(WaitKind::Read, 128 * kUs, 1)), 300 * kUs)
      << "a message during the read spin";
  EXPECT_EQ(pairwise.next_spin(after(WaitKind::Read, 128 * kUs, 0)), 0);
}

TEST(NowWait, BlockImmediatelyIsPairwiseForReadsAndBlocksAtBarriers) {
  auto algorithm = make("block-immediately");
  EXPECT_EQ(algorithm->first_spin(at(WaitKind::Read)), 128 * kUs);
  EXPECT_EQ(algorithm->first_spin(at(WaitKind::Barrier)), 0);
}

TEST(NowWait, LargeInitialSpinReplacesTheBarrierBaseline) {
  auto params = std::make_shared<TwoPhaseParams>();
  const config::PolicyChoice wait{"large-initial-spin", params};
  params->initial_spin = 22'500 * kUs;
  auto large = make_now_wait(wait, kPlatform);
  EXPECT_EQ(large->first_spin(at(WaitKind::Barrier)), 22'500 * kUs);
  EXPECT_EQ(large->first_spin(at(WaitKind::Read)), 128 * kUs) << "reads keep the pairwise baseline";
  params->initial_spin.reset();
  params->initial_spin_v_l_2o = true;
  auto vl2o = make_now_wait(wait, kPlatform);
  EXPECT_EQ(vl2o->first_spin(at(WaitKind::Barrier)), 60'014 * kUs) << "V + L + 2o";
}

}  // namespace
}  // namespace cosched::wait
