#include "now/delivery.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace cosched::now {

namespace sg4 = simgrid::s4u;

Nanos simulated_now() { return static_cast<Nanos>(std::llround(sg4::Engine::get_clock() * 1e9)); }

namespace {

// What travels in a SimGrid communication: the message and the lower bound of its arrival time.
struct Parcel {
  Message message;
  Nanos earliest_arrival;
  int from;               // sending workstation
  std::uint64_t sequence;  // its count of messages sent
  bool operator<(const Parcel& other) const {
    return from != other.from ? from < other.from : sequence < other.sequence;
  }
};

class MailboxDelivery final : public MessageDelivery {
 public:
  MailboxDelivery(int workstations, Nanos min_latency) : ports_(workstations), min_latency_(min_latency) {
    for (int w = 0; w < workstations; ++w) ports_[w].mailbox = sg4::Mailbox::by_name("ws-" + std::to_string(w));
  }

  void send(int from, const Envelope& envelope) override {
    auto& port = ports_[envelope.workstation];
    auto* parcel = new Parcel{envelope.message, simulated_now() + min_latency_, from, ports_[from].sent++};
    port.in_flight.insert(parcel->earliest_arrival);
    port.mailbox->put_init(parcel, kMessageBytes)->detach();
  }

  Nanos horizon(int at) const override {
    const auto& in_flight = ports_[at].in_flight;
    const Nanos unsent = simulated_now() + min_latency_;
    return in_flight.empty() ? unsent : std::min(unsent, *in_flight.begin());
  }

  std::vector<Message> receive(int at, std::optional<Nanos> deadline) override {
    auto& port = ports_[at];
    double timeout = -1;
    if (deadline) timeout = std::max(0.0, static_cast<double>(*deadline) * 1e-9 - sg4::Engine::get_clock());
    std::vector<Parcel> arrived;
    // The first wait may block; then collect whatever else arrived in the same nanosecond.
    for (;;) {
      if (!port.pending) {
        port.mailbox->set_receiver(sg4::Actor::self());
        port.pending = port.mailbox->get_async<Parcel>(&port.buffer);
        port.waiting.assign(1, port.pending);
      }
      if (sg4::Comm::wait_any_for(port.waiting, arrived.empty() ? timeout : 0.0) < 0) break;
      port.pending = nullptr;
      arrived.push_back(*port.buffer);
      port.in_flight.erase(port.in_flight.find(port.buffer->earliest_arrival));
      delete port.buffer;
    }
    std::sort(arrived.begin(), arrived.end());
    std::vector<Message> messages;
    messages.reserve(arrived.size());
    for (const auto& parcel : arrived) messages.push_back(parcel.message);
    return messages;
  }

  void close(int at) override {
    auto& port = ports_[at];
    if (port.pending) port.pending->cancel();
    port.pending = nullptr;
    port.mailbox->set_receiver(nullptr);
  }

 private:
  struct Port {
    sg4::Mailbox* mailbox = nullptr;
    sg4::CommPtr pending;
    std::vector<sg4::CommPtr> waiting;  // {pending}, kept to avoid building a vector per wait
    Parcel* buffer = nullptr;
    std::multiset<Nanos> in_flight;     // earliest arrivals of the messages on their way here
    std::uint64_t sent = 0;             // messages this workstation sent
  };
  std::vector<Port> ports_;
  Nanos min_latency_;
};

}  // namespace

std::unique_ptr<MessageDelivery> make_mailbox_delivery(int workstations, Nanos min_latency) {
  return std::make_unique<MailboxDelivery>(workstations, min_latency);
}

}  // namespace cosched::now
