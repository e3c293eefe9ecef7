#include "now/sequential_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

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
// where each workstation is, so that its key can change in place.
class WakeHeap {
 public:
  explicit WakeHeap(int workstations) : position_(workstations, -1), wake_(workstations, kNever) {}
  bool empty() const { return heap_.empty(); }
  int top() const { return heap_.front(); }
  Nanos top_time() const { return wake_[heap_.front()]; }
  // Sets workstation w's next event (kNever: none).
  void set(int w, Nanos at) {
    if (position_[w] < 0) {
      if (at == kNever) return;
      wake_[w] = at;
      position_[w] = static_cast<int>(heap_.size());
      heap_.push_back(w);
      up(position_[w]);
      return;
    }
    if (at == kNever) {
      remove(w);
      return;
    }
    const Nanos before = wake_[w];
    wake_[w] = at;
    if (at < before) {
      up(position_[w]);
    } else if (at > before) {
      down(position_[w]);
    }
  }

 private:
  bool before(int a, int b) const { return wake_[a] != wake_[b] ? wake_[a] < wake_[b] : a < b; }
  void place(int i, int w) {
    heap_[i] = w;
    position_[w] = i;
  }
  void up(int i) {
    const int w = heap_[i];
    while (i > 0) {
      const int parent = (i - 1) / 2;
      if (!before(w, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, w);
  }
  void down(int i) {
    const int w = heap_[i];
    const int n = static_cast<int>(heap_.size());
    for (;;) {
      int child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], w)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, w);
  }
  void remove(int w) {
    const int i = position_[w];
    const int last = heap_.back();
    heap_.pop_back();
    position_[w] = -1;
    wake_[w] = kNever;
    if (last == w) return;
    place(i, last);
    up(i);
    down(position_[last]);
  }

  std::vector<int> heap_;
  std::vector<int> position_;  // index in heap_, -1 when absent
  std::vector<Nanos> wake_;
};

class Stepper {
 public:
  Stepper(PreparedRun& run, const metrics::ProgressSink& progress)
      : run_(run),
        progress_(progress),
        inbound_(run.workstations()),
        sent_(run.workstations(), 0),
        wake_(run.workstations()) {}

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
    while (!inbound.empty() && inbound.front().at == now) {
      std::pop_heap(inbound.begin(), inbound.end());
      node.deliver(now, inbound.back().message);
      inbound.pop_back();
    }
    for (const auto& envelope : node.outbox()) {
      const int to = envelope.workstation;
      auto& queue = inbound_[to];
      queue.push_back(Arrival{now + run_.platform.delay(w, to), w, sent_[w]++, envelope.message});
      std::push_heap(queue.begin(), queue.end());
      if (to != w) reschedule(to);
    }
    node.outbox().clear();
    reschedule(w);
  }

  // The time of workstation w's next event; none once it has finished.
  void reschedule(int w) {
    const Node& node = *run_.nodes[w];
    Nanos next = kNever;
    if (!inbound_[w].empty()) next = inbound_[w].front().at;
    if (!node.finished()) {
      if (auto timer = node.next_timer(); timer && *timer < next) next = *timer;
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
  std::vector<std::vector<Arrival>> inbound_;  // by destination: a min-heap of arrivals
  std::vector<std::uint64_t> sent_;            // messages sent, by workstation
  WakeHeap wake_;
};

}  // namespace

void drive_sequentially(PreparedRun& run, const metrics::ProgressSink& progress) {
  // The actor lives on the first workstation's host; it moves no data, so where does not matter.
  sg4::Actor::create("now-sequential", run.platform.workstations[0], Stepper(run, progress));
  run.engine->run();
}

}  // namespace cosched::now
