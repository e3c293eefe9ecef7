// A NOW workstation's node without SimGrid: feed it time and messages, check what it sends and when.
// Times in nanoseconds; o = 2us, context switch W = 100us, stride quantum 10 ms.

#include <gtest/gtest.h>

#include <vector>

#include "now_test_support.hpp"
#include "wait/now/fixed_wait.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::now {
namespace {

using test_support::compute_only_job;
using test_support::kMs;
using test_support::kUs;
using Fixture = test_support::NodeFixture;

std::shared_ptr<const wait::NowWaitAlgorithm> pairwise() {
  return std::make_shared<wait::Pairwise>(wait::Pairwise::Timings{128 * kUs, 300 * kUs, 300 * kUs});
}

Message request(int job, int from, int to) {
  return Message{Message::Kind::ReadRequest, job, from, to, 0};
}

TEST(NowNode, AMessageToTheRunningProcessIsHandledAtOnce) {
  // Rank 0 of a 2-process job computes 1 ms from 100us (after its switch-in). A read request arrives at
  // 500us: its handler runs at once (o) and sends the reply (o): the reply leaves at 504us, and the
  // computation, delayed by 2o, ends at 1.104 ms, where the root starts to spin for the 300us baseline.
  Fixture f({compute_only_job("A", 2, 1 * kMs, pairwise())});
  f.node->add_process(0, 0);
  f.node->start();
  EXPECT_EQ(f.node->next_timer(), 100 * kUs) << "the switch-in ends";
  f.node->advance(500 * kUs);
  f.node->deliver(500 * kUs, request(0, 1, 0));
  f.node->advance(503 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "the reply is still being sent at 503us";
  f.node->advance(504 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the reply leaves at 504us";
  EXPECT_EQ(f.node->outbox()[0].message.partner, static_cast<std::uint8_t>(PartnerState::Running))
      << "the reply tells the reader its partner was running";
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::ReadReply);
  EXPECT_EQ(f.node->outbox()[0].workstation, 1) << "to the requester's workstation";
  f.node->outbox().clear();
  f.node->advance(1104 * kUs);
  EXPECT_EQ(f.node->next_timer(), 1404 * kUs)
      << "computation ended at 1.104 ms; the barrier spin lasts 300us";
}

TEST(NowNode, AMessageToAReadyProcessWaitsUntilItIsScheduled) {
  // Two single-process jobs share the CPU: A runs first (switch to 100us, quantum to 10.1 ms). A request
  // for B arrives at 1 ms: B is ready, not running, so nothing happens until B's turn: switch from
  // 10.1 ms to 10.2 ms, handle (o), reply (o) leaving at 10.204 ms.
  Fixture f({compute_only_job("A", 1, 50 * kMs, pairwise()), compute_only_job("B", 2, 50 * kMs, pairwise())});
  f.node->add_process(0, 0);
  f.node->add_process(1, 0);
  f.node->start();
  f.node->advance(1 * kMs);
  f.node->deliver(1 * kMs, request(1, 1, 0));
  f.node->advance(10'203 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "B has not run yet";
  f.node->advance(10'204 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "B's reply leaves at 10.204 ms";
  EXPECT_EQ(f.node->outbox()[0].message.job, 1);
  EXPECT_EQ(f.node->outbox()[0].message.partner, static_cast<std::uint8_t>(PartnerState::Ready));
}

TEST(NowNode, AMessageWakesABlockedProcessWhichThenGoesBackToWaiting) {
  // A 2-process job that always blocks: rank 1 here computes 1 ms (to 1.1 ms), sends its arrival to the
  // root (leaves 1.102 ms) and blocks. A read request from the root arrives at 2 ms: it wakes rank 1,
  // which is switched in (to 2.1 ms), handles it (o) and replies (o, leaves 2.104 ms); the barrier is
  // not complete, so it blocks again and the CPU idles: no timer left.
  auto block = std::make_shared<wait::FixedWait>(wait::FixedWait::block());
  Fixture f({compute_only_job("A", 2, 1 * kMs, block)});
  f.node->add_process(0, 1);
  f.node->start();
  f.node->advance(1102 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the barrier arrival leaves at 1.102 ms";
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::BarrierArrival);
  f.node->outbox().clear();
  EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked: the CPU is idle";
  f.node->advance(2 * kMs);
  f.node->deliver(2 * kMs, request(0, 0, 1));
  f.node->advance(2104 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the reply leaves at 2.104 ms";
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::ReadReply);
  EXPECT_EQ(f.node->outbox()[0].message.partner, static_cast<std::uint8_t>(PartnerState::Blocked));
  EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked again, waiting for the barrier";
  EXPECT_FALSE(f.node->finished());
  const auto report = f.node->reports().at(0);
  EXPECT_EQ(report.diagnostics.wakes, 1) << "woken once, at 2 ms";
  EXPECT_EQ(report.diagnostics.wake_to_dispatch, 0) << "the CPU was idle: dispatched at once";
  EXPECT_EQ(report.barrier.arrived, 1100 * kUs);
  EXPECT_EQ(report.barrier.blocks, 2) << "blocked at 1.102 ms and again at 2.104 ms";
}

TEST(NowNode, ConditionalSpinContinuesWhileMessagesKeepArriving) {
  // The root of a 2-process job reaches the barrier at 1.1 ms and spins for the 300us baseline (to
  // 1.4 ms). Two unrelated requests arrive during it (the threshold for 300us with a 128us read baseline
  // is 2), so it spins another 300us window; none arrive in that one, so it blocks at 1.7 ms. Handling
  // and replying (8us in all) happen inside the windows and do not move their ends.
  Fixture f({compute_only_job("A", 2, 1 * kMs, pairwise())});
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(1150 * kUs);
  f.node->deliver(1150 * kUs, request(0, 1, 0));
  f.node->advance(1200 * kUs);
  f.node->deliver(1200 * kUs, request(0, 1, 0));
  f.node->advance(1400 * kUs);
  EXPECT_EQ(f.node->next_timer(), 1700 * kUs) << "a second window after two messages";
  f.node->advance(1700 * kUs);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "no message in the window: blocked at 1.7 ms";
}

std::shared_ptr<const wait::NowWaitAlgorithm> pairwise_with(Nanos barrier_spin, bool extend,
                                                            wait::Resume resume) {
  auto algorithm = std::make_shared<wait::Pairwise>(
      wait::Pairwise::Timings{128 * kUs, barrier_spin, 300 * kUs, -1, extend});
  algorithm->set_resume(resume);
  return algorithm;
}

TEST(NowNode, UnderTheExtendRuleEachMessageExtendsTheSpinToAtLeastItsArrivalPlusAWindow) {
  // The root reaches the barrier at 1.1 ms and spins for the 300us baseline (to 1.4 ms). A request at
  // 1.15 ms extends the phase to 1.45 ms (B&M 3.4: "by at least one conditional spin time"); a second at
  // 1.2 ms to 1.5 ms. No more arrive: at 1.5 ms the phase ends and the process blocks.
  Fixture f({compute_only_job("A", 2, 1 * kMs, pairwise_with(300 * kUs, true, wait::Resume::Block))});
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(1150 * kUs);
  f.node->deliver(1150 * kUs, request(0, 1, 0));
  f.node->advance(1200 * kUs);
  f.node->deliver(1200 * kUs, request(0, 1, 0));
  f.node->outbox().clear();
  f.node->advance(1400 * kUs);
  EXPECT_EQ(f.node->next_timer(), 1500 * kUs) << "extended to the last arrival + 300us";
  f.node->advance(1500 * kUs);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "no message in the last window: blocked at 1.5 ms";
}

// Job 0 (2 processes, rank 0 here, 200 tickets) computes 0.5 ms and blocks at its barrier; job 1 (2
// processes, rank 0 here) computes 1 ms and spins `spin` at its barrier. Job 0 runs first: switch to 0.1 ms,
// barrier at 0.6 ms, blocked; job 1: switch to 0.7 ms, barrier at 1.7 ms, spinning. At 3 ms the arrival job
// 0's root waits for wakes it.
Fixture interrupted_spin(Nanos spin, wait::Resume resume, bool wake_preempt) {
  auto block = std::make_shared<wait::FixedWait>(wait::FixedWait::block());
  Fixture f({compute_only_job("B", 2, 500 * kUs, block),
             compute_only_job("A", 2, 1 * kMs, pairwise_with(spin, false, resume))},
            wake_preempt);
  f.jobs[0].tickets = 200;  // half job 1's stride: its pass stays below the spinner's when it wakes
  f.node->add_process(0, 0);
  f.node->add_process(1, 0);
  f.node->start();
  f.node->advance(3 * kMs);
  f.node->deliver(3 * kMs, Message{Message::Kind::BarrierArrival, 0, 1, 0, 0});
  return f;
}

// With wake preemption (pass): job 0's root, woken at 3 ms, takes the CPU (switch to 3.1 ms), handles the
// arrival (3.102 ms), sends its notice (3.104 ms) and finishes; job 1's root is switched in again (to
// 3.204 ms) with its 5 ms spin (begun at 1.7 ms, ending at 6.7 ms) interrupted.
TEST(NowNode, AnInterruptedSpinKeepsItsEndTimeUnderResumeKeep) {
  auto f = interrupted_spin(5 * kMs, wait::Resume::Keep, true);
  EXPECT_EQ(f.node->next_timer(), 3100 * kUs) << "the woken process preempts the spinner";
  f.node->advance(3204 * kUs);
  EXPECT_EQ(f.node->next_timer(), 6700 * kUs) << "the spin goes on to its end at 6.7 ms";
}

TEST(NowNode, AnInterruptedSpinStartsAfreshUnderResumeRestart) {
  auto f = interrupted_spin(5 * kMs, wait::Resume::Restart, true);
  f.node->advance(3204 * kUs);
  EXPECT_EQ(f.node->next_timer(), 8204 * kUs) << "a new 5 ms phase from 3.204 ms";
}

TEST(NowNode, AnInterruptedSpinBlocksUnderResumeBlock) {
  auto f = interrupted_spin(5 * kMs, wait::Resume::Block, true);
  f.node->advance(3204 * kUs);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "pre-empted and slept: blocked at 3.204 ms";
  EXPECT_EQ(f.node->reports().at(1).waits.blocks, 1);
}

TEST(NowNode, WithoutWakePreemptionAWokenProcessWaitsForTheRunningOneToLeave) {
  // wake_preempt none: job 0's root, woken at 3 ms, waits. Job 1's root spins to 6.7 ms, receives
  // nothing (a 5 ms phase needs 39 messages) and blocks; job 0's root is switched in (to 6.8 ms).
  auto f = interrupted_spin(5 * kMs, wait::Resume::Keep, false);
  EXPECT_EQ(f.node->next_timer(), 6700 * kUs) << "no preemption: the spinner goes on";
  f.node->advance(6700 * kUs);
  EXPECT_EQ(f.node->next_timer(), 6800 * kUs) << "the woken process runs once the spinner blocks";
  const auto woken = f.node->reports().at(0);
  EXPECT_EQ(woken.diagnostics.wake_to_dispatch, 3700 * kUs) << "woken at 3 ms, dispatched at 6.7 ms";
}

TEST(NowNode, AWokenBarrierWaiterSpinsOneWindowOrItsFirstPhaseAgain) {
  // The root reaches the barrier at 1.1 ms, spins its 5 ms first phase to 6.1 ms, receives nothing (39
  // messages needed under count) and blocks. A request at 7 ms wakes it: switch to 7.1 ms, handle and
  // reply (7.104 ms); then it spins one 300us window (after_wake: window) to 7.404 ms, or its 5 ms first
  // phase again (first-phase) to 12.104 ms.
  for (const bool window : {true, false}) {
    auto algorithm = std::make_shared<wait::Pairwise>(
        wait::Pairwise::Timings{128 * kUs, 5 * kMs, 300 * kUs, -1, false, window});
    algorithm->set_resume(wait::Resume::Block);
    Fixture f({compute_only_job("A", 2, 1 * kMs, algorithm)});
    f.node->add_process(0, 0);
    f.node->start();
    f.node->advance(6100 * kUs);
    EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked at 6.1 ms";
    f.node->advance(7 * kMs);
    f.node->deliver(7 * kMs, request(0, 1, 0));
    f.node->advance(7104 * kUs);
    EXPECT_EQ(f.node->next_timer(), (window ? 7404 : 12'104) * kUs) << (window ? "window" : "first-phase");
  }
}

TEST(NowNode, ASpinLongerThanTheQuantumIsCutAtItsEndAndJudged) {
  // Job 1's root spins 25 ms from 1.7 ms under count; its quantum ends at 10.7 ms (10 ms from its
  // switch-in at 0.7 ms). The phase is cut there and judged: 9 ms with no message (threshold 70): it
  // blocks at 10.7 ms (B&M 3.3: "pre-empted and slept"), where before it restarted its 25 ms spin.
  // No wake preemption here, so job 0's root, woken at 3 ms, runs after it: switch to 10.8 ms.
  auto f = interrupted_spin(25 * kMs, wait::Resume::Restart, false);
  EXPECT_EQ(f.node->next_timer(), 10'700 * kUs) << "the quantum's end";
  f.node->advance(10'700 * kUs);
  EXPECT_EQ(f.node->next_timer(), 10'800 * kUs);
  const auto spinner = f.node->reports().at(1);
  EXPECT_EQ(spinner.waits.blocks, 1) << "blocked at the quantum's end";
  EXPECT_EQ(spinner.barrier.blocks, 1);
}

// A message reaches its job's process here, found by job in a table (a run of up to 256 jobs) or by a
// search (more): job 299's rank 0, which runs first, handles a request at once (its reply leaves at
// 504us, as in the first test); a message for a job with no process here is an error.
TEST(NowNode, AMessageFindsItsJobsProcessAmongFewOrManyJobs) {
  for (const int jobs : {300, 256}) {
    std::vector<JobLayout> layouts;
    for (int j = 0; j < jobs; ++j) layouts.push_back(compute_only_job("J", 2, 1 * kMs, pairwise()));
    Fixture f(layouts);
    const int last = jobs - 1;
    f.node->add_process(last, 0);
    f.node->add_process(7, 1);
    f.node->start();
    f.node->advance(500 * kUs);
    f.node->deliver(500 * kUs, request(last, 1, 0));
    f.node->advance(504 * kUs);
    ASSERT_EQ(f.node->outbox().size(), 1u) << jobs << " jobs";
    EXPECT_EQ(f.node->outbox()[0].message.job, last);
    EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::ReadReply);
    EXPECT_THROW(f.node->deliver(600 * kUs, request(8, 0, 1)), std::logic_error) << "no process of job 8";
    EXPECT_THROW(f.node->deliver(600 * kUs, request(7, 1, 0)), std::logic_error) << "job 7's rank 1 only";
  }
}

// Buffered coscheduling (docs/models/now-streams.md section 3.7): strobes every 1 ms, a 50us exchange.
std::unique_ptr<Node> buffered_node(Fixture& f) {
  NodeParams params{0, 2 * kUs, 100 * kUs, 1};
  params.strobe = 1 * kMs;
  params.exchange = 50 * kUs;
  return std::make_unique<Node>(params, std::make_unique<sched::Stride>(10 * kMs, true), &f.jobs, &f.tracker);
}

TEST(NowNode, BufferedMessagesLeaveAtTheExchangeAfterTheNextStrobe) {
  // Rank 0 computes 5 ms from 100us. The reply to a request arriving at 500us ends its send at 504us, as
  // without strobes, but is held until the 1 ms strobe's exchange ends: it leaves at 1.05 ms. A reply whose
  // send ends on the 2 ms strobe was sent in the interval it opens: it leaves at 3.05 ms.
  Fixture f({compute_only_job("A", 2, 5 * kMs, pairwise())});
  f.node = buffered_node(f);
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(500 * kUs);
  f.node->deliver(500 * kUs, request(0, 1, 0));
  f.node->advance(504 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "the reply is held";
  EXPECT_EQ(f.node->next_send_bound(), 1050 * kUs) << "it leaves before the computation's next event";
  f.node->advance_quietly(2 * kMs);
  EXPECT_TRUE(f.node->outbox().empty()) << "running ahead quietly stops before a held message leaves";
  f.node->advance(1049 * kUs);
  EXPECT_TRUE(f.node->outbox().empty());
  f.node->advance(1050 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the reply leaves at 1.05 ms";
  EXPECT_EQ(f.node->outbox()[0].leaves, 1050 * kUs);
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::ReadReply);
  f.node->outbox().clear();
  f.node->advance(1996 * kUs);
  f.node->deliver(1996 * kUs, request(0, 1, 0));
  f.node->advance(3049 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "sent at 2 ms, on the strobe: held to the next one";
  f.node->advance(3050 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u);
  EXPECT_EQ(f.node->outbox()[0].leaves, 3050 * kUs);
}

TEST(NowNode, BufferedWorkstationStaysUntilItsLastMessagesLeave) {
  // The root of a 2-process job computes 1 ms (to 1.1 ms) and blocks at the barrier. Rank 1's arrival
  // comes at 2 ms: the root is switched in (to 2.1 ms), handles it (o), sends the notice (o, to 2.104 ms)
  // and passes the last barrier. Its process is done, but the workstation is not: the notice leaves at
  // 3.05 ms.
  Fixture f({compute_only_job("A", 2, 1 * kMs, std::make_shared<wait::FixedWait>(wait::FixedWait::block()))});
  f.node = buffered_node(f);
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(2 * kMs);
  f.node->deliver(2 * kMs, Message{Message::Kind::BarrierArrival, 0, 1, 0, 0});
  f.node->advance(2104 * kUs);
  EXPECT_TRUE(f.node->outbox().empty());
  EXPECT_FALSE(f.node->finished()) << "its notice is still held";
  EXPECT_EQ(f.node->next_timer(), 3050 * kUs) << "its scheduler's later ticks are no events now";
  EXPECT_EQ(f.node->next_send_bound(), 3050 * kUs);
  f.node->advance_quietly(4 * kMs);
  EXPECT_TRUE(f.node->outbox().empty()) << "running ahead quietly stops before the notice leaves";
  f.node->advance(3050 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u);
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::BarrierNotice);
  EXPECT_TRUE(f.node->finished());
}

// A process's message queue: first in, first out, a reply pushed at the front goes first, and it keeps
// its order when it outgrows its inline slots and when it is moved (as a Process is, into its node).
TEST(MessageRing, KeepsItsOrderAcrossGrowingAndMoving) {
  MessageRing<int, 4> ring;
  for (int i = 1; i <= 3; ++i) ring.push_back(i);
  ring.pop_front();     // 2 3
  ring.push_front(10);  // 10 2 3
  MessageRing<int, 4> moved_inline(std::move(ring));
  ring.front() = -1;  // the moved-from ring's slots are not the new one's
  for (int i = 4; i <= 9; ++i) moved_inline.push_back(i);  // 10 2 3 4 .. 9: past the 4 inline slots
  moved_inline.push_front(20);
  MessageRing<int, 4> moved_spilled(std::move(moved_inline));
  std::vector<int> order;
  while (!moved_spilled.empty()) {
    order.push_back(moved_spilled.front());
    moved_spilled.pop_front();
  }
  EXPECT_EQ(order, (std::vector<int>{20, 10, 2, 3, 4, 5, 6, 7, 8, 9}));
}

}  // namespace
}  // namespace cosched::now
