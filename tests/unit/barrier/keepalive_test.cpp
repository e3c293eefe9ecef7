// Keep-alive messages of a root barrier (Brim & Miller 3.4; docs/models/now.md section 4.6): the root's
// decisions as a pure state machine, then a workstation's node sending, receiving and being woken by
// them. Every expectation is derived by hand from the rules in the comments. Times in nanoseconds;
// o = 2us, context switch W = 100us, stride quantum 10 ms.

#include <gtest/gtest.h>

#include "barrier/keepalive.hpp"
#include "now_test_support.hpp"
#include "wait/now/fixed_wait.hpp"

namespace cosched::now {
namespace {

using barrier::Fraction;
using barrier::KeepAlive;
using barrier::KeepAliveRoot;
using barrier::KeepAliveSpec;

using test_support::kMs;
using test_support::kUs;
const std::vector<int> kNone;

KeepAliveSpec spec_start(std::int64_t num, std::int64_t den) {
  KeepAliveSpec spec;
  spec.start = Fraction{num, den};
  return spec;
}

// ---------------------------------------------------------------------------------------------------
// The root's decisions.

TEST(KeepAliveFraction, IsTheSmallestProcessCountReachingIt) {
  // B&M's levels for their 32-process jobs: 1/4 -> 8, 1/2 -> 16, 3/4 -> 24, 9/10 -> ceil(28.8) = 29.
  EXPECT_EQ((Fraction{1, 4}.of(32)), 8);
  EXPECT_EQ((Fraction{1, 2}.of(32)), 16);
  EXPECT_EQ((Fraction{3, 4}.of(32)), 24);
  EXPECT_EQ((Fraction{9, 10}.of(32)), 29);
  EXPECT_EQ((Fraction{1, 1}.of(32)), 32);
  EXPECT_EQ((Fraction{1, 100}.of(8)), 1) << "at least one process";
}

TEST(KeepAliveRoot, FromTheStartLevelEachRegistrationSendsARoundToEveryOtherProcess) {
  // 8 processes, start 3/4: 6 processes must have arrived. The root computes while ranks 1..5 register
  // (5 arrived: nothing); rank 6's registration makes 6: a round to ranks 1..7, itself included. The
  // root's own arrival makes 7 but is no registration: nothing. Rank 7's registration makes all 8: the
  // barrier is complete, no round (the notices follow).
  KeepAlive keepalive(spec_start(3, 4), 8);
  EXPECT_EQ(keepalive.threshold(), 6);
  KeepAliveRoot s;
  for (int r = 1; r <= 5; ++r) EXPECT_EQ(keepalive.registration(s, 0, r, r * kMs), kNone) << "rank " << r;
  EXPECT_EQ(keepalive.registration(s, 0, 6, 6 * kMs), (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(keepalive.root_arrives(s, 0, 7 * kMs), kNone);
  EXPECT_EQ(keepalive.registration(s, 0, 7, 8 * kMs), kNone);
  EXPECT_EQ(s.due, -1) << "no timer without a period";
}

TEST(KeepAliveRoot, TheRootsOwnArrivalCountsTowardTheLevel) {
  // 8 processes, start 1/2 (4): the root arrives first (1), ranks 1 and 2 register (2, 3: nothing),
  // rank 3 makes 4: a round.
  KeepAlive keepalive(spec_start(1, 2), 8);
  KeepAliveRoot s;
  EXPECT_EQ(keepalive.root_arrives(s, 0, 0), kNone);
  EXPECT_EQ(keepalive.registration(s, 0, 1, 1), kNone);
  EXPECT_EQ(keepalive.registration(s, 0, 2, 2), kNone);
  EXPECT_EQ(keepalive.registration(s, 0, 3, 3).size(), 7u);
}

TEST(KeepAliveRoot, NotArrivedTargetsOnlyTheProcessesWhoseRegistrationIsMissing) {
  // 8 processes, start 1/2, targets not-arrived: at rank 5's registration (ranks 2, 3, 5 and the root
  // arrived: 4), the round goes to 1, 4, 6, 7; at rank 1's, to 4, 6, 7.
  auto spec = spec_start(1, 2);
  spec.targets = KeepAliveSpec::Targets::NotArrived;
  KeepAlive keepalive(spec, 8);
  KeepAliveRoot s;
  keepalive.registration(s, 0, 2, 1);
  keepalive.root_arrives(s, 0, 2);
  keepalive.registration(s, 0, 3, 3);
  EXPECT_EQ(keepalive.registration(s, 0, 5, 4), (std::vector<int>{1, 4, 6, 7}));
  EXPECT_EQ(keepalive.registration(s, 0, 1, 5), (std::vector<int>{4, 6, 7}));
}

TEST(KeepAliveRoot, ArrivedTargetsOnlyTheProcessesWhoseRegistrationWasHandled) {
  // The same events under targets arrived: at rank 5's registration, ranks 2, 3, 5; at rank 1's, 1, 2,
  // 3, 5.
  auto spec = spec_start(1, 2);
  spec.targets = KeepAliveSpec::Targets::Arrived;
  KeepAlive keepalive(spec, 8);
  KeepAliveRoot s;
  keepalive.registration(s, 0, 2, 1);
  keepalive.root_arrives(s, 0, 2);
  keepalive.registration(s, 0, 3, 3);
  EXPECT_EQ(keepalive.registration(s, 0, 5, 4), (std::vector<int>{2, 3, 5}));
  EXPECT_EQ(keepalive.registration(s, 0, 1, 5), (std::vector<int>{1, 2, 3, 5}));
}

TEST(KeepAliveRoot, PeriodicRoundsFollowAFixedGridFromTheGate) {
  // period 1 ms alone: the barrier opens at the root's first news of it (a registration at 10 ms), the
  // gate with it; rounds at 11, 12 ms ...; registrations send nothing. The root passes: no more timer.
  KeepAliveSpec spec;
  spec.period = 1 * kMs;
  KeepAlive keepalive(spec, 4);
  KeepAliveRoot s;
  EXPECT_EQ(keepalive.registration(s, 3, 2, 10 * kMs), kNone);
  EXPECT_EQ(s.due, 11 * kMs);
  EXPECT_EQ(keepalive.timer(s, 11 * kMs), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(s.due, 12 * kMs);
  EXPECT_EQ(keepalive.registration(s, 3, 1, 11'500 * kUs), kNone) << "no arrival rounds under a period";
  s.queued = {0, 1, 0, 1};  // the root has not sent ranks 1 and 3 theirs yet
  EXPECT_EQ(keepalive.timer(s, 12 * kMs), (std::vector<int>{2})) << "no second keep-alive back to back";
  s.queued = {0, 1, 1, 1};
  EXPECT_EQ(keepalive.timer(s, 13 * kMs), kNone) << "all still queued: no round";
  EXPECT_EQ(s.due, 14 * kMs) << "the grid goes on";
  keepalive.root_passes(s);
  EXPECT_EQ(s.due, -1);
}

TEST(KeepAliveRoot, AfterWithAPeriodOpensTheGateByATimer) {
  // period 1 ms, after 5 ms: opened at 10 ms (the root's arrival); a timer at 15 ms opens the gate
  // (no round then); rounds at 16 ms, 17 ms ...
  KeepAliveSpec spec;
  spec.period = 1 * kMs;
  spec.after = 5 * kMs;
  KeepAlive keepalive(spec, 4);
  KeepAliveRoot s;
  keepalive.root_arrives(s, 0, 10 * kMs);
  EXPECT_EQ(s.due, 15 * kMs);
  EXPECT_EQ(keepalive.timer(s, 15 * kMs), kNone);
  EXPECT_TRUE(s.gate_open);
  EXPECT_EQ(s.due, 16 * kMs);
  EXPECT_EQ(keepalive.timer(s, 16 * kMs).size(), 3u);
}

TEST(KeepAliveRoot, AfterAloneGatesArrivalRounds) {
  // after 5 ms, no period: arrival rounds once the barrier has been open 5 ms. 6 processes; opened at
  // 10 ms by rank 1's registration; rank 2's at 14 ms: nothing; rank 3's at 15 ms: a round to 1..5.
  KeepAliveSpec spec;
  spec.after = 5 * kMs;
  KeepAlive keepalive(spec, 6);
  KeepAliveRoot s;
  EXPECT_EQ(keepalive.registration(s, 0, 1, 10 * kMs), kNone);
  EXPECT_EQ(s.due, -1) << "no timer: only registrations send";
  EXPECT_EQ(keepalive.registration(s, 0, 2, 14 * kMs), kNone);
  EXPECT_EQ(keepalive.registration(s, 0, 3, 15 * kMs), (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(KeepAliveRoot, StartAndPeriodCombine) {
  // start 1/2 of 4 (2) and period 1 ms: the gate opens at rank 2's registration (with rank 1: 2
  // arrived) at 20 ms, which sends a round; periodic rounds at 21 ms, 22 ms; rank 3's registration at
  // 21.5 ms sends one too.
  auto spec = spec_start(1, 2);
  spec.period = 1 * kMs;
  KeepAlive keepalive(spec, 4);
  KeepAliveRoot s;
  EXPECT_EQ(keepalive.registration(s, 0, 1, 19 * kMs), kNone);
  EXPECT_EQ(s.due, -1) << "the gate waits for the level";
  EXPECT_EQ(keepalive.registration(s, 0, 2, 20 * kMs).size(), 3u);
  EXPECT_EQ(s.due, 21 * kMs);
  EXPECT_EQ(keepalive.timer(s, 21 * kMs).size(), 3u);
  EXPECT_EQ(keepalive.registration(s, 0, 3, 21'500 * kUs).size(), 3u);
  EXPECT_EQ(keepalive.timer(s, 22 * kMs).size(), 3u);
}

// ---------------------------------------------------------------------------------------------------
// A workstation's node.

JobLayout job_with(int processes, Nanos compute, std::shared_ptr<const wait::NowWaitAlgorithm> wait,
                   const KeepAliveSpec& spec) {
  JobLayout job = test_support::compute_only_job("A", processes, compute, std::move(wait));
  if (spec.enabled()) job.keepalive = std::make_shared<KeepAlive>(spec, processes);
  return job;
}

// One window after a wake-up.
std::shared_ptr<const wait::NowWaitAlgorithm> pairwise_extend() {
  return test_support::pairwise_extend(true);
}

// Stride without preemption on wake (the stride default, docs/models/now.md section 6).
struct Fixture : test_support::NodeFixture {
  explicit Fixture(JobLayout job) : NodeFixture({std::move(job)}, false) {}
};

Message registration(int from) {
  return Message{Message::Kind::BarrierArrival, 0, from, 0, 0};
}

TEST(NowNodeKeepAlive, TheRootSendsARoundWhenAHandledRegistrationReachesTheLevel) {
  // The root of a 4-process job, start 1/2 (2 processes), computes 1 ms from its switch-in (100us).
  // Rank 1's registration at 500us is handled at once (to 502us): 1 arrived, nothing. Rank 2's at 600us
  // (handled to 602us) makes 2: keep-alives to ranks 1, 2, 3 leave at 604, 606 and 608us. The
  // computation, delayed by 5 o = 10us, ends at 1.110 ms, where the root arrives (3 arrived; its own
  // arrival sends nothing) and spins. Rank 3's registration at 1.2 ms makes 4, all: no round; the root
  // passes and its notices leave at 1.204, 1.206, 1.208 ms.
  Fixture f(job_with(4, 1 * kMs, pairwise_extend(), spec_start(1, 2)));
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(500 * kUs);
  f.node->deliver(500 * kUs, registration(1));
  f.node->advance(600 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "one process arrived: below the level";
  f.node->deliver(600 * kUs, registration(2));
  for (const Nanos at : {604 * kUs, 606 * kUs, 608 * kUs}) {
    f.node->advance(at - 1);
    EXPECT_TRUE(f.node->outbox().empty()) << at;
    f.node->advance(at);
    ASSERT_EQ(f.node->outbox().size(), 1u) << "a keep-alive leaves at " << at;
    EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::KeepAlive);
    EXPECT_EQ(f.node->outbox()[0].workstation, static_cast<int>((at - 602 * kUs) / (2 * kUs)));
    f.node->outbox().clear();
  }
  EXPECT_EQ(f.node->next_timer(), 1110 * kUs) << "computation delayed by 5 o";
  f.node->advance(1200 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "the root's own arrival sent nothing";
  f.node->deliver(1200 * kUs, registration(3));
  f.node->advance(1208 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 3u);
  for (const auto& e : f.node->outbox()) EXPECT_EQ(e.message.kind, Message::Kind::BarrierNotice);
  const auto report = f.node->reports().at(0);
  EXPECT_EQ(report.diagnostics.keepalive_rounds, 1);
  EXPECT_EQ(report.diagnostics.keepalives_sent, 3);
}

TEST(NowNodeKeepAlive, AKeepAliveExtendsASpinAndWakesABlockedProcess) {
  // Rank 1 of a 2-process job reaches the barrier at 1.1 ms, sends its registration (to 1.102 ms) and
  // spins the 300us baseline (to 1.402 ms). A keep-alive at 1.3 ms is handled (to 1.302 ms) and extends
  // the spin to 1.6 ms (B&M 3.4: "extend the waiting period ... by at least one conditional spin time").
  // Nothing else comes: it blocks at 1.6 ms. A keep-alive at 2 ms wakes it ("the message will trigger
  // the scheduling of the process"): switch to 2.1 ms, handle to 2.102 ms, one 300us window to 2.402 ms.
  Fixture f(job_with(2, 1 * kMs, pairwise_extend(), spec_start(1, 2)));
  f.node->add_process(0, 1);
  f.node->start();
  f.node->advance(1300 * kUs);
  f.node->outbox().clear();
  EXPECT_EQ(f.node->next_timer(), 1402 * kUs) << "the baseline";
  f.node->deliver(1300 * kUs, Message{Message::Kind::KeepAlive, 0, 0, 1, 0});
  f.node->advance(1302 * kUs);
  EXPECT_EQ(f.node->next_timer(), 1600 * kUs) << "extended by the keep-alive";
  f.node->advance(1600 * kUs);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked";
  f.node->advance(2 * kMs);
  f.node->deliver(2 * kMs, Message{Message::Kind::KeepAlive, 0, 0, 1, 0});
  EXPECT_EQ(f.node->next_timer(), 2100 * kUs) << "woken: switched in";
  f.node->advance(2102 * kUs);
  EXPECT_EQ(f.node->next_timer(), 2402 * kUs) << "one window after the wake-up";
  const auto report = f.node->reports().at(0);
  EXPECT_EQ(report.diagnostics.keepalives_handled, 2);
  EXPECT_EQ(report.diagnostics.wakes, 1);
  EXPECT_EQ(report.waits.blocks, 1);
}

TEST(NowNodeKeepAlive, APeriodicRoundWakesABlockedRootToSendIt) {
  // The root of a 2-process job, period 1 ms, blocks at once at its barrier (WAIT_BLOCK) at 1.1 ms,
  // which opens it at the root and opens the gate (no threshold): rounds at 2.1, 3.1 ms ... At 2.1 ms
  // the timer wakes the root: switch to 2.2 ms, the keep-alive to rank 1 leaves at 2.202 ms, it blocks
  // again. The same at 3.1 ms (leaves 3.202 ms). Rank 1's registration at 3.5 ms wakes it: switch to
  // 3.6 ms, handle to 3.602 ms: all arrived, no round; the notice leaves at 3.604 ms and the root, done,
  // has no timer left.
  KeepAliveSpec spec;
  spec.period = 1 * kMs;
  Fixture f(job_with(2, 1 * kMs, std::make_shared<wait::FixedWait>(wait::FixedWait::block()), spec));
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(1100 * kUs);
  EXPECT_EQ(f.node->next_timer(), 2100 * kUs) << "blocked; the keep-alive timer";
  f.node->advance(2100 * kUs);
  EXPECT_EQ(f.node->next_timer(), 2200 * kUs) << "woken by its timer: switched in";
  f.node->advance(2202 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u);
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::KeepAlive);
  EXPECT_EQ(f.node->outbox()[0].workstation, 1);
  f.node->outbox().clear();
  EXPECT_EQ(f.node->next_timer(), 3100 * kUs) << "blocked again until the next round";
  f.node->advance(3202 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the second round at 3.202 ms";
  f.node->outbox().clear();
  f.node->advance(3500 * kUs);
  f.node->deliver(3500 * kUs, registration(1));
  f.node->advance(3604 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u);
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::BarrierNotice);
  EXPECT_TRUE(f.node->finished());
  const auto report = f.node->reports().at(0);
  EXPECT_EQ(report.diagnostics.keepalive_rounds, 2);
  EXPECT_EQ(report.diagnostics.keepalives_sent, 2);
  EXPECT_EQ(report.diagnostics.wakes, 3) << "two timers and the registration";
}

}  // namespace
}  // namespace cosched::now
