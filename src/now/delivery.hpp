#pragma once
// How messages travel between workstations. The one implementation today puts each message on the
// SimGrid network through the destination workstation's mailbox; a faster path must give identical
// results behind the same interface.

#include <simgrid/forward.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "message/now_message.hpp"

namespace cosched::now {

using Nanos = std::int64_t;

class MessageDelivery {
 public:
  virtual ~MessageDelivery() = default;
  // Called by workstation `at`'s actor before anything else: from then on messages to it travel.
  virtual void open(int at) = 0;
  // Called by workstation `from`'s actor at the simulated instant the message leaves.
  virtual void send(int from, const Envelope& envelope) = 0;
  // Called by workstation `at`'s actor: waits until messages for it arrive or the simulated time reaches
  // `deadline` (forever if none). Returns the messages that arrived in that nanosecond, in a canonical
  // order (sending workstation, then the order it sent them) that does not depend on the order SimGrid
  // ran the senders in; nothing at the deadline.
  virtual std::vector<Message> receive(int at, std::optional<Nanos> deadline) = 0;
  // The same, returning nothing as soon as another actor cancels `interrupt` (an execution the caller
  // started and never lets end): how an open workload's coordinator wakes a workstation at once.
  virtual std::vector<Message> receive(int at, std::optional<Nanos> deadline,
                                       const simgrid::s4u::ExecPtr& interrupt) = 0;
  // The workstation's actor is done.
  virtual void close(int at) = 0;
  // No message can arrive at workstation `at` before this time: the earliest arrival of the messages in
  // flight to it, and now + the smallest latency for those not sent yet. Lets the actor process the
  // node's internal events up to there without asking SimGrid.
  virtual Nanos horizon(int at) const = 0;
};

// Simulated time now, in whole nanoseconds: SimGrid's clock (seconds, a double) rounded to the nearest one.
Nanos simulated_now();
// The one test of whether the simulated time has reached `at`, in the domain every actor compares in:
// simulated_now() >= at.
bool reached(Nanos at);
// The earliest clock value (seconds) at which reached(at) holds: at x 1e-9, or the next double above it
// when that one rounds below `at`. Beyond 2^23 s (8.4e6 s) the clock's step exceeds 1.86 ns and
// fl(at x 1e-9) x 1e9 can round to at - 1; waiting until fl(at x 1e-9) alone would then return without
// the time reaching `at`, and an actor that waits again for `at` would spin at the same instant.
// Pure (no engine), inline so that unit tests reach it.
inline double clock_reaching(Nanos at) {
  double date = static_cast<double>(at) * 1e-9;
  while (std::llround(date * 1e9) < at) date = std::nextafter(date, std::numeric_limits<double>::infinity());
  return date;
}
// Sleeps the calling actor until reached(at).
void sleep_until_reached(Nanos at);

// Messages as detached SimGrid communications of kMessageBytes to mailboxes whose permanent receiver is
// the destination's actor, so that a transfer starts when the message is sent. SimGrid hands a mailbox's
// messages over in the order they were sent; so that a message never waits behind one that is slower to
// arrive, each (sender, receiver) pair has its own mailbox, unless `arrive_in_send_order` (every route
// has the same latency and a send's overhead exceeds a message's transfer time), when one mailbox per
// receiver gives the same results faster. `senders[w]`: the workstations that may send to w.
// `min_latency`: the smallest one-way latency between workstations. `rate`, if given: the rate bound
// (bytes/s) of a transfer from one workstation to another (platform::NowPlatform::rate; -1: none).
using RouteRate = std::function<double(int from, int to)>;
std::unique_ptr<MessageDelivery> make_mailbox_delivery(const std::vector<std::vector<int>>& senders,
                                                       Nanos min_latency, bool arrive_in_send_order,
                                                       RouteRate rate = {});

}  // namespace cosched::now
