// platform.network: shared (docs/models/numa.md section 2): SimGrid's flow model moves the messages. A
// message is one host-to-host communication of its kind's size over the route SimGrid reads from the
// platform, sharing each link's bandwidth with the messages on it at the same moment (CM02 without
// correction factors, platform::configure_network_model). Unlike the hop model of thesis 4.2.2 it has
// no store-and-forward (a message crosses all its links at once, cut-through) and no buffers (nothing
// ever blocks): see the documentation for what that changes.

#include <algorithm>
#include <cmath>
#include <queue>
#include <simgrid/s4u.hpp>

#include "numa/network.hpp"

namespace cosched::numa {
namespace {

namespace sg4 = simgrid::s4u;

// SimGrid's clock is in seconds, a double: a page that takes exactly 50 clocks may end just after the 50th
// (sent at clock 64,570,078, it ends 7.5e-9 clock late; the tests have it). A completion within this much
// of a clock counts as at that clock; later, as at the next clock.
constexpr double kClockTolerance = 1e-6;

class SharedNetwork final : public Network {
 public:
  SharedNetwork(const platform::NumaTopology& topology, const config::NumaConfig& numa)
      : topology_(topology),
        bytes_(message_bytes(numa)),
        clock_hz_(numa.clock_hz),
        traffic_(topology.levels) {}

  ~SharedNetwork() override {
    // Communications left in flight would keep SimGrid's clock running after the model's end.
    if (sg4::Actor::self() != nullptr)
      for (auto& comm : comms_) comm->cancel();
  }

  void send(const Message& m, Clock now) override {
    const double start = static_cast<double>(now) / clock_hz_;
    if (sg4::Engine::get_clock() < start) sg4::this_actor::sleep_until(start);
    const int bytes = bytes_[static_cast<std::size_t>(m.kind)];
    count_hops(m, bytes);
    const std::uint64_t order = sent_++;
    if (m.from == m.to) {  // no link to cross
      ready_.push({now, start, order, m});
      return;
    }
    comms_.push_back(sg4::Comm::sendto_async(topology_.clusters[m.from], topology_.clusters[m.to],
                                             static_cast<std::uint64_t>(bytes)));
    pending_.push_back({m, order});
  }

  std::optional<Delivery> next_delivery(Clock limit) override {
    if (comms_.empty() && ready_.empty()) return std::nullopt;
    collect_finished();
    // A message still in flight ends after every collected one, at a clock no earlier: the first
    // collected message is the next delivery.
    if (ready_.empty() && !comms_.empty()) {
      const double timeout = static_cast<double>(limit) / clock_hz_ - sg4::Engine::get_clock();
      if (timeout > 0) {
        const ssize_t finished = sg4::Comm::wait_any_for(comms_, timeout);
        if (finished >= 0) take(static_cast<std::size_t>(finished));
        collect_finished();  // the others ending at the same instant
      }
    }
    if (ready_.empty() || ready_.top().at > limit) return std::nullopt;
    Delivery out{ready_.top().at, ready_.top().message};
    ready_.pop();
    return out;
  }

  std::int64_t in_flight() const override { return static_cast<std::int64_t>(comms_.size() + ready_.size()); }

  // Hops and bytes per level, counted when a message is sent (its whole route is then in use); the flow
  // model neither queues nor blocks, so those stay 0.
  std::vector<LevelTraffic> traffic() const override { return traffic_; }

 private:
  struct Pending {
    Message message;
    std::uint64_t order;  // the send's rank, for ties
  };
  struct Finished {
    Clock at;
    double seconds;  // SimGrid's completion time
    std::uint64_t order;
    Message message;
    // Deliveries in order of clock, then of completion, then of sending: a fixed order.
    bool operator>(const Finished& other) const {
      if (at != other.at) return at > other.at;
      if (seconds != other.seconds) return seconds > other.seconds;
      return order > other.order;
    }
  };

  // A message SimGrid completes at t seconds is delivered at the first clock at or after it:
  // ceil(t * clock_hz), less kClockTolerance for the rounding of t.
  Clock clock_of(double seconds) const {
    return static_cast<Clock>(std::ceil(seconds * clock_hz_ - kClockTolerance));
  }

  void take(std::size_t i) {
    const double seconds = comms_[i]->get_finish_time();
    ready_.push({clock_of(seconds), seconds, pending_[i].order, pending_[i].message});
    comms_.erase(comms_.begin() + static_cast<std::ptrdiff_t>(i));
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  // Messages SimGrid has completed (during a wait, or while the sender slept to a later send).
  void collect_finished() {
    for (ssize_t i; !comms_.empty() && (i = sg4::Comm::test_any(comms_)) >= 0;)
      take(static_cast<std::size_t>(i));
  }

  void count_hops(const Message& m, int bytes) {
    const int height = topology_.height_of_lca(m.from, m.to);
    const auto kind = static_cast<std::size_t>(m.kind);
    for (int k = 0; k < height; ++k) {
      for (int port : {topology_.up[m.from][k], topology_.down[m.to][k]}) {
        auto& level = traffic_[topology_.ports[port].level - 1];
        ++level.hops[kind];
        level.bytes += bytes;
      }
    }
  }

  platform::NumaTopology topology_;
  std::array<int, kMessageKinds> bytes_;
  double clock_hz_;
  std::vector<sg4::CommPtr> comms_;  // in flight, in the order they were sent
  std::vector<Pending> pending_;     // the message of each
  std::priority_queue<Finished, std::vector<Finished>, std::greater<>> ready_;
  std::uint64_t sent_ = 0;
  std::vector<LevelTraffic> traffic_;
};

}  // namespace

std::unique_ptr<Network> make_shared_network(const platform::NumaTopology& topology,
                                             const config::NumaConfig& numa) {
  return std::make_unique<SharedNetwork>(topology, numa);
}

}  // namespace cosched::numa
