#pragma once
// The hop-level network of thesis 4.2.2 (docs/models/numa.md section 3): store-and-forward, one hop at a
// time, each output port a FIFO buffer of finite capacity in front of one link direction (A28), a hop's
// time from the page transfer base cost and the link's bandwidth (A1(a)). Pure: no SimGrid call, it only
// reads the NumaTopology's tables.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "config/scenario.hpp"
#include "numa/network.hpp"
#include "platform/numa_topology.hpp"

namespace cosched::numa {

// The bandwidth at which a page hop costs page_transfer_base: numa.reference_bandwidth, or when it is 0 the
// fastest port of the bottom level (the cluster links; they are all alike in the shipped platforms).
double reference_bandwidth(const platform::NumaTopology& topology, const config::NumaConfig& numa);

class HopNetwork final : public Network {
 public:
  // Copies what it needs from the topology (routes, capacities, hop times), which need not outlive it.
  // Throws std::logic_error for tables that do not describe a tree (the platform reader checks files).
  HopNetwork(const platform::NumaTopology& topology, const config::NumaConfig& numa);

  // A message to its own cluster (from == to) crosses no link: it is delivered at `now`, by the next
  // next_delivery call, before any later event. A `now` later than the time the network stands at first
  // advances the network to `now` (as next_delivery(now) would); the deliveries that produces are kept, in
  // order, for next_delivery. Throws std::logic_error for a `now` earlier than a time already handed.
  void send(const Message& m, Clock now) override;
  std::optional<Delivery> next_delivery(Clock limit) override;
  std::int64_t in_flight() const override { return in_flight_; }
  // Hops and bytes of completed hops; blocked and queued clocks of every wait, those still going on
  // counted up to the time the network stands at.
  std::vector<LevelTraffic> traffic() const override;

  Clock now() const { return now_; }
  std::uint64_t events() const { return events_; }  // hops completed

 private:
  static constexpr int kNone = -1;

  struct PortState {
    int capacity = 0;   // entries; a large number when unlimited
    int occupancy = 0;  // messages in the buffer, the one crossing included, plus entries reserved
    int level_index = 0;
    int queue_head = kNone, queue_tail = kNone;  // messages, linked through MessageSlot::next
    bool link_busy = false;                      // the head message is crossing
    Clock blocked_since = -1;  // the head is ready, the link free, the next buffer full: since when
    int waiting_on = kNone;    // the port whose buffer the head waits for
    int waiters_head = kNone, waiters_tail = kNone;  // ports waiting for an entry here, oldest first
    int next_waiter = kNone;
    int next_end = kNone;  // the next port whose crossing ends at the same clock
    std::array<Clock, kMessageKinds> hop_clocks{};
  };

  struct MessageSlot {
    Message message;
    Clock ready_at = 0;       // when it entered the buffer it is in
    int next = kNone;         // the next message in the same buffer, or the next free slot
    std::uint8_t height = 0;  // of the lowest common switch: the route has 2 * height hops
    std::uint8_t hop = 0;     // index on the route of the port whose buffer holds it
  };

  int port_of(const MessageSlot& slot, int hop) const;
  int height_of_lca(int a, int b) const;
  void try_start(int port, Clock now);
  void push_waiter(int port, int waiter);
  // The crossing of port's link ends at `at`: its message moves on, or is delivered (its slot returned).
  std::optional<int> finish_crossing(int port, Clock at);
  void schedule_end(int port, Clock now, Clock at);
  Clock earliest_near_end() const;
  struct End {
    Clock at;
    int port;
  };
  std::optional<End> pop_end(Clock limit);  // the first crossing end at or before limit, taken out
  void advance_to(Clock time);  // processes every event at or before `time`, keeping the deliveries
  Delivery take(int slot, Clock at);

  int clusters_ = 0, levels_ = 0;
  std::vector<int> up_, down_, ancestor_;  // clusters_ x levels_, flattened from the topology
  std::vector<PortState> ports_;
  std::array<std::int64_t, kMessageKinds> bytes_{};
  std::vector<MessageSlot> slots_;
  int free_slot_ = kNone;
  // Crossing ends (a port has at most one: its link carries one message at a time). Those within the
  // calendar's length of their start go in its buckets, one per clock: they lie in [now_, now_ + buckets),
  // so a bucket holds one clock's ends, appended in the order the crossings began. Longer hops (links far
  // slower than the reference) go to a heap.
  static constexpr std::uint64_t kMostBuckets = 1 << 16;
  std::uint64_t bucket_mask_ = 0;
  std::vector<int> bucket_head_, bucket_tail_;  // ports, linked through PortState::next_end
  std::vector<std::uint64_t> occupied_;         // a bit per non-empty bucket
  int near_ends_ = 0;
  struct FarEnd {
    Clock at;
    std::uint64_t sequence;
    int port;
  };
  std::vector<FarEnd> far_ends_;
  std::uint64_t far_sequence_ = 0;
  std::vector<Delivery> pending_;  // deliveries made while advancing in send, or to the sender's own cluster
  std::size_t pending_next_ = 0;
  std::vector<LevelTraffic> traffic_;
  Clock now_ = 0;
  std::int64_t in_flight_ = 0;
  std::uint64_t events_ = 0;
};

}  // namespace cosched::numa
