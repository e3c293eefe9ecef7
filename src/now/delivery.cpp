#include "now/delivery.hpp"

#include <algorithm>
#include <cmath>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace cosched::now {

namespace sg4 = simgrid::s4u;

Nanos simulated_now() {
  return static_cast<Nanos>(std::llround(sg4::Engine::get_clock() * 1e9));
}

bool reached(Nanos at) {
  return simulated_now() >= at;
}

void sleep_until_reached(Nanos at) {
  // SimGrid sleeps for (date - clock) from the clock: the sum can land a step short of `date`; the next
  // round's step is then exact.
  while (!reached(at)) sg4::this_actor::sleep_until(clock_reaching(at));
}

namespace {

// What travels in a SimGrid communication: the message and the lower bound of its arrival time.
struct Parcel {
  Message message;
  Nanos earliest_arrival;
  int from;                // sending workstation
  std::uint64_t sequence;  // its count of messages sent
  bool operator<(const Parcel& other) const {
    return from != other.from ? from < other.from : sequence < other.sequence;
  }
};

class MailboxDelivery final : public MessageDelivery {
 public:
  MailboxDelivery(const std::vector<std::vector<int>>& senders, Nanos min_latency, bool arrive_in_send_order,
                  RouteRate rate)
      : ports_(senders.size()), min_latency_(min_latency), rate_(std::move(rate)) {
    for (std::size_t to = 0; to < senders.size(); ++to) {
      auto& port = ports_[to];
      port.channel_of.assign(senders.size(), -1);
      for (int from : senders[to]) {
        if (port.channel_of[from] >= 0) continue;
        if (arrive_in_send_order && !port.channels.empty()) {
          port.channel_of[from] = 0;
          continue;
        }
        port.channel_of[from] = static_cast<int>(port.channels.size());
        const std::string name = arrive_in_send_order
                                     ? "ws-" + std::to_string(to)
                                     : "ws-" + std::to_string(to) + "<-" + std::to_string(from);
        port.channels.push_back(Channel{sg4::Mailbox::by_name(name), nullptr});
      }
      port.waiting.resize(port.channels.size());
    }
  }

  void open(int at) override {
    auto& port = ports_[at];
    for (std::size_t c = 0; c < port.channels.size(); ++c) {
      port.channels[c].mailbox->set_receiver(sg4::Actor::self());
      post(port, c);
    }
  }

  void send(int from, const Envelope& envelope) override {
    auto& port = ports_[envelope.workstation];
    const int channel = port.channel_of[from];
    if (channel < 0)
      throw std::logic_error("NOW delivery: a message between workstations declared not to talk");
    auto* parcel = new Parcel{envelope.message, simulated_now() + min_latency_, from, ports_[from].sent++};
    port.in_flight.insert(parcel->earliest_arrival);
    auto comm = port.channels[channel].mailbox->put_init(parcel, kMessageBytes);
    if (rate_) comm->set_rate(rate_(from, envelope.workstation));
    comm->detach();
  }

  Nanos horizon(int at) const override {
    const auto& in_flight = ports_[at].in_flight;
    const Nanos unsent = simulated_now() + min_latency_;
    return in_flight.empty() ? unsent : std::min(unsent, *in_flight.begin());
  }

  std::vector<Message> receive(int at, std::optional<Nanos> deadline) override {
    auto& port = ports_[at];
    const ssize_t index = sg4::Comm::wait_any_for(port.waiting, timeout_until(deadline));
    if (index < 0) return {};
    return receive_rest(port, static_cast<std::size_t>(index));
  }

  std::vector<Message> receive(int at, std::optional<Nanos> deadline,
                               const sg4::ExecPtr& interrupt) override {
    auto& port = ports_[at];
    std::vector<sg4::ActivityPtr> activities(port.waiting.begin(), port.waiting.end());
    activities.push_back(interrupt);
    ssize_t index = -1;
    try {
      index = sg4::Activity::wait_any_for(activities, timeout_until(deadline));
    } catch (const simgrid::CancelException&) {
      return {};  // woken
    }
    if (index < 0 || static_cast<std::size_t>(index) >= port.waiting.size()) return {};
    return receive_rest(port, static_cast<std::size_t>(index));
  }

  void close(int at) override {
    auto& port = ports_[at];
    for (auto& channel : port.channels) {
      if (channel.pending) channel.pending->cancel();
      channel.pending = nullptr;
      channel.mailbox->set_receiver(nullptr);
    }
  }

 private:
  struct Channel {
    sg4::Mailbox* mailbox = nullptr;  // messages from one sender to this workstation
    sg4::CommPtr pending;             // the receive posted on it
    Parcel* buffer = nullptr;
  };
  struct Port {
    std::vector<Channel> channels;
    std::vector<int> channel_of;        // by sending workstation; -1: it never sends here
    std::vector<sg4::CommPtr> waiting;  // the channels' pending receives, for wait_any
    std::multiset<Nanos> in_flight;     // earliest arrivals of the messages on their way here
    std::uint64_t sent = 0;             // messages this workstation sent
  };

  static void post(Port& port, std::size_t c) {
    auto& channel = port.channels[c];
    channel.pending = channel.mailbox->get_async<Parcel>(&channel.buffer);
    port.waiting[c] = channel.pending;
  }

  static void collect(Port& port, std::size_t c, std::vector<Parcel>& arrived) {
    Parcel* parcel = port.channels[c].buffer;
    arrived.push_back(*parcel);
    port.in_flight.erase(port.in_flight.find(parcel->earliest_arrival));
    delete parcel;
    post(port, c);
  }

  static double timeout_until(std::optional<Nanos> deadline) {
    if (!deadline) return -1;
    // Positive whenever the deadline is not reached (clock_reaching): a timeout of 0 before it would make
    // the waiting actor ask again at the same instant forever.
    return std::max(0.0, clock_reaching(*deadline) - sg4::Engine::get_clock());
  }

  // After the message of channel `index` arrived: every other message of its nanosecond, sorted.
  std::vector<Message> receive_rest(Port& port, std::size_t first) {
    std::vector<Parcel> arrived;
    collect(port, first, arrived);
    ssize_t index = -1;
    // Every message of this nanosecond, whatever SimGrid's sub-nanosecond order: as long as some message
    // still in flight could arrive in it, wait until just before the next nanosecond.
    const Nanos now = simulated_now();
    while (!port.in_flight.empty() && *port.in_flight.begin() <= now) {
      const double rest = std::max(0.0, (static_cast<double>(now) + 0.4) * 1e-9 - sg4::Engine::get_clock());
      index = sg4::Comm::wait_any_for(port.waiting, rest);
      // SimGrid may end a transfer at the very instant of the timeout and report the timeout first.
      if (index < 0) index = sg4::Comm::test_any(port.waiting);
      if (index < 0) break;
      collect(port, static_cast<std::size_t>(index), arrived);
    }
    std::sort(arrived.begin(), arrived.end());
    std::vector<Message> messages;
    messages.reserve(arrived.size());
    for (const auto& parcel : arrived) messages.push_back(parcel.message);
    return messages;
  }

  std::vector<Port> ports_;
  Nanos min_latency_;
  RouteRate rate_;
};

}  // namespace

std::unique_ptr<MessageDelivery> make_mailbox_delivery(const std::vector<std::vector<int>>& senders,
                                                       Nanos min_latency, bool arrive_in_send_order,
                                                       RouteRate rate) {
  return std::make_unique<MailboxDelivery>(senders, min_latency, arrive_in_send_order, std::move(rate));
}

}  // namespace cosched::now
