// The hop-level network of thesis 4.2.2 (docs/models/numa.md section 3) on a tree small enough to follow
// clock by clock. Each expected value is worked out in the comment above it.
//
// The tree, built by hand: a root switch 0 (level 1) over two bottom switches 1 and 2 (level 2), each over
// two clusters (1: clusters 0 and 1; 2: clusters 2 and 3). Ports, one per link direction:
//   0..3   cluster c -> its bottom switch (the injection port, level 2, unlimited)
//   4, 5   bottom switch 1, 2 -> root      (level 1, capacity 3: the bottom switch's 2 children + 1 parent
//   line) 6..9   bottom switch -> cluster c      (level 2, capacity 3) 10, 11 root -> bottom switch 1, 2
//   (level 1, capacity 2: the root's 2 children, no parent line)
// Cluster c: up = {c, 4 + c/2}, down = {6 + c, 10 + c/2}, ancestor = {1 + c/2, 0}.
// Routes: 0 -> 1 is ports 0, 7 (2 hops); 0 -> 2 is ports 0, 4, 11, 8 (4 hops).
// Every link at 81.92 GB/s (the shipped platforms' value), so the reference bandwidth (the bottom level's) is
// that too, and with table 5.1's base of 50 clocks a page (4096 B) hop takes 50 clocks, an update (64 B)
// ceil(50 * 64 / 4096 = 0.78) = 1 and a communication message (16 B) ceil(0.20) = 1.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "numa/hop_network.hpp"
#include "numa/network.hpp"

namespace cosched::numa {
namespace {

constexpr double kBandwidth = 81.92e9;

platform::NumaTopology tree() {
  platform::NumaTopology t;
  t.levels = 2;
  t.fanout = {2, 2};
  t.switches = {{"root", 1, -1, 0, 4, 2}, {"left", 2, 0, 0, 2, 3}, {"right", 2, 0, 2, 2, 3}};
  for (int c = 0; c < 4; ++c) t.ports.push_back({fmt::format("c{}-up", c), 2, kBandwidth, -1});
  t.ports.push_back({"left-up", 1, kBandwidth, 3});
  t.ports.push_back({"right-up", 1, kBandwidth, 3});
  for (int c = 0; c < 4; ++c) t.ports.push_back({fmt::format("c{}-down", c), 2, kBandwidth, 3});
  t.ports.push_back({"left-down", 1, kBandwidth, 2});
  t.ports.push_back({"right-down", 1, kBandwidth, 2});
  for (int c = 0; c < 4; ++c) {
    t.up.push_back({c, 4 + c / 2});
    t.down.push_back({6 + c, 10 + c / 2});
    t.ancestor.push_back({1 + c / 2, 0});
  }
  return t;
}

config::NumaConfig defaults() {
  return config::NumaConfig{};  // page 4096 B, update 64 B, communication 16 B, base 50 clk, buffers on
}

Message page(int from, int to, std::uint64_t tag) {
  return {from, to, MessageKind::Page, tag};
}

// Every delivery up to `limit`, in the order the network hands them out, as (clock, tag).
std::vector<std::pair<Clock, std::uint64_t>> drain(Network& network, Clock limit) {
  std::vector<std::pair<Clock, std::uint64_t>> out;
  while (auto d = network.next_delivery(limit)) out.emplace_back(d->at, d->message.tag);
  return out;
}

using Deliveries = std::vector<std::pair<Clock, std::uint64_t>>;

TEST(NumaHopClocks, KindsAtTheReferenceBandwidth) {
  const auto numa = defaults();
  const auto bytes = message_bytes(numa);
  EXPECT_EQ(bytes[0], 4096);
  EXPECT_EQ(bytes[1], 64);
  EXPECT_EQ(bytes[2], 16);
  // 50 * 4096 / 4096 = 50; 50 * 64 / 4096 = 0.78 -> 1; 50 * 16 / 4096 = 0.195 -> 1.
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 4096, kBandwidth), 50);
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 64, kBandwidth), 1);
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 16, kBandwidth), 1);
  // One byte over a page: 50 * 4097 / 4096 = 50.012 -> 51.
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 4097, kBandwidth), 51);
}

