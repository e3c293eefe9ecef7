#include "now/sequential_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "config/limits.hpp"
#include "platform/engine.hpp"

namespace cosched::now {

namespace sg4 = simgrid::s4u;

namespace {

constexpr Nanos kNever = std::numeric_limits<Nanos>::max();

// A message on its way: it arrives at `at`. Messages of one instant at one workstation are handled by
// sending workstation, then in the order it sent them (the canonical order of docs/models/now.md 3).
struct Arrival {
  Nanos at;
  int from;
  std::uint64_t sequence;
  Message message;
  bool before(const Arrival& o) const {
    if (at != o.at) return at < o.at;
    if (from != o.from) return from < o.from;
    return sequence < o.sequence;
  }
};

// Each workstation's next event, in blocks of kBlock workstations with the earliest of each block, so
// that a window visits only the blocks with an event in it.
class Wakes {
 public:
  static constexpr int kBlock = 64;
  explicit Wakes(int workstations)
      : wake_(static_cast<std::size_t>(workstations), kNever),
        block_(static_cast<std::size_t>((workstations + kBlock - 1) / kBlock), kNever) {}
  int workstations() const { return static_cast<int>(wake_.size()); }
  int blocks() const { return static_cast<int>(block_.size()); }
  Nanos at(int w) const { return wake_[w]; }
  Nanos block(int b) const { return block_[b]; }
  // The earliest event of all.
  Nanos earliest() const { return *std::min_element(block_.begin(), block_.end()); }
  // An arrival for w at `at`: it can only bring w's next event forward.
  void bring_forward(int w, Nanos at) {
    if (at >= wake_[w]) return;
    wake_[w] = at;
    Nanos& block = block_[block_of(w)];
    block = std::min(block, at);
  }
  // Visiting block b: its earliest is kept up to date by settle() for each of its workstations once
  // visited, and by bring_forward() meanwhile.
  void open_block(int b) { block_[b] = kNever; }
  void settle(int w, Nanos at) {
    wake_[w] = at;
    Nanos& block = block_[block_of(w)];
    block = std::min(block, at);
  }

 private:
  // (Unsigned: a signed division rounds toward zero, which costs four instructions more.)
  static std::size_t block_of(int w) { return static_cast<unsigned>(w) / kBlock; }
  std::vector<Nanos> wake_;   // by workstation; kNever: none
  std::vector<Nanos> block_;  // the earliest of each block's
};

// The messages on their way to one workstation, earliest first in the canonical order: a vector sorted
// by (arrival, sender, sequence) from `head_` on. Messages are put on their way at the end of their
// senders' steps, workstation after workstation, so not quite in arrival order: a new one moves back past
// those already there that arrive after it, which are few, so that pushing and popping cost about
// nothing, where a heap moves its 64-byte entries log n times each way.
class Inbound {
 public:
  // When the front arrives; kNever when there is none. Kept apart from the entries, it is one load from
  // the station, and whether a message arrives before a time one comparison.
  Nanos next() const { return next_; }
  void push(Nanos at, int from, std::uint64_t sequence, const Message& message) {
    if (head_ == items_.size()) {
      // Empty: it starts again from its first entry, which stays in cache.
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    // Filled in place: built as a temporary, the compiler copies the message field by field.
    Arrival& arrival = items_.emplace_back();
    arrival.at = at;
    arrival.from = from;
    arrival.sequence = sequence;
    arrival.message = message;
    for (std::size_t i = items_.size() - 1; i > head_ && items_[i].before(items_[i - 1]); --i)
      std::swap(items_[i], items_[i - 1]);
    next_ = items_[head_].at;
  }
  // Removes the front and returns it (valid until the next push).
  const Message& pop() {
    const Message& message = items_[head_++].message;
    next_ = head_ < items_.size() ? items_[head_].at : kNever;
    return message;
  }

 private:
  // Taken-out entries kept before they are dropped: few, so that a queue stays in a few cache lines rather
  // than moving through kilobytes (a few megabytes over 1024 workstations).
  static constexpr std::size_t kCompactAt = 16;
  std::vector<Arrival> items_;
  std::size_t head_ = 0;  // the first entry not taken out
  Nanos next_ = kNever;   // items_[head_].at, kNever when empty
};

// What the engine keeps of each workstation, together.
struct Station {
  Node* node;
  Inbound inbound;     // the messages on their way to it
  std::uint64_t sent;  // messages it sent
};

class Stepper {
 public:
  // follow_clock: SimGrid's clock follows the model's (the actor's body); otherwise the stepper runs outside
  // SimGrid (drive_without_clock).
  Stepper(PreparedRun& run, const metrics::ProgressSink& progress, bool follow_clock)
      : run_(run), progress_(progress), follow_clock_(follow_clock), wake_(run.workstations()) {
    for (const auto& node : run.nodes) stations_.push_back(Station{node.get(), {}, 0});
  }

