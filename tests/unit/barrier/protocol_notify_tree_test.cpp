// The root barrier's notification trees run by real workstations (docs/models/now.md sections 4.3, 4.4):
// eight single-process workstations joined by an idle LogP network, driven by hand, one barrier. Every
// expected time below is derived by hand from the rules, in microseconds.
//
// The timeline (L = 4us, o = 2us, context switch W = 100us, stride, quantum 10 ms). Every workstation
// switches its process in by 100us. Ranks 1..7 compute 1.9 ms + (r-1)*10us, arrive at 2.0 ms + (r-1)*10us
// and send their arrival (o), which reaches the root L later, at 2.006 + (r-1)*0.010 ms: the root handles
// them in rank order, each at once (o) while it computes. The root computes 2 ms, stretched by the 7
// arrivals it handled (7o): it arrives, last, at T0 = 2114us, has all arrivals and passes. The others
// spin-fix 300us after arriving, so all are still spinning when their notice comes (by 2.14 ms).
// A notice sent by a process notified at t as its j-th send is handled at t + j*o + L + o = t + 2j + 6 by
// a spinning process; a process passes after forwarding to its k children, k*o after it was notified.
// With skew_sends(4us, 2us) = (4 + 4)/2 = 4 the skewed trees have a broadcast part for 8 processes.
//
// The sleeping variant: rank 1 computes 1 ms instead, arrives at 1.1 ms and blocks after its 300us spin
// (1.402 ms). Its notice wakes it: W to switch it in, then o to handle: t + 2j + L + W + o = t + 2j + 106.
// The root still handles 7 arrivals while computing, so T0 stays 2114us.

#include <gtest/gtest.h>

#include "now_test_support.hpp"
#include "wait/now/fixed_wait.hpp"

namespace cosched::now {
namespace {

using test_support::kUs;
constexpr Nanos kLatency = 4 * kUs;
constexpr Nanos kOverhead = 2 * kUs;
constexpr int kProcesses = 8;

// The time each rank passed its barrier, in us, after running the job to its end.
std::vector<Nanos> pass_times(barrier::TreeKind tree, bool rank1_sleeps) {
  const auto protocol = barrier::make_protocol(barrier::BarrierKind::Root, kProcesses,
                                               barrier::NotifySpec{tree, kLatency, kOverhead});
  test_support::IdleNetwork network(kProcesses, kLatency, kOverhead, [&](int r) {
    const Nanos compute = r == 0                     ? 2000 * kUs
                          : (rank1_sleeps && r == 1) ? 1000 * kUs
                                                     : (1900 + 10 * (r - 1)) * kUs;
    auto job = test_support::compute_only_job("tree", kProcesses, compute,
                                              std::make_shared<wait::FixedWait>(300 * kUs));
    job.barrier = protocol;
    return job;
  });
  network.run();
  return network.pass_times_us();
}

using Times = std::vector<Nanos>;

// Root 0 sends to 1..7 from T0 = 2114: rank j handles at 2114 + 2j + 6.
TEST(BarrierTreeProtocol, FlatNotifiesInRankOrder) {
  EXPECT_EQ(pass_times(barrier::TreeKind::Flat, false),
            (Times{2114, 2122, 2124, 2126, 2128, 2130, 2132, 2134}))
      << "the root passes at T0, then sends (section 4.3)";
  // Rank 1 asleep: its own notice costs W more (2114 + 2 + 106); nobody else waits for it.
  EXPECT_EQ(pass_times(barrier::TreeKind::Flat, true),
            (Times{2114, 2222, 2124, 2126, 2128, 2130, 2132, 2134}));
}

// 0: 1 2 4; 1: 3 5; 2: 6; 3: 7. 1 at 2122, 2 at 2124, 4 at 2126; 3 at 2122+8 = 2130, 5 at 2132;
// 6 at 2124+8 = 2132; 7 at 2130+8 = 2138. A process passes after forwarding: 1 at 2122+4, 2 at 2124+2,
// 3 at 2130+2; the root passes at T0 and then sends.
TEST(BarrierTreeProtocol, BinomialForwardsAlongTheTree) {
  EXPECT_EQ(pass_times(barrier::TreeKind::Binomial, false),
            (Times{2114, 2126, 2126, 2132, 2126, 2132, 2132, 2138}));
  // Rank 1 asleep at 2122 - 6 + 106 = 2222: its subtree 3, 5, 7 comes 100us later.
  EXPECT_EQ(pass_times(barrier::TreeKind::Binomial, true),
            (Times{2114, 2226, 2126, 2232, 2126, 2232, 2132, 2238}));
}

// 0: 1 2; 1: 3 4; 2: 5 6; 3: 7. 1 at 2122, 2 at 2124; 3, 4 at 2130, 2132; 5, 6 at 2132, 2134; 7 at 2138.
TEST(BarrierTreeProtocol, BinaryForwardsAlongTheTree) {
  EXPECT_EQ(pass_times(barrier::TreeKind::Binary, false),
            (Times{2114, 2126, 2128, 2132, 2132, 2132, 2134, 2138}));
  EXPECT_EQ(pass_times(barrier::TreeKind::Binary, true),
            (Times{2114, 2226, 2128, 2232, 2232, 2132, 2134, 2238}));
}

// skew 4: 0: 1 2 3 4 5; 1: 6; 2: 7. 1..5 at 2122..2130; 6 at 2122 + 8 = 2130; 7 at 2124 + 8 = 2132.
TEST(BarrierTreeProtocol, SkewedForwardsAlongTheTree) {
  EXPECT_EQ(pass_times(barrier::TreeKind::Skewed, false),
            (Times{2114, 2124, 2126, 2126, 2128, 2130, 2130, 2132}));
  EXPECT_EQ(pass_times(barrier::TreeKind::Skewed, true),
            (Times{2114, 2224, 2126, 2126, 2128, 2130, 2230, 2132}));
}

// Arrival order 1..7, latest first on the positions: 0: 7 6 5 4 3; 7: 2; 6: 1. 7 at 2122, 6 at 2124,
// 5 at 2126, 4 at 2128, 3 at 2130; 2 at 2122 + 8 = 2130; 1 at 2124 + 8 = 2132. The sleeping rank 1
// arrived first, so it is a leaf: only its own notice is late (2124 + 2 + 106 = 2232).
TEST(BarrierTreeProtocol, OrderAwareSkewedMakesTheLastArrivalsInterior) {
  EXPECT_EQ(pass_times(barrier::TreeKind::OrderAwareSkewed, false),
            (Times{2114, 2132, 2130, 2130, 2128, 2126, 2126, 2124}));
  EXPECT_EQ(pass_times(barrier::TreeKind::OrderAwareSkewed, true),
            (Times{2114, 2232, 2130, 2130, 2128, 2126, 2126, 2124}));
}

}  // namespace
}  // namespace cosched::now
