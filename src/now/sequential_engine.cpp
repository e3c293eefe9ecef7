#include "now/sequential_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

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
  // For a min-heap with std::push_heap: "a < b" when a comes after b.
  bool operator<(const Arrival& o) const {
    if (at != o.at) return at > o.at;
    if (from != o.from) return from > o.from;
    return sequence > o.sequence;
  }
};

// The workstations by the time of their next event (ties by workstation index): a binary heap that knows
// where each workstation is, so that its key can change in place. Entries hold their keys; four children
// per entry make it shallow (fewer cache misses with a thousand workstations).
class WakeHeap {
 public:
  explicit WakeHeap(int workstations) : position_(workstations, -1), wake_(workstations, kNever) {}
  bool empty() const { return heap_.empty(); }
  Nanos wake(int w) const { return wake_[w]; }
  int top() const { return heap_.front().w; }
  Nanos top_time() const { return heap_.front().at; }
  // Sets workstation w's next event (kNever: none).
  void set(int w, Nanos at) {
    if (position_[w] < 0) {
      if (at == kNever) return;
      wake_[w] = at;
      heap_.push_back({at, w});
      up(static_cast<int>(heap_.size()) - 1, {at, w});
      return;
    }
    if (at == kNever) {
      remove(w);
      return;
    }
    const Nanos before = wake_[w];
    wake_[w] = at;
    if (at < before) {
      up(position_[w], {at, w});
    } else if (at > before) {
      down(position_[w], {at, w});
    }
  }