  // The actor's body.
  void operator()() {
    const int n = run_.workstations();
    for (int w = 0; w < n; ++w) {
      // Every node sends through the stepper's outbox, emptied after each step: one that stays in cache.
      // (Here, not in the constructor: the actor's body is moved before it runs.)
      stations_[w].node->share_outbox(&outbox_);
      stations_[w].node->start();
      wake_.settle(w, next_event(w, stations_[w]));
    }
    const Nanos quantum = std::max<Nanos>(run_.config->scheduler_params().quantum(), 1);
    const auto started = std::chrono::steady_clock::now();
    Nanos slice_end = 0;
    Nanos last = 0;
    for (Nanos now = wake_.earliest();; now = wake_.earliest()) {
      // An open workload's coordinator decides before the window that starts at or after its events
      // (now/stream.hpp): every workstation has then handled its events before them.
      if (stream_) {
        const Nanos decision = stream_->next_decision();
        if (decision != kNever && decision <= now) {
          coordinate(decision);
          continue;
        }
        if (stream_->stalled())
          throw std::logic_error("NOW stream: jobs wait with nothing running and nothing left to decide");
      }
      if (now == kNever) break;
      // SimGrid's clock follows the model's at every quantum boundary.
      if (now > slice_end) {
        config::limits::check_simulated_time(now, run_.scenario_file, "ns", run_.time_limit_advice());
        if (slice_end > 0 && follow_clock_)
          sg4::this_actor::sleep_until(static_cast<double>(slice_end) * 1e-9);
        if (progress_) report(slice_end, started);
        slice_end = std::max(slice_end + quantum, now);
      }
      last = std::max(last, window(now));
    }
    // ... and exactly at the end.
    if (follow_clock_) sg4::this_actor::sleep_until(static_cast<double>(last) * 1e-9);
  }

 private:
  // The window from `now`, the earliest event of all, to now + the smallest latency (the horizon). Every
  // workstation has handled its events before now, so every message that arrives before the horizon is
  // already on its way, and whatever is sent from now on arrives at the horizon or later: each
  // workstation with an event before the horizon can be stepped to it independently of the others. They
  // are, in index order. Returns the latest instant a step started from.
  Nanos window(Nanos now) {
    const Nanos horizon = now + min_latency_;
    // With a zero smallest latency the window is the instant `now` alone.
    const Nanos before = std::max(horizon, now + 1);
    Nanos latest = now;
    for (int b = 0; b < wake_.blocks(); ++b) {
      if (wake_.block(b) >= before) continue;
      wake_.open_block(b);
      const int end = std::min(wake_.workstations(), (b + 1) * Wakes::kBlock);
      for (int w = b * Wakes::kBlock; w < end; ++w) {
        const Nanos at = wake_.at(w);
        if (at < before) {
          latest = std::max(latest, at);
          step(w, horizon, before);
        } else {
          wake_.settle(w, at);
        }
      }
    }
    return latest;
  }

