#include "now/delivery.hpp"

#include <simgrid/s4u.hpp>

#include <cmath>
#include <string>

namespace cosched::now {

namespace sg4 = simgrid::s4u;

Nanos simulated_now() { return static_cast<Nanos>(std::llround(sg4::Engine::get_clock() * 1e9)); }

namespace {

class MailboxDelivery final : public MessageDelivery {
 public:
  explicit MailboxDelivery(int workstations) : ports_(workstations) {
    for (int w = 0; w < workstations; ++w) ports_[w].mailbox = sg4::Mailbox::by_name("ws-" + std::to_string(w));
  }

  void send(int, const Envelope& envelope) override {
    ports_[envelope.workstation].mailbox->put_init(new Message(envelope.message), kMessageBytes)->detach();
  }

  std::optional<Message> receive(int at, std::optional<Nanos> deadline) override {
    auto& port = ports_[at];
    if (!port.pending) {
      port.mailbox->set_receiver(sg4::Actor::self());
      port.pending = port.mailbox->get_async<Message>(&port.buffer);
    }
    double timeout = -1;
    if (deadline) timeout = std::max(0.0, static_cast<double>(*deadline) * 1e-9 - sg4::Engine::get_clock());
    if (sg4::Comm::wait_any_for({port.pending}, timeout) < 0) return std::nullopt;
    Message message = *port.buffer;
    delete port.buffer;
    port.pending = nullptr;
    return message;
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
    Message* buffer = nullptr;
  };
  std::vector<Port> ports_;
};

}  // namespace

std::unique_ptr<MessageDelivery> make_mailbox_delivery(int workstations) {
  return std::make_unique<MailboxDelivery>(workstations);
}

}  // namespace cosched::now
