#pragma once
// How messages cross the NUMA machine's tree (docs/models/numa.md section 2). Two implementations behind
// one interface: the hop-level model of thesis 4.2.2 (store-and-forward, one hop at a time, finite output
// buffers; the default, platform.network: hops) and SimGrid's flow model (shared links, CM02 without
// correction factors; platform.network: shared).

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/scenario.hpp"
#include "metrics/run_record.hpp"
#include "platform/numa_topology.hpp"

namespace cosched::numa {

using Clock = std::int64_t;

// The three kinds of thesis 4.2.2: pages (copies and migrations), updates of the DSM's update protocol,
// and communication (requests, acknowledgements, barrier messages).
enum class MessageKind : std::uint8_t { Page, Update, Communication };
constexpr int kMessageKinds = 3;

struct Message {
  int from = 0, to = 0;  // clusters
  MessageKind kind = MessageKind::Communication;
  std::uint64_t tag = 0;  // the sender's meaning, handed back on delivery
};

struct Delivery {
  Clock at = 0;
  Message message;
};

// Per switch level (index 0: the root's level 1): what crossed it and what waited, in the run record's type
// (hops by MessageKind).
using LevelTraffic = metrics::NumaLevelRecord;
static_assert(std::tuple_size_v<decltype(LevelTraffic::hops)> == kMessageKinds);

class Network {
 public:
  virtual ~Network() = default;
  // The message leaves cluster m.from at `now` (no earlier than any time already handed to this network).
  virtual void send(const Message& m, Clock now) = 0;
  // Advances the network up to `limit`: returns the first message delivered at or before `limit`, with its
  // time, or nothing when none is (the network then stands at `limit`). Deliveries of one clock come in
  // a fixed order (the order their last hops began), so results never depend on anything but the inputs.
  virtual std::optional<Delivery> next_delivery(Clock limit) = 0;
  // Messages sent and not delivered yet.
  virtual std::int64_t in_flight() const = 0;
  virtual std::vector<LevelTraffic> traffic() const = 0;
};

// Sizes of the three kinds in bytes (page_size, update_bytes, communication_bytes).
std::array<int, kMessageKinds> message_bytes(const config::NumaConfig& numa);

// Thesis 4.2.2, reading A1(a): a hop of a message of `bytes` across a link of `bandwidth` takes
// max(1, ceil(page_transfer_base * bytes / page_size * reference_bandwidth / bandwidth)) clocks.
Clock hop_clocks(const config::NumaConfig& numa, double reference_bandwidth, int bytes, double bandwidth);

std::unique_ptr<Network> make_hop_network(const platform::NumaTopology& topology,
                                          const config::NumaConfig& numa);
// Must be used from inside a SimGrid actor: sends are SimGrid communications between the clusters' hosts;
// a clock is 1 / numa.clock_hz simulated seconds and a message is delivered at the first clock at or after
// SimGrid completes it.
std::unique_ptr<Network> make_shared_network(const platform::NumaTopology& topology,
                                             const config::NumaConfig& numa);

}  // namespace cosched::numa