  // Workstation w's events up to the horizon: each message arriving before `before` (the horizon, or
  // just after now when it is now) in turn, after the timers of its instant, in canonical order; then
  // its own events up to the horizon, timers at the horizon included. A message arriving at the horizon
  // waits for the next window (it may still have company from a workstation not yet stepped); none on
  // its way arrives earlier. What it sends leaves at the end of each send, arriving after the route's
  // delay; none is for w itself, since a job has one process per workstation.
  void step(int w, Nanos horizon, Nanos before) {
    Station& station = stations_[w];
    Node& node = *station.node;
    auto& inbound = station.inbound;
    if (stream_) {
      step_stream(w, station, before);
    } else {
      while (inbound.next() < before) {
        const Nanos at = inbound.next();
        node.advance(at);
        do node.deliver(at, inbound.pop());
        while (inbound.next() == at);
      }
    }
    node.run_ahead(horizon);
    post(w, station);
    wake_.settle(w, next_event(w, station));
  }

  // An open workload's step: the starts of the stream's jobs on w are events too. At one instant, the
  // node's timers, then the starts, then the messages (docs/models/now-streams.md section 5.3).
  void step_stream(int w, Station& station, Nanos before) {
    Node& node = *station.node;
    auto& inbound = station.inbound;
    for (;;) {
      const Nanos at = std::min(inbound.next(), stream_->next_start(w));
      if (at >= before) return;
      node.advance(at);
      while (stream_->next_start(w) == at) {
        const ProcessStart start = stream_->pop_start(w);
        node.stream_event(start.job, start.rank, at);
      }
      while (inbound.next() == at) node.deliver(at, inbound.pop());
    }
  }

  // The coordinator's events at `now`: the starts it decides become events of their workstations.
  void coordinate(Nanos now) {
    for (int w : stream_->decide(now)) wake_.bring_forward(w, stream_->next_start(w));
  }

  // Puts the messages workstation w sent on their way, in the order they left.
  void post(int w, Station& from) {
    for (const auto& envelope : outbox_) {
      const int to = envelope.workstation;
      const Nanos at = envelope.leaves + run_.platform.delay(w, to);
      stations_[to].inbound.push(at, w, from.sent++, envelope.message);
      wake_.bring_forward(to, at);
    }
    outbox_.clear();
  }

  // The time of workstation w's next event; none once it has finished (and no job is to start there).
  Nanos next_event(int w, const Station& station) const {
    const Node& node = *station.node;
    Nanos next = station.inbound.next();
    if (!node.finished()) {
      const Nanos timer = node.next_timer_time();
      if (timer >= 0 && timer < next) next = timer;
    }
    if (stream_) next = std::min(next, stream_->next_start(w));
    return next;
  }

  void report(Nanos now, std::chrono::steady_clock::time_point started) {
    std::int64_t messages = 0;
    for (const auto& station : stations_) messages += static_cast<std::int64_t>(station.sent);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // The simulated time, and the speed in messages per wall second.
    progress_(
        {fmt::format("{:.3f} s at {:.2f} M messages/s", static_cast<double>(now) * 1e-9,
                     wall > 0 ? static_cast<double>(messages) / wall * 1e-6 : 0.0),
         static_cast<double>(run_.tracker->barriers_passed()) / static_cast<double>(run_.total_barriers)});
  }

  PreparedRun& run_;
  Stream* stream_ = run_.stream.get();  // an open workload's; null for a closed one
  const metrics::ProgressSink& progress_;
  const bool follow_clock_;
  const Nanos min_latency_ = run_.platform.min_latency;
  std::vector<Station> stations_;  // by workstation
  std::vector<Envelope> outbox_;   // every node's, emptied after each step
  Wakes wake_;
};

}  // namespace

void drive_sequentially(PreparedRun& run, const metrics::ProgressSink& progress) {
  // The actor lives on the first workstation's host; it moves no data, so where does not matter.
  sg4::Actor::create("now-sequential", run.platform.workstations[0],
                     platform::guarded(Stepper(run, progress, true)));
  run.engine->run();
  platform::rethrow_actor_error();
}

void drive_without_clock(PreparedRun& run) {
  Stepper(run, {}, false)();
}

}  // namespace cosched::now