TEST(NumaHopClocks, HalfTheBandwidthDoublesAPageHop) {
  const auto numa = defaults();
  // 50 * 2 = 100; an update 0.78 * 2 = 1.56 -> 2; a communication message 0.39 -> 1 (never below 1).
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 4096, kBandwidth / 2), 100);
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 64, kBandwidth / 2), 2);
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 16, kBandwidth / 2), 1);
  // Twice the bandwidth halves it: 25.
  EXPECT_EQ(hop_clocks(numa, kBandwidth, 4096, kBandwidth * 2), 25);
}

TEST(NumaHopClocks, AnIntegerOnPaperIsNotRoundedUpByFloatingError) {
  const auto numa = defaults();
  // 50 * 7 / 0.7 is 500 on paper; in doubles 500.00000000000006, whose ceiling would be 501.
  EXPECT_EQ(hop_clocks(numa, 7.0, 4096, 0.7), 500);
  // 50 / (1/3) = 150 exactly on paper.
  EXPECT_EQ(hop_clocks(numa, 1.0, 4096, 1.0 / 3.0), 150);
}

TEST(NumaHopClocks, RefusesANonPositiveBandwidth) {
  EXPECT_THROW(hop_clocks(defaults(), kBandwidth, 4096, 0), std::logic_error);
  EXPECT_THROW(hop_clocks(defaults(), 0, 4096, kBandwidth), std::logic_error);
}

TEST(NumaHopNetwork, ReferenceBandwidthIsTheBottomLevelsUnlessGiven) {
  auto t = tree();
  t.ports[4].bandwidth = kBandwidth * 4;  // a faster root level does not change the reference
  auto numa = defaults();
  EXPECT_EQ(reference_bandwidth(t, numa), kBandwidth);
  numa.reference_bandwidth = 1e9;
  EXPECT_EQ(reference_bandwidth(t, numa), 1e9);
}

TEST(NumaHopNetwork, APageCrossesTwoAndFourHops) {
  HopNetwork network(tree(), defaults());
  // 0 -> 1: ports 0, 7: 2 x 50 = 100. 2 -> 0: ports 2, 5, 10, 6: 4 x 50 = 200. No port in common.
  network.send(page(0, 1, 1), 0);
  network.send(page(2, 0, 2), 0);
  EXPECT_EQ(network.in_flight(), 2);
  EXPECT_FALSE(network.next_delivery(99).has_value());
  EXPECT_EQ(network.now(), 99);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{100, 1}, {200, 2}}));
  EXPECT_EQ(network.in_flight(), 0);
  EXPECT_EQ(network.now(), 1000);
}

TEST(NumaHopNetwork, AReplySentAtADeliveryTimeLeavesThen) {
  HopNetwork network(tree(), defaults());
  network.send(page(0, 1, 1), 10);
  // The page arrives at 10 + 2 x 50 = 110; an acknowledgement sent back then takes 2 x 1: 112.
  auto d = network.next_delivery(1000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->at, 110);
  EXPECT_EQ(d->message.from, 0);
  EXPECT_EQ(d->message.to, 1);
  EXPECT_EQ(d->message.kind, MessageKind::Page);
  network.send({1, 0, MessageKind::Communication, 7}, d->at);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{112, 7}}));
}

TEST(NumaHopNetwork, TwoMessagesFromOneClusterQueue) {
  HopNetwork network(tree(), defaults());
  // Both wait at cluster 0's injection port: the first crosses 0-50 and 50-100; the second waits for the
  // link until 50 (50 queued clocks at level 2), crosses 50-100, then port 7 100-150.
  network.send(page(0, 1, 1), 0);
  network.send(page(0, 1, 2), 0);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{100, 1}, {150, 2}}));
  const auto traffic = network.traffic();
  ASSERT_EQ(traffic.size(), 2u);
  EXPECT_EQ(traffic[1].queued_clocks, 50);
  EXPECT_EQ(traffic[1].blocked_clocks, 0);
  EXPECT_EQ(traffic[1].hops[0], 4);
  EXPECT_EQ(traffic[0].hops[0], 0);
}

