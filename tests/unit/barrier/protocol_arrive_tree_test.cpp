// The root barrier's registration trees (barrier.arrive, docs/models/now.md section 4.5) run by real
// workstations: eight single-process workstations joined by an idle LogP network, driven by hand, one
// barrier, flat notification. Every expected time below is derived by hand from the rules, in us.
//
// The timeline (L = 4us, o = 2us, context switch W = 100us, stride, quantum 10 ms, spin-fixed 300us).
// Every workstation switches its process in by 100us; every rank computes 2 ms and arrives at 2100us.
// A rank whose subtree has arrived sends its arrival at once (o): it reaches its parent L later and is
// handled in o by a spinning parent, so a leaf's arrival sent at 2100 is handled at 2106..2108. An
// interior rank that handled its last child's arrival at t sends at t..t+2, delivered at t + 6. A rank
// handles the messages delivered at the same time one after the other (o each), in the order they
// were put on the network. The root passes when it has handled one arrival from each of its children.
//
// The sleeping variant: rank 1 computes 1 ms instead, arrives at 1100us and blocks after its 300us
// spin (1400us). A message to it then costs W to switch it in before the o to handle it: delivered at
// d, handled at d + 102. Under the flat registration tree rank 1 sends its own arrival at 1100; the
// root, computing, handles it at 1106..1108 and arrives 2us later, at 2102.
//
// The trees (the notification trees' shapes, edges reversed: tests/unit/barrier/tree_test.cpp):
// binomial 0: 1 2 4; 1: 3 5; 2: 6; 3: 7. binary 0: 1 2; 1: 3 4; 2: 5 6; 3: 7. skewed (skew_sends(4us,
// 2us) = 4): 0: 1 2 3 4 5; 1: 6; 2: 7.

#include <gtest/gtest.h>

#include <utility>

#include "now_test_support.hpp"
#include "wait/now/fixed_wait.hpp"

