#pragma once
// How messages travel between workstations. The one implementation today puts each message on the
// SimGrid network through the destination workstation's mailbox; a faster path must give identical
// results behind the same interface.

#include <memory>
#include <optional>
#include <vector>

#include "now/message.hpp"

namespace cosched::now {

using Nanos = std::int64_t;

class MessageDelivery {
 public:
  virtual ~MessageDelivery() = default;
  // Called by workstation `from`'s actor at the simulated instant the message leaves.
  virtual void send(int from, const Envelope& envelope) = 0;
  // Called by workstation `at`'s actor: waits until a message for it arrives or the simulated time reaches
  // `deadline` (forever if none); returns the message, or nothing at the deadline.
  virtual std::optional<Message> receive(int at, std::optional<Nanos> deadline) = 0;
  // The workstation's actor is done.
  virtual void close(int at) = 0;
};

// Simulated time now, in whole nanoseconds.
Nanos simulated_now();

// Messages as detached SimGrid communications of kMessageBytes to per-workstation mailboxes with the
// workstation's actor as permanent receiver (so a transfer starts when the message is sent).
std::unique_ptr<MessageDelivery> make_mailbox_delivery(int workstations);

}  // namespace cosched::now