TEST(NumaHopNetwork, ASlowerLevelSlowsTheHopsOnIt) {
  auto t = tree();
  for (int p : {4, 5, 10, 11}) t.ports[p].bandwidth = kBandwidth / 2;
  HopNetwork network(t, defaults());
  // 0 -> 2: port 0 (50), port 4 at half bandwidth (100), port 11 (100), port 8 (50): 300.
  network.send(page(0, 2, 1), 0);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{300, 1}}));
}

// A hop longer than the network's calendar of crossing ends (2^16 clocks) keeps its place among the others.
// Port 7 (into cluster 1) at 1/2000 of the bandwidth: a page hop of 50 x 2000 = 100000 clocks. The page
// 0 -> 1 sent at 0 crosses port 0 at 0-50 and port 7 at 50-100050. A communication message 2 -> 3 sent at
// 100048 crosses port 2 at 100048-100049 and port 9 at 100049-100050: the same clock, but its last hop began
// after the page's, so the page comes first. One sent at 10 (3 -> 2, ports 3, 8) arrives at 12, meanwhile.
TEST(NumaHopNetwork, AHopLongerThanTheCalendarKeepsItsOrder) {
  auto t = tree();
  t.ports[7].bandwidth = kBandwidth / 2000;
  HopNetwork network(t, defaults());
  network.send(page(0, 1, 1), 0);
  network.send({3, 2, MessageKind::Communication, 3}, 10);
  network.send({2, 3, MessageKind::Communication, 2}, 100'048);
  EXPECT_EQ(drain(network, 200'000), (Deliveries{{12, 3}, {100'050, 1}, {100'050, 2}}));
}

TEST(NumaHopNetwork, AGivenReferenceBandwidthScalesEveryHop) {
  auto numa = defaults();
  numa.reference_bandwidth = kBandwidth / 2;
  HopNetwork network(tree(), numa);
  // Every link twice the reference: 25 clocks a page hop, 0 -> 1 in 50.
  network.send(page(0, 1, 1), 0);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{50, 1}}));
}

