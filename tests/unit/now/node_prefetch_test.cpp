// Prefetching wake-ups (wait.prefetch, B&M 4) and the root's replies to arrivals (informed waiting,
// B&M 3.3) on a NOW workstation's node without SimGrid: who is sent what, who is woken when. Times in
// nanoseconds; L = 10us, o = 2us, W = 100us, stride quantum 10 ms (docs/models/now.md sections 5.2, 5.3).

#include <gtest/gtest.h>

#include "now_test_support.hpp"
#include "wait/now/fixed_wait.hpp"
#include "wait/now/informed.hpp"

namespace cosched::now {
namespace {

using test_support::kMs;
using test_support::kUs;
using Kind = Message::Kind;
using Fixture = test_support::NodeFixture;

std::shared_ptr<wait::Pairwise> pairwise_extend() {
  return test_support::pairwise_extend(false);
}

JobLayout job(int processes, std::shared_ptr<const wait::NowWaitAlgorithm> wait, bool replies = false) {
  JobLayout j = test_support::compute_only_job("J", processes, 1 * kMs, std::move(wait));
  j.barrier =
      barrier::make_protocol(config::BarrierKind::Root, processes,
                             barrier::NotifySpec{barrier::TreeKind::Flat, 10 * kUs, 2 * kUs, replies});
  return j;
}

// A 4-process NEWS job (a 2 x 2 torus: rank 0 reads from 2, 1, 1, 2, 2, ...), phases of 190us of
// dedicated time with 10us between reads and a 28us round trip (2L + 4o): 190 / 38 = 5 reads, no rest.
JobLayout news_job(Nanos lead) {
  JobLayout j = job(4, pairwise_extend());
  j.program.sync_interval = 190 * kUs;
  j.program.comm_interval = 10 * kUs;
  j.program.pattern = config::Pattern::News;
  j.program.basis = config::IntervalBasis::Dedicated;
  j.program.read_round_trip = 28 * kUs;
  j.prefetch_lead = lead;
  return j;
}

void expect_envelope(const Envelope& e, Kind kind, int workstation, const std::string& what) {
  EXPECT_EQ(e.message.kind, kind) << what;
  EXPECT_EQ(e.workstation, workstation) << what;
}

// The root's reply to rank `to`: `arrived` processes at the barrier, open for `elapsed`.
void expect_reply(const Envelope& e, int to, int arrived, Nanos elapsed) {
  const std::string what = "the reply to rank " + std::to_string(to);
  expect_envelope(e, Kind::BarrierReply, to, what);
  EXPECT_EQ(e.message.arrived, arrived) << what;
  EXPECT_EQ(e.message.elapsed, elapsed) << what;
}

TEST(NowPrefetch, AReaderWakesEachReadsPartnerALeadAhead) {
  // Lead W + L + 2o = 114us; a read every 10 + 28 = 38us of dedicated time, so A = ceil((114 - 10) / 38)
  // = 3: at the start of the computation before read i, the partner of read i + 3 is woken. At the phase
  // start: reads 0..3 (partners 2, 1, 1, 2), sent after the switch-in at 102, 104, 106, 108us; then 10us of
  // computation and read 0's request to 2 at 118-120us. Its reply, handled at 150-152us, ends the read;
  // the computation before read 1 starts with read 4's wake-up (partner 2, 152-154us), then read 1's
  // request to 1 at 164-166us.
  Fixture f({news_job(114 * kUs)});
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(108 * kUs);
  auto& out = f.node->outbox();
  ASSERT_EQ(out.size(), 4u) << "four wake-ups by 108us";
  const int partners[] = {2, 1, 1, 2};
  for (int i = 0; i < 4; ++i)
    expect_envelope(out[i], Kind::Wakeup, partners[i], "wake-up " + std::to_string(i));
  out.clear();
  f.node->advance(119 * kUs);
  EXPECT_TRUE(out.empty()) << "read 0's request is still being sent";
  f.node->advance(120 * kUs);
  ASSERT_EQ(out.size(), 1u);
  expect_envelope(out[0], Kind::ReadRequest, 2, "read 0");
  out.clear();
  f.node->advance(150 * kUs);
  f.node->deliver(150 * kUs, Message{Kind::ReadReply, 0, 2, 0, 0});
  f.node->advance(154 * kUs);
  ASSERT_EQ(out.size(), 1u) << "read 4's wake-up leaves at 154us";
  expect_envelope(out[0], Kind::Wakeup, 2, "read 4's partner");
  out.clear();
  f.node->advance(166 * kUs);
  ASSERT_EQ(out.size(), 1u);
  expect_envelope(out[0], Kind::ReadRequest, 1, "read 1");
  EXPECT_EQ(f.node->reports().at(0).diagnostics.wakeups_sent, 5);
}

TEST(NowPrefetch, ALeadNoLongerThanAChunkWakesOnlyTheNextRead) {
  // Lead 10us <= the 10us chunk: A = 0, each read's partner is woken as its chunk starts: read 0's (2) at
  // 100-102us, its request at 112-114us.
  Fixture f({news_job(10 * kUs)});
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(114 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 2u);
  expect_envelope(f.node->outbox()[0], Kind::Wakeup, 2, "read 0's partner");
  expect_envelope(f.node->outbox()[1], Kind::ReadRequest, 2, "read 0");
}

TEST(NowPrefetch, AWakeUpWakesABlockedPartnerAndExtendsASpinningOne) {
  // Rank 1 of a 2-process job that always blocks computes 1 ms (to 1.1 ms), sends its arrival (1.102 ms)
  // and blocks. A wake-up from rank 0 at 2 ms wakes it: switched in to 2.1 ms, it handles it (2.102 ms),
  // sends nothing, and blocks again.
  Fixture f({job(2, std::make_shared<wait::FixedWait>(wait::FixedWait::block()))});
  f.node->add_process(0, 1);
  f.node->start();
  f.node->advance(2 * kMs);
  f.node->outbox().clear();
  f.node->deliver(2 * kMs, Message{Kind::Wakeup, 0, 0, 1, 0});
  EXPECT_EQ(f.node->next_timer(), 2100 * kUs) << "woken: switched in";
  f.node->advance(2102 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "a wake-up asks for no answer";
  EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked again at 2.102 ms";
  const auto d = f.node->reports().at(0).diagnostics;
  EXPECT_EQ(d.wakeups_received[static_cast<int>(PartnerState::Blocked)], 1);
  EXPECT_EQ(d.wakes, 1);

  // The root of a pairwise (extend) job spins at its barrier from 1.1 ms to 1.4 ms; a wake-up at 1.35 ms
  // extends the spin to 1.65 ms (B&M 3.3: "keep a scheduled process spin waiting").
  Fixture g({job(2, pairwise_extend())});
  g.node->add_process(0, 0);
  g.node->start();
  g.node->advance(1350 * kUs);
  g.node->deliver(1350 * kUs, Message{Kind::Wakeup, 0, 1, 0, 0});
  g.node->advance(1400 * kUs);
  EXPECT_EQ(g.node->next_timer(), 1650 * kUs);
  EXPECT_EQ(g.node->reports().at(0).diagnostics.wakeups_received[static_cast<int>(PartnerState::Running)], 1);
}

TEST(NowPrefetch, AWakeUpForAFinishedProcessIsDroppedOtherMessagesAreAnError) {
  // A 1-process job computes 1 ms from 100us and passes its only barrier at once (no one to wait for):
  // finished at 1.1 ms. A wake-up at 2 ms (overtaken on a shared network) is dropped; a read request
  // for it would be a model error.
  Fixture f({job(1, pairwise_extend())});
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(2 * kMs);
  ASSERT_TRUE(f.node->finished());
  EXPECT_NO_THROW(f.node->deliver(2 * kMs, Message{Kind::Wakeup, 0, 0, 0, 0}));
  EXPECT_NO_THROW(f.node->deliver(2 * kMs, Message{Kind::BarrierReply, 0, 0, 0, 0}));
  EXPECT_THROW(f.node->deliver(2 * kMs, Message{Kind::ReadRequest, 0, 0, 0, 0}), std::logic_error);
}

std::shared_ptr<wait::Informed> avg_proc_delay() {
  wait::Informed::Settings s;
  s.predictor = wait::Informed::Predictor::AvgProcDelay;
  s.reads = {128 * kUs, 300 * kUs, 300 * kUs, -1, true};
  s.threshold = 200 * kUs;
  s.margin = 300 * kUs;
  s.reply_spin = 128 * kUs;
  s.sync_interval = 1 * kMs;
  s.processes = 4;
  auto w = std::make_shared<wait::Informed>(s);
  w->set_resume(wait::Resume::Block);
  return w;
}

TEST(NowArrivalReplies, TheRootRepliesWithTheCountAndTheTimeTheBarrierHasBeenOpen) {
  // The root of a 4-process job computes 1 ms from 100us. Rank 1's arrival at 300us is handled at once
  // (302us): the barrier opens; the reply (1 arrived, open 0s) leaves at 304us. Rank 2's at 500us: the
  // reply (2 arrived, open 200us) leaves at 504us. The root's computation, delayed by 8us, ends at
  // 1.108 ms: it knows 3 have arrived in 806us, so the last is 806/3 = 268.667us away, more than 2W:
  // it blocks. Rank 3's arrival at 2 ms wakes it (switched in to 2.1 ms, handled at 2.102 ms): the reply
  // (4, open 1.8 ms) leaves at 2.104 ms, before the notices to 1, 2, 3 (2.106, 2.108, 2.110 ms).
  Fixture f({job(4, avg_proc_delay(), true)});
  f.node->add_process(0, 0);
  f.node->start();
  auto& out = f.node->outbox();
  f.node->advance(300 * kUs);
  f.node->deliver(300 * kUs, Message{Kind::BarrierArrival, 0, 1, 0, 0});
  f.node->advance(500 * kUs);
  f.node->deliver(500 * kUs, Message{Kind::BarrierArrival, 0, 2, 0, 0});
  f.node->advance(504 * kUs);
  ASSERT_EQ(out.size(), 2u);
  expect_reply(out[0], 1, 1, 0);
  expect_reply(out[1], 2, 2, 200 * kUs);
  out.clear();
  f.node->advance(1108 * kUs);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "the root blocked at 1.108 ms";
  f.node->advance(2 * kMs);
  f.node->deliver(2 * kMs, Message{Kind::BarrierArrival, 0, 3, 0, 0});
  f.node->advance(2110 * kUs);
  ASSERT_EQ(out.size(), 4u);
  expect_reply(out[0], 3, 4, 1800 * kUs);
  for (int r = 1; r <= 3; ++r) expect_envelope(out[r], Kind::BarrierNotice, r, "notice " + std::to_string(r));
}

TEST(NowArrivalReplies, AnArriverDecidesWhenItHasItsReply) {
  // Rank 1 arrives at 1.1 ms, sends its arrival (1.102 ms) and spins the read baseline for its reply (to
  // 1.230 ms). (a) A reply at 1.15 ms, handled at 1.152 ms, says 2 of 4 arrived in 10 ms: 10 ms to go,
  // block. (b) 4 of 4: spin one margin from 1.152 ms, to 1.452 ms. (c) No reply by 1.230 ms: block;
  // the reply (4 of 4) at 2 ms wakes it (switched in to 2.1 ms, handled at 2.102 ms): spin to 2.402 ms.
  {
    Fixture f({job(4, avg_proc_delay(), true)});
    f.node->add_process(0, 1);
    f.node->start();
    f.node->advance(1150 * kUs);
    EXPECT_EQ(f.node->next_timer(), 1230 * kUs) << "spinning for the reply";
    f.node->deliver(1150 * kUs, Message{Kind::BarrierReply, 0, 0, 1, 0, 0, 2, 10 * kMs});
    f.node->advance(1152 * kUs);
    EXPECT_FALSE(f.node->next_timer().has_value()) << "(a) blocked at 1.152 ms";
    EXPECT_EQ(f.node->reports().at(0).diagnostics.arrival_replies, 1);
  }
  {
    Fixture f({job(4, avg_proc_delay(), true)});
    f.node->add_process(0, 1);
    f.node->start();
    f.node->advance(1150 * kUs);
    f.node->deliver(1150 * kUs, Message{Kind::BarrierReply, 0, 0, 1, 0, 0, 4, 3 * kMs});
    f.node->advance(1152 * kUs);
    EXPECT_EQ(f.node->next_timer(), 1452 * kUs) << "(b) spin one margin";
  }
  {
    Fixture f({job(4, avg_proc_delay(), true)});
    f.node->add_process(0, 1);
    f.node->start();
    f.node->advance(1230 * kUs);
    EXPECT_FALSE(f.node->next_timer().has_value()) << "(c) no reply: blocked at 1.230 ms";
    f.node->advance(2 * kMs);
    f.node->deliver(2 * kMs, Message{Kind::BarrierReply, 0, 0, 1, 0, 0, 4, 3 * kMs});
    f.node->advance(2102 * kUs);
    EXPECT_EQ(f.node->next_timer(), 2402 * kUs) << "(c) woken by the reply: spin one margin";
  }
}

TEST(NowArrivalReplies, TheRootProtocolRepliesToEachArrivalAndReachesEveryProcess) {
  // With replies, the root answers each arrival before the notices the last one makes it send, and its
  // peers are all processes even under a binomial tree (whose root has children 1, 2, 4 of 8).
  auto with =
      barrier::make_protocol(config::BarrierKind::Root, 8,
                             barrier::NotifySpec{barrier::TreeKind::Binomial, 10 * kUs, 2 * kUs, true});
  auto without = barrier::make_protocol(config::BarrierKind::Root, 8,
                                        barrier::NotifySpec{barrier::TreeKind::Binomial, 10 * kUs, 2 * kUs});
  EXPECT_EQ(with->peers(0), (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(without->peers(0), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(with->peers(5), without->peers(5)) << "a non-root process talks to whom it did";
  barrier::BarrierState root(1);
  std::vector<barrier::Outgoing> out;
  with->receive(root, 0, Message{Kind::BarrierArrival, 0, 5, 0, 0}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].to, 5);
  EXPECT_EQ(out[0].kind, Kind::BarrierReply);
  out.clear();
  without->receive(root, 0, Message{Kind::BarrierArrival, 0, 6, 0, 0}, out);
  EXPECT_TRUE(out.empty()) << "no replies unless asked for";
  barrier::BarrierState leaf(1);
  with->receive(leaf, 5, Message{Kind::BarrierReply, 0, 0, 5, 0}, out);
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(with->passed(leaf, 5, 0)) << "a reply is not the notice";
}

}  // namespace
}  // namespace cosched::now