namespace cosched::now {
namespace {

using test_support::kUs;
constexpr Nanos kLatency = 4 * kUs;
constexpr Nanos kOverhead = 2 * kUs;
constexpr int kProcesses = 8;

struct RootView {
  std::vector<std::pair<Nanos, int>> arrivals;  // (us delivered at the root, sender), in delivery order
  Nanos passed = -1;                            // us the root passed
  std::vector<Nanos> all_passed;                // us each rank passed
};

RootView run_barrier(barrier::TreeKind arrive, bool rank1_sleeps) {
  const auto protocol =
      barrier::make_protocol(barrier::BarrierKind::Root, kProcesses,
                             barrier::NotifySpec{barrier::TreeKind::Flat, kLatency, kOverhead}, arrive);
  test_support::IdleNetwork network(kProcesses, kLatency, kOverhead, [&](int r) {
    const Nanos compute = (rank1_sleeps && r == 1) ? 1000 * kUs : 2000 * kUs;
    auto job = test_support::compute_only_job("arrive", kProcesses, compute,
                                              std::make_shared<wait::FixedWait>(300 * kUs));
    job.barrier = protocol;
    return job;
  });
  RootView view;
  network.run([&](Nanos t, const Envelope& envelope) {
    if (envelope.workstation == 0 && envelope.message.kind == Message::Kind::BarrierArrival)
      view.arrivals.emplace_back(t / kUs, envelope.message.from);
  });
  view.all_passed = network.pass_times_us();
  view.passed = view.all_passed[0];
  return view;
}

using Arrivals = std::vector<std::pair<Nanos, int>>;

// Every rank sends to the root at 2100: all seven delivered at 2106, handled 2108, ..., 2120. The root
// passes at 2120 and notifies rank j at 2120 + 2j + 6.
TEST(BarrierArriveProtocol, FlatSendsEveryArrivalToTheRoot) {
  const auto idle = run_barrier(barrier::TreeKind::Flat, false);
  EXPECT_EQ(idle.arrivals,
            (Arrivals{{2106, 1}, {2106, 2}, {2106, 3}, {2106, 4}, {2106, 5}, {2106, 6}, {2106, 7}}));
  EXPECT_EQ(idle.passed, 2120);
  EXPECT_EQ(idle.all_passed, (std::vector<Nanos>{2120, 2128, 2130, 2132, 2134, 2136, 2138, 2140}))
      << "the flat notices after the root passes (section 4.3)";
  // Rank 1's early arrival at 1106; the other six at 2106, handled 2108..2118.
  const auto asleep = run_barrier(barrier::TreeKind::Flat, true);
  EXPECT_EQ(asleep.arrivals,
            (Arrivals{{1106, 1}, {2106, 2}, {2106, 3}, {2106, 4}, {2106, 5}, {2106, 6}, {2106, 7}}));
  EXPECT_EQ(asleep.passed, 2118);
}

// Leaves 4, 5, 6, 7 send at 2100. 4 reaches the root at 2106 (handled 2108). 6 reaches 2 at 2106, handled
// 2108, 2 sends: root at 2114 (2116). 7 reaches 3 (2108), 3 sends: 1 at 2114; 5 reached 1 at 2106
// (2108); 1 handles 3's at 2116 and sends: root at 2122, handled 2124: the root passes at 2124.
TEST(BarrierArriveProtocol, BinomialCombinesOnTheWayUp) {
  const auto idle = run_barrier(barrier::TreeKind::Binomial, false);
  EXPECT_EQ(idle.arrivals, (Arrivals{{2106, 4}, {2114, 2}, {2122, 1}}));
  EXPECT_EQ(idle.passed, 2124);
  // Rank 1 asleep: 5's arrival (2106) wakes it, handled at 2208; 3's (2114) after it, at 2210; 1 sends:
  // root at 2216, handled 2218. Its subtree's arrivals wait for its context switch.
  const auto asleep = run_barrier(barrier::TreeKind::Binomial, true);
  EXPECT_EQ(asleep.arrivals, (Arrivals{{2106, 4}, {2114, 2}, {2216, 1}}));
  EXPECT_EQ(asleep.passed, 2218);
}

// 5 and 6 reach 2 at 2106, handled 2108 and 2110; 2 sends: root at 2116 (2118). 4 reaches 1 at 2106
// (2108); 7 reaches 3 (2108), 3 sends: 1 at 2114, handled 2116; 1 sends: root at 2122, handled 2124.
TEST(BarrierArriveProtocol, BinaryCombinesOnTheWayUp) {
  const auto idle = run_barrier(barrier::TreeKind::Binary, false);
  EXPECT_EQ(idle.arrivals, (Arrivals{{2116, 2}, {2122, 1}}));
  EXPECT_EQ(idle.passed, 2124);
  // Rank 1 asleep: 4's (2106) wakes it, handled 2208; 3's (2114) at 2210; root at 2216, handled 2218.
  const auto asleep = run_barrier(barrier::TreeKind::Binary, true);
  EXPECT_EQ(asleep.arrivals, (Arrivals{{2116, 2}, {2216, 1}}));
  EXPECT_EQ(asleep.passed, 2218);
}

// 3, 4, 5 reach the root at 2106 (handled 2108, 2110, 2112); 6 reaches 1 and 7 reaches 2 at 2106, both
// handled 2108 and sent 2108..2110: root at 2114, 1's first (handled 2116), then 2's (2118).
TEST(BarrierArriveProtocol, SkewedCombinesOnTheWayUp) {
  const auto idle = run_barrier(barrier::TreeKind::Skewed, false);
  EXPECT_EQ(idle.arrivals, (Arrivals{{2106, 3}, {2106, 4}, {2106, 5}, {2114, 1}, {2114, 2}}));
  EXPECT_EQ(idle.passed, 2118);
  // Rank 1 asleep: 6's (2106) wakes it, handled 2208, sent 2208..2210: root at 2214, handled 2216.
  const auto asleep = run_barrier(barrier::TreeKind::Skewed, true);
  EXPECT_EQ(asleep.arrivals, (Arrivals{{2106, 3}, {2106, 4}, {2106, 5}, {2114, 2}, {2214, 1}}));
  EXPECT_EQ(asleep.passed, 2216);
}

// peers() names the registration tree's parent, so the simgrid engine opens the mailboxes it needs.
TEST(BarrierArriveProtocol, PeersCoverTheRegistrationTree) {
  const auto binomial = barrier::make_protocol(
      barrier::BarrierKind::Root, kProcesses,
      barrier::NotifySpec{barrier::TreeKind::Flat, kLatency, kOverhead}, barrier::TreeKind::Binomial);
  // Rank 3 sends its arrival to 1 (its parent) and receives 7's; the root notifies everybody (flat).
  EXPECT_EQ(binomial->peers(3), (std::vector<int>{1}));
  EXPECT_EQ(binomial->peers(7), (std::vector<int>{3}));
  EXPECT_EQ(binomial->peers(0), (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
}

// A child's arrival that comes before its parent has arrived is recorded and held: the parent sends one
// combined arrival when it arrives itself.
TEST(BarrierArriveProtocol, HeldUntilTheParentArrives) {
  const auto protocol = barrier::make_protocol(
      barrier::BarrierKind::Root, 4, barrier::NotifySpec{barrier::TreeKind::Flat, kLatency, kOverhead},
      barrier::TreeKind::Binomial);
  // binomial, 4 processes: 0: 1 2; 1: 3.
  barrier::BarrierState one(2);
  std::vector<barrier::Outgoing> out;
  protocol->receive(one, 1, Message{Message::Kind::BarrierArrival, 0, 3, 1, 0}, out);
  EXPECT_TRUE(out.empty()) << "rank 1 has not arrived: it holds 3's arrival";
  protocol->arrive(one, 1, 0, out);
  ASSERT_EQ(out.size(), 1u) << "rank 1 arrives with its subtree complete: one combined arrival";
  EXPECT_EQ(out[0].to, 0);
  EXPECT_EQ(out[0].kind, Message::Kind::BarrierArrival);
  out.clear();
  barrier::BarrierState leaf(2);
  protocol->arrive(leaf, 3, 1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].to, 1) << "a leaf sends to its parent, not the root";
  EXPECT_EQ(out[0].barrier, 1);
  barrier::BarrierState root(2);
  out.clear();
  protocol->arrive(root, 0, 0, out);
  protocol->receive(root, 0, Message{Message::Kind::BarrierArrival, 0, 1, 0, 0}, out);
  EXPECT_FALSE(protocol->passed(root, 0, 0)) << "the root needs one arrival from each of its 2 children";
  protocol->receive(root, 0, Message{Message::Kind::BarrierArrival, 0, 2, 0, 0}, out);
  EXPECT_TRUE(protocol->passed(root, 0, 0));
  EXPECT_TRUE(out.empty()) << "the root forwards no arrival";
}

TEST(BarrierArriveProtocol, RefusesOrderAwareAndAllToAll) {
  const barrier::NotifySpec flat{barrier::TreeKind::Flat, kLatency, kOverhead};
  EXPECT_THROW(
      barrier::make_protocol(barrier::BarrierKind::Root, 8, flat, barrier::TreeKind::OrderAwareSkewed),
      std::invalid_argument);
  EXPECT_THROW(barrier::make_protocol(barrier::BarrierKind::Root, 8,
                                      {barrier::TreeKind::OrderAwareSkewed, kLatency, kOverhead},
                                      barrier::TreeKind::Binary),
               std::invalid_argument);
  EXPECT_THROW(barrier::make_protocol(barrier::BarrierKind::AllToAll, 8, flat, barrier::TreeKind::Binary),
               std::invalid_argument);
  EXPECT_NO_THROW(barrier::make_protocol(barrier::BarrierKind::Root, 1, flat, barrier::TreeKind::Skewed));
}

}  // namespace
}  // namespace cosched::now