 private:
  static constexpr int kArity = 4;
  struct Entry {
    Nanos at;
    int w;
    bool operator<(const Entry& o) const { return at != o.at ? at < o.at : w < o.w; }
  };
  void place(int i, Entry e) {
    heap_[i] = e;
    position_[e.w] = i;
  }
  void up(int i, Entry e) {
    while (i > 0) {
      const int parent = (i - 1) / kArity;
      if (!(e < heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  void down(int i, Entry e) {
    const int n = static_cast<int>(heap_.size());
    for (;;) {
      const int first = kArity * i + 1;
      if (first >= n) break;
      int child = first;
      const int end = std::min(first + kArity, n);
      for (int c = first + 1; c < end; ++c)
        if (heap_[c] < heap_[child]) child = c;
      if (!(heap_[child] < e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }
  void remove(int w) {
    const int i = position_[w];
    const Entry last = heap_.back();
    heap_.pop_back();
    position_[w] = -1;
    wake_[w] = kNever;
    if (last.w == w) return;
    up(i, last);
    down(position_[last.w], last);
  }

  std::vector<Entry> heap_;
  std::vector<int> position_;  // index in heap_, -1 when absent
  std::vector<Nanos> wake_;
};

// The messages on their way to one workstation, earliest first in the canonical order. When every route
// has the same positive delay, messages are sent in time order (the stepper's order) and a workstation's
// messages of one instant in its sending order, by sender index at equal times: they then arrive in
// exactly that order and a FIFO suffices; otherwise a heap sorts them.
class Inbound {
 public:
  bool empty() const { return head_ == items_.size(); }
  const Arrival& front() const { return fifo_ ? items_[head_] : items_.front(); }
  void set_fifo(bool fifo) { fifo_ = fifo; }
  void push(const Arrival& arrival) {
    items_.push_back(arrival);
    if (!fifo_) std::push_heap(items_.begin(), items_.end());
  }
  // Removes the front and returns it.
  Message pop() {
    if (fifo_) {
      const Message message = items_[head_++].message;
      if (head_ == items_.size()) {
        items_.clear();
        head_ = 0;
      } else if (head_ >= 1024 && head_ * 2 >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
      return message;
    }
    std::pop_heap(items_.begin(), items_.end());
    const Message message = items_.back().message;
    items_.pop_back();
    return message;
  }

 private:
  std::vector<Arrival> items_;
  std::size_t head_ = 0;  // FIFO: the first not yet delivered (always 0 for a heap)
  bool fifo_ = false;
};

class Stepper {
 public:
  Stepper(PreparedRun& run, const metrics::ProgressSink& progress)
      : run_(run),
        progress_(progress),
        inbound_(run.workstations()),
        sent_(run.workstations(), 0),
        wake_(run.workstations()) {
    const bool fifo = run.platform.uniform_delay > 0;
    for (auto& inbound : inbound_) inbound.set_fifo(fifo);
  }

  // The actor's body.
  void operator()() {
    const int n = run_.workstations();
    for (int w = 0; w < n; ++w) {
      Node& node = *run_.nodes[w];
      node.start();
      reschedule(w);
    }
    const Nanos quantum = std::max<Nanos>(run_.config->quantum, 1);
    const auto started = std::chrono::steady_clock::now();
    Nanos slice_end = 0;
    Nanos last = 0;
    while (!wake_.empty()) {
      // SimGrid's clock follows the model's at every quantum boundary.
      if (wake_.top_time() > slice_end) {
        config::limits::check_simulated_time(wake_.top_time(), run_.scenario_file, "ns");
        if (slice_end > 0) sg4::this_actor::sleep_until(static_cast<double>(slice_end) * 1e-9);
        if (progress_) report(slice_end, started);
        slice_end = std::max(slice_end + quantum, wake_.top_time());
      }
      last = wake_.top_time();
      step(wake_.top(), last);
    }
    // ... and exactly at the end.
    sg4::this_actor::sleep_until(static_cast<double>(last) * 1e-9);
  }

 private:
  // Workstation w's events at `now`: its timers due, then the messages arriving now, in canonical order;
  // what it sends leaves now and arrives after the route's delay.
  void step(int w, Nanos now) {
    Node& node = *run_.nodes[w];
    node.advance(now);
    auto& inbound = inbound_[w];
    while (!inbound.empty() && inbound.front().at == now) node.deliver(now, inbound.pop());
    for (const auto& envelope : node.outbox()) {
      const int to = envelope.workstation;
      const Nanos at = now + run_.platform.delay(w, to);
      inbound_[to].push(Arrival{at, w, sent_[w]++, envelope.message});
      // An arrival can only bring the destination's next event forward.
      if (at < wake_.wake(to)) wake_.set(to, at);
    }
    node.outbox().clear();
    // No message can reach w before its first one on the way, nor before now + the smallest latency (all
    // the others send at now or later): its internal events up to there need no step of their own. Only a
    // send stops it early, to leave at its exact time in a step (as the simgrid engine's lookahead).
    const Nanos horizon = std::min(inbound.empty() ? kNever : inbound.front().at, now + min_latency_);
    node.advance_quietly(horizon);
    reschedule(w);
  }

  // The time of workstation w's next event; none once it has finished.
  void reschedule(int w) {
    const Node& node = *run_.nodes[w];
    Nanos next = kNever;
    if (!inbound_[w].empty()) next = inbound_[w].front().at;
    if (!node.finished()) {
      const Nanos timer = node.next_timer_time();
      if (timer >= 0 && timer < next) next = timer;
    }
    wake_.set(w, next);
  }

  void report(Nanos now, std::chrono::steady_clock::time_point started) {
    std::int64_t messages = 0;
    for (const auto sent : sent_) messages += static_cast<std::int64_t>(sent);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // The simulated time, and the speed in messages per wall second.
    progress_(
        {fmt::format("{:.3f} s at {:.2f} M messages/s", static_cast<double>(now) * 1e-9,
                     wall > 0 ? static_cast<double>(messages) / wall * 1e-6 : 0.0),
         static_cast<double>(run_.tracker->barriers_passed()) / static_cast<double>(run_.total_barriers)});
  }

  PreparedRun& run_;
  const metrics::ProgressSink& progress_;
  const Nanos min_latency_ = run_.platform.min_latency;
  std::vector<Inbound> inbound_;     // by destination
  std::vector<std::uint64_t> sent_;  // messages sent, by workstation
  WakeHeap wake_;
};

}  // namespace

void drive_sequentially(PreparedRun& run, const metrics::ProgressSink& progress) {
  // The actor lives on the first workstation's host; it moves no data, so where does not matter.
  sg4::Actor::create("now-sequential", run.platform.workstations[0],
                     platform::guarded(Stepper(run, progress)));
  run.engine->run();
  platform::rethrow_actor_error();
}

}  // namespace cosched::now