// The full buffer. Port 6 (switch 1 -> cluster 0, capacity 3) at a quarter of the bandwidth: a page crosses
// it in 200. Cluster 1 sends pages M1..M5 to cluster 0 at 0 (route: port 1, port 6), then M6 to cluster 2
// (ports 1, 4, 11, 8). Port 1 serves them in that order.
//   M1: port 1 0-50 (reserving an entry of port 6: 1 of 3), port 6 50-250.          Delivered 250.
//   M2: port 1 50-100 (2 of 3), waits at port 6 100-250, crosses 250-450.            Delivered 450.
//   M3: port 1 100-150 (3 of 3), waits at port 6 150-450, crosses 450-650.           Delivered 650.
//   M4: head of port 1 at 150, link free, port 6 full: blocked until M1 leaves port 6 at 250 (100 blocked
//       clocks), port 1 250-300, waits at port 6 300-650, crosses 650-850.            Delivered 850.
//   M5: head at 300, blocked until M2 leaves port 6 at 450 (150 blocked), port 1 450-500, waits at port 6
//       500-850, crosses 850-1050.                                                    Delivered 1050.
//   M6: head at 500 (head-of-line blocked behind M4 and M5 until then), port 1 500-550, port 4 550-600,
//       port 11 600-650, port 8 650-700.                                              Delivered 700.
// Level 2: blocked 100 + 150 = 250. Queued at port 1: M2 50, M3 100, M4 150 (then blocked), M5 300 (then
// blocked), M6 500 = 1100; at port 6: M2 150, M3 300, M4 350, M5 350 = 1150; 2250 in all. Level 1: none.
// Hops: level 2 M1..M5 two pages each and M6's ports 1 and 8: 12; level 1 M6's ports 4 and 11: 2.
TEST(NumaHopNetwork, AFullBufferBlocksUntilAnEntryFrees) {
  auto t = tree();
  t.ports[6].bandwidth = kBandwidth / 4;
  HopNetwork network(t, defaults());
  for (std::uint64_t m = 1; m <= 5; ++m) network.send(page(1, 0, m), 0);
  network.send(page(1, 2, 6), 0);

  // At 200, M4 has been blocked 50 clocks (since 150). Waits finished: M2 50 and M3 100 at port 1; still
  // going: M4 150 queued (then blocked), M5 200, M6 200 at port 1; M2 100 (since 100), M3 50 at port 6:
  // 50 + 100 + 150 + 200 + 200 + 100 + 50 = 850 queued.
  EXPECT_FALSE(network.next_delivery(200).has_value());
  auto traffic = network.traffic();
  EXPECT_EQ(traffic[1].blocked_clocks, 50);
  EXPECT_EQ(traffic[1].queued_clocks, 850);

  // M4 starts its hop at 250 exactly, when M1's delivery frees port 6's entry: at 251 it is crossing, not
  // blocked, and the level's blocked clocks stay at 100.
  auto first = network.next_delivery(251);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->at, 250);
  EXPECT_FALSE(network.next_delivery(251).has_value());
  EXPECT_EQ(network.traffic()[1].blocked_clocks, 100);

  EXPECT_EQ(drain(network, 10'000), (Deliveries{{450, 2}, {650, 3}, {700, 6}, {850, 4}, {1050, 5}}));
  traffic = network.traffic();
  EXPECT_EQ(traffic[1].blocked_clocks, 250);
  EXPECT_EQ(traffic[1].queued_clocks, 2250);
  EXPECT_EQ(traffic[1].hops[0], 12);
  EXPECT_EQ(traffic[1].bytes, 12 * 4096);
  EXPECT_EQ(traffic[0].blocked_clocks, 0);
  EXPECT_EQ(traffic[0].queued_clocks, 0);
  EXPECT_EQ(traffic[0].hops[0], 2);
  EXPECT_EQ(network.events(), 14u);
}

// Two ports wait for one buffer: the freed entry goes to the one that waited longest. Port 6 (into cluster
// 0, capacity 3) again at 200 a page. Cluster 1 sends A1..A4 to cluster 0 (ports 1, 6) at 0, cluster 2 sends
// B1 to cluster 0 (ports 2, 5, 10, 6) at 0.
//   A1: port 1 0-50 (port 6: 1 of 3), port 6 50-250. A2: port 1 50-100 (2 of 3), port 6 250-450.
//   B1: port 2 0-50, port 5 50-100. At 100 A2's hop ends first (it began first, at 50, before B1's): A3
//       starts on port 1 (100-150, 3 of 3); then B1 is at port 10 with port 6 full: blocked from 100.
//   A4: head of port 1 at 150, port 6 full: blocked from 150, behind port 10 in port 6's waiters.
//   250: A1 leaves port 6: B1 (waiting since 100) takes the entry, port 10 250-300; A4 keeps waiting.
//   450: A2 leaves: A4 takes it, port 1 450-500. Port 6 serves A3 450-650, B1 650-850, A4 850-1050.
// Blocked: level 1 (port 10) 250 - 100 = 150; level 2 (port 1) 450 - 150 = 300. Newest first would have
// given the entry at 250 to A4 instead, and delivered B1 last.
TEST(NumaHopNetwork, TheFreedEntryGoesToThePortThatWaitedLongest) {
  auto t = tree();
  t.ports[6].bandwidth = kBandwidth / 4;
  HopNetwork network(t, defaults());
  for (std::uint64_t m = 1; m <= 4; ++m) network.send(page(1, 0, m), 0);
  network.send(page(2, 0, 11), 0);
  EXPECT_EQ(drain(network, 10'000), (Deliveries{{250, 1}, {450, 2}, {650, 3}, {850, 11}, {1050, 4}}));
  const auto traffic = network.traffic();
  EXPECT_EQ(traffic[0].blocked_clocks, 150);
  EXPECT_EQ(traffic[1].blocked_clocks, 300);
}

// The same traffic with numa.buffers false: nothing blocks. Port 1 sends M1..M6 at 0, 50, ..., 250; port 6
// still delivers M1..M5 at 250, 450, 650, 850, 1050, while M6 crosses ports 1, 4, 11, 8 at 250-450 and
// arrives at 450, with M2: M2's last hop began at 250, M6's at 400, so M2 comes first.
// Queued at port 1: 50 + 100 + 150 + 200 + 250 = 750; at port 6 (arriving at 100..250, leaving at 250, 450,
// 650, 850): 150 + 300 + 450 + 600 = 1500.
TEST(NumaHopNetwork, WithoutBuffersNothingBlocks) {
  auto t = tree();
  t.ports[6].bandwidth = kBandwidth / 4;
  auto numa = defaults();
  numa.buffers = false;
  HopNetwork network(t, numa);
  for (std::uint64_t m = 1; m <= 5; ++m) network.send(page(1, 0, m), 0);
  network.send(page(1, 2, 6), 0);
  EXPECT_EQ(drain(network, 10'000),
            (Deliveries{{250, 1}, {450, 2}, {450, 6}, {650, 3}, {850, 4}, {1050, 5}}));
  const auto traffic = network.traffic();
  EXPECT_EQ(traffic[1].blocked_clocks, 0);
  EXPECT_EQ(traffic[1].queued_clocks, 2250);
}

TEST(NumaHopNetwork, TrafficByLevelAndKind) {
  HopNetwork network(tree(), defaults());
  // A page 0 -> 1 (ports 0, 7), an update 0 -> 2 (ports 0, 4, 11, 8) and a communication message 3 -> 2
  // (ports 3, 8). Level 1 (index 0): the update's ports 4 and 11, 2 x 64 = 128 bytes. Level 2 (index 1):
  // two hops of each kind, 2 x 4096 + 2 x 64 + 2 x 16 = 8352 bytes.
  // Times: the communication crosses 0-1, 1-2; the update waits behind the page at port 0 until 50 (50
  // queued), then 50-51, 51-52, 52-53, 53-54; the page 0-50, 50-100.
  network.send(page(0, 1, 1), 0);
  network.send({0, 2, MessageKind::Update, 2}, 0);
  network.send({3, 2, MessageKind::Communication, 3}, 0);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{2, 3}, {54, 2}, {100, 1}}));
  const auto traffic = network.traffic();
  ASSERT_EQ(traffic.size(), 2u);
  EXPECT_EQ(traffic[0].hops, (std::array<std::int64_t, 3>{0, 2, 0}));
  EXPECT_EQ(traffic[0].bytes, 128);
  EXPECT_EQ(traffic[1].hops, (std::array<std::int64_t, 3>{2, 2, 2}));
  EXPECT_EQ(traffic[1].bytes, 8352);
  EXPECT_EQ(traffic[1].queued_clocks, 50);
  EXPECT_EQ(traffic[0].queued_clocks, 0);
}

// Three deliveries at clock 100: a page 0 -> 1 sent at 0 (its last hop, port 7, began at 50) and two
// communication messages sent at 98, 2 -> 3 (ports 2, 9) and 3 -> 2 (ports 3, 8), whose last hops both begin
// at 99, in the order their first hops began, the order they were sent. So: the page, then the two in send
// order; swapping the two sends swaps their deliveries, and the same inputs always give the same order.
TEST(NumaHopNetwork, SameClockDeliveriesComeInTheOrderTheirLastHopsBegan) {
  const auto run = [](bool swap) {
    HopNetwork network(tree(), defaults());
    network.send(page(0, 1, 1), 0);
    const Message a{2, 3, MessageKind::Communication, 2}, b{3, 2, MessageKind::Communication, 3};
    network.send(swap ? b : a, 98);
    network.send(swap ? a : b, 98);
    return drain(network, 1000);
  };
  EXPECT_EQ(run(false), (Deliveries{{100, 1}, {100, 2}, {100, 3}}));
  EXPECT_EQ(run(true), (Deliveries{{100, 1}, {100, 3}, {100, 2}}));
  EXPECT_EQ(run(false), run(false));
}

TEST(NumaHopNetwork, AMessageToItsOwnClusterIsDeliveredAtOnce) {
  HopNetwork network(tree(), defaults());
  network.send(page(0, 1, 1), 0);
  network.send({2, 2, MessageKind::Communication, 2}, 5);
  EXPECT_EQ(network.in_flight(), 2);
  // Delivered at 5, before the page (100); it crossed no link.
  EXPECT_EQ(drain(network, 1000), (Deliveries{{5, 2}, {100, 1}}));
  EXPECT_EQ(network.traffic()[1].hops[2], 0);
}

TEST(NumaHopNetwork, ASendLaterThanTheNetworkKeepsTheDeliveriesOnTheWay) {
  HopNetwork network(tree(), defaults());
  network.send(page(0, 1, 1), 0);
  // Sending at 200 first moves the network to 200: the page delivered at 100 waits for next_delivery.
  network.send(page(2, 3, 2), 200);
  EXPECT_EQ(network.in_flight(), 2);
  EXPECT_EQ(drain(network, 1000), (Deliveries{{100, 1}, {300, 2}}));
}

// Random traffic with slow cluster links (so that buffers fill and ports block): every message is delivered
// exactly once, in time order, no earlier than one clock per hop after it left (a page: 50 per hop at least),
// and the hops counted per level are the routes' hops: 2 per message within a bottom switch (both at level
// 2), 4 across the root (2 at each level). Run twice, the same deliveries.
TEST(NumaHopNetwork, RandomTrafficIsDeliveredOnceAndCounted) {
  auto t = tree();
  for (int p = 6; p <= 9; ++p) t.ports[p].bandwidth = kBandwidth / 4;
  const auto run = [&t](std::vector<std::tuple<Clock, std::uint64_t, int, int>>& log) {
    HopNetwork network(t, defaults());
    std::mt19937_64 engine(7);
    constexpr int kMessages = 3000;
    std::vector<Clock> sent_at(kMessages);
    std::vector<int> min_clocks(kMessages), delivered(kMessages, 0);
    std::array<std::int64_t, 2> expected_hops{};  // by level index
    Clock now = 0;
    const auto receive = [&](const Delivery& d) {
      EXPECT_GE(d.at, now);
      EXPECT_GE(d.at, sent_at[d.message.tag] + min_clocks[d.message.tag]);
      ++delivered[d.message.tag];
      now = d.at;
      log.emplace_back(d.at, d.message.tag, d.message.from, d.message.to);
    };
    for (std::uint64_t tag = 0; tag < kMessages; ++tag) {
      const Clock next = now + static_cast<Clock>(engine() % 8);
      while (auto d = network.next_delivery(next)) receive(*d);
      now = next;
      const int from = static_cast<int>(engine() % 4), to = static_cast<int>(engine() % 4);
      const auto kind = static_cast<MessageKind>(engine() % 3);
      const int hops = from == to ? 0 : from / 2 == to / 2 ? 2 : 4;
      expected_hops[1] += hops == 0 ? 0 : 2;
      expected_hops[0] += hops == 4 ? 2 : 0;
      sent_at[tag] = now;
      min_clocks[tag] = kind == MessageKind::Page ? 50 * hops : hops;
      network.send({from, to, kind, tag}, now);
    }
    while (auto d = network.next_delivery(now + 1'000'000)) receive(*d);
    EXPECT_EQ(network.in_flight(), 0);
    for (int count : delivered) EXPECT_EQ(count, 1);
    const auto traffic = network.traffic();
    for (int level = 0; level < 2; ++level)
      EXPECT_EQ(traffic[level].hops[0] + traffic[level].hops[1] + traffic[level].hops[2],
                expected_hops[level]);
    EXPECT_GT(traffic[1].blocked_clocks, 0);  // the slow links did fill their buffers
  };
  std::vector<std::tuple<Clock, std::uint64_t, int, int>> first, second;
  run(first);
  run(second);
  EXPECT_EQ(first, second);
}

TEST(NumaHopNetwork, RefusesTimesBeforeItsOwn) {
  HopNetwork network(tree(), defaults());
  EXPECT_FALSE(network.next_delivery(100).has_value());
  EXPECT_THROW(network.send(page(0, 1, 1), 99), std::logic_error);
  EXPECT_THROW(network.next_delivery(99), std::logic_error);
  EXPECT_THROW(network.send(page(0, 4, 1), 100), std::logic_error);
}

}  // namespace
}  // namespace cosched::numa
