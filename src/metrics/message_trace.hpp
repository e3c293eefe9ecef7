#pragma once
// Messages for the traces (scenario key output.trace_messages, docs/scenario-format.md "Traces"): a model
// that has messages (NOW, NUMA) tells the recorder when each one leaves its sender's place and when it
// reaches its receiver's; the traces draw a link (Paje) or a flow (Chrome) per message. Only diagnostics:
// nothing of the run reads it, so a run's results are the same with it on or off. A model holds a null
// pointer when messages are not traced, and tests that before each call.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cosched::metrics {

// One message, in the timeline's unit (NOW nanoseconds, NUMA clocks).
struct TraceMessage {
  int from = 0;  // the sender's place (workstation, cluster)
  int to = 0;    // the receiver's place
  int kind = 0;  // an index into the model's message kind names
  std::int64_t sent = 0;
  std::int64_t arrived = 0;
  bool operator==(const TraceMessage&) const = default;
};

// The messages a trace draws, with the names of their kinds.
struct TraceMessages {
  std::vector<TraceMessage> messages;
  std::vector<std::string> kinds;
};

class MessageRecorder {
 public:
  // Keeps the messages sent at or after window->first that arrive at or before window->second (all of them
  // without a window).
  explicit MessageRecorder(std::optional<std::pair<std::int64_t, std::int64_t>> window = std::nullopt)
      : window_(window) {}

  // A message leaves `from` for `to` at `time`. Returns the id to give arrived(), -1 when it is not kept
  // (sent outside the window): arrived() then ignores it.
  std::int64_t sent(int from, int to, int kind, std::int64_t time) {
    if (window_ && (time < window_->first || time >= window_->second)) return -1;
    messages_.push_back({from, to, kind, time, -1});
    return static_cast<std::int64_t>(messages_.size()) - 1;
  }
  // The message `id` (from sent()) reached its receiver at `time`.
  void arrived(std::int64_t id, std::int64_t time) {
    if (id >= 0) messages_[static_cast<std::size_t>(id)].arrived = time;
  }

  // The messages kept that arrived (within the window), sorted by send time, sender, receiver, kind and
  // arrival: an order that does not depend on the order the model processed one instant's events in.
  std::vector<TraceMessage> messages() const;

 private:
  std::optional<std::pair<std::int64_t, std::int64_t>> window_;
  std::vector<TraceMessage> messages_;  // arrived = -1 while in flight
};

}  // namespace cosched::metrics
