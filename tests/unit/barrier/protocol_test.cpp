// The barrier protocols as pure objects: who sends what on arriving, receiving and passing, and who
// talks to whom (docs/models/now.md section 4.3).

#include <gtest/gtest.h>

#include "barrier/protocol.hpp"

namespace cosched::barrier {
namespace {

using Kind = Message::Kind;

Message arrival(int from, int to, int barrier) {
  return Message{Kind::BarrierArrival, 0, from, to, barrier};
}

TEST(BarrierProtocol, FlatRootGathersArrivalsThenNotifiesEveryProcessInRankOrder) {
  auto root = make_protocol(barrier::BarrierKind::Root, 4);
  std::vector<Outgoing> out;
  root->arrive(2, 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].to, 0);
  EXPECT_EQ(out[0].kind, Kind::BarrierArrival);
  out.clear();
  root->arrive(0, 0, out);
  EXPECT_TRUE(out.empty()) << "the root sends nothing on arriving";

  BarrierState state(2);
  EXPECT_FALSE(root->passed(state, 0, 0));
  for (int r = 1; r <= 3; ++r) root->receive(state, 0, arrival(r, 0, 0), out);
  EXPECT_TRUE(out.empty()) << "a flat root forwards nothing";
  EXPECT_TRUE(root->passed(state, 0, 0)) << "P-1 arrivals";
  EXPECT_FALSE(root->passed(state, 0, 1)) << "counted per barrier";

  root->pass(0, 0, out);
  ASSERT_EQ(out.size(), 3u);
  for (int r = 1; r <= 3; ++r) {
    EXPECT_EQ(out[r - 1].to, r);
    EXPECT_EQ(out[r - 1].kind, Kind::BarrierNotice);
  }
  out.clear();
  root->pass(1, 0, out);
  EXPECT_TRUE(out.empty()) << "only the root notifies";

  BarrierState leaf(1);
  EXPECT_FALSE(root->passed(leaf, 1, 0));
  root->receive(leaf, 1, Message{Kind::BarrierNotice, 0, 0, 1, 0}, out);
  EXPECT_TRUE(root->passed(leaf, 1, 0));

  EXPECT_EQ(root->peers(0), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(root->peers(3), (std::vector<int>{0}));
}

TEST(BarrierProtocol, AllToAllSendsToEveryOtherProcessAndPassesOnPMinusOneArrivals) {
  auto all = make_protocol(barrier::BarrierKind::AllToAll, 3);
  std::vector<Outgoing> out;
  all->arrive(1, 0, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].to, 0);
  EXPECT_EQ(out[1].to, 2);
  BarrierState state(1);
  out.clear();
  all->receive(state, 1, arrival(0, 1, 0), out);
  EXPECT_FALSE(all->passed(state, 1, 0));
  all->receive(state, 1, arrival(2, 1, 0), out);
  EXPECT_TRUE(all->passed(state, 1, 0));
  all->pass(1, 0, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(all->peers(2), (std::vector<int>{0, 1}));
}

TEST(BarrierProtocol, RefusesAReadMessage) {
  auto root = make_protocol(barrier::BarrierKind::Root, 2);
  BarrierState state(1);
  std::vector<Outgoing> out;
  EXPECT_THROW(root->receive(state, 0, Message{Kind::ReadReply, 0, 1, 0, 0}, out), std::logic_error);
}

}  // namespace
}  // namespace cosched::barrier
