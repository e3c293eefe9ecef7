#pragma once
// Messages between the processes of a parallel job on the NOW: Split-C reads over Active Messages and
// barrier messages (Brim & Miller 3.1-3.2). One small struct; the kind says what it is.

#include <cstdint>

namespace cosched::now {

struct Message {
  enum class Kind : std::uint8_t {
    ReadRequest,     // a remote read: the receiver's handler replies
    ReadReply,       // the data of a read
    BarrierArrival,  // "I reached barrier `barrier`" (to the root, or to everybody in all-to-all; in a
                     // registration tree, to the parent: "I and my subtree reached it")
    BarrierNotice,   // the root's completion notice for barrier `barrier`
    // The root's reply to an arrival (informed waiting, B&M 3.3): `arrived` and `elapsed` say how many
    // processes had arrived at barrier `barrier` and for how long it had been open, as the root knew.
    BarrierReply,
    Wakeup,     // a prefetching wake-up (wait.prefetch, B&M 4): the sender will read from the receiver soon
    KeepAlive,  // the root's keep-alive during barrier `barrier` (B&M 3.4): no content
  };
  Kind kind = Kind::ReadRequest;
  std::int32_t job = 0;      // job instance
  std::int32_t from = 0;     // sender's rank in the job
  std::int32_t to = 0;       // receiver's rank in the job
  std::int32_t barrier = 0;  // barrier index, for barrier messages
  // Diagnostics only (no effect on the run): for a read request, the state the partner was in when it
  // arrived, and for its reply, the same value sent back (a PartnerState).
  std::uint8_t partner = 0;
  std::int32_t arrived = 0;  // BarrierReply: processes arrived at the barrier, the root included
  std::int64_t elapsed = 0;  // BarrierReply: ns since the root first knew of an arrival at it
  // Traces only (output.trace_messages; no effect on the run): the message's id in the run's
  // metrics::MessageRecorder, -1 when not recorded. Last, so that positional initializers keep their meaning.
  std::int32_t trace_id = -1;
};

// The state of a read's partner when the request reached it.
enum class PartnerState : std::uint8_t { Running, Ready, Blocked };
inline constexpr int kPartnerStates = 3;

// A message leaving a workstation, for the process `message.to` on `workstation`.
struct Envelope {
  int workstation = 0;
  Message message;
  std::int64_t leaves = 0;  // in a node's outbox: the instant its send ended (ns)
};

// Every message is this many bytes on the wire (Brim & Miller 3.2: one-byte barrier messages).
inline constexpr std::uint64_t kMessageBytes = 1;

}  // namespace cosched::now
