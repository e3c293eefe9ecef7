#include "now/sequential_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <limits>
#include <stdexcept>

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

// The workstations by the time of their next event (ties by workstation index). The times taken out never
// decrease (a step at t schedules nothing before t), so a radix heap serves: bucket i > 0 holds the entries
// whose time first differs from the last time taken out (`last_`) in bit i - 1, bucket 0 those at `last_`
// itself, as a min-heap on the workstation index. Pushing is an append; only the lowest non-empty bucket is
// ever searched, and an entry only moves to lower buckets. A workstation's time changes by pushing a new
// entry with a new version; the old one is dropped when it comes up (lazy deletion). The order it gives is
// exactly the (time, index) order of a binary heap, with far fewer unpredictable branches, which is what a
// heap sift costs with a thousand workstations.
class WakeQueue {
 public:
  explicit WakeQueue(int workstations) : wake_(workstations, kNever), version_(workstations, 0) {}
  Nanos wake(int w) const { return wake_[w]; }
  // Sets workstation w's next event (kNever: none).
  void set(int w, Nanos at) {
    if (at == wake_[w]) return;
    wake_[w] = at;
    const std::uint32_t version = ++version_[w];
    if (at == kNever) return;
    if (at < last_) throw std::logic_error("NOW sequential engine: an event scheduled in the past");
    place({at, w, version});
  }
  // Brings the earliest live entry to the front; false when there is none.
  bool settle() {
    for (;;) {
      auto& here = buckets_[0];
      while (!here.empty()) {
        if (live(here.front())) return true;
        std::pop_heap(here.begin(), here.end(), Later{});
        here.pop_back();
      }
      if (mask_ == 0) return false;
      const int i = std::countr_zero(mask_) + 1;
      auto& bucket = buckets_[i];
      mask_ &= mask_ - 1;
      Nanos least = kNever;
      for (const auto& e : bucket)
        if (live(e) && e.at < least) least = e.at;
      if (least != kNever) {
        last_ = least;
        for (const auto& e : bucket)
          if (live(e)) place(e);
      }
      bucket.clear();
    }
  }
  // After settle(): the earliest workstation and its time.
  int top() const { return buckets_[0].front().w; }
  Nanos top_time() const { return last_; }

 private:
  struct Entry {
    Nanos at;
    int w;
    std::uint32_t version;
  };
  struct Later {  // for a min-heap on the workstation index (bucket 0: one time)
    bool operator()(const Entry& a, const Entry& b) const { return a.w > b.w; }
  };
  bool live(const Entry& e) const { return version_[e.w] == e.version; }
  void place(const Entry& e) {
    const auto differ = static_cast<std::uint64_t>(e.at ^ last_);
    if (differ == 0) {
      buckets_[0].push_back(e);
      std::push_heap(buckets_[0].begin(), buckets_[0].end(), Later{});
      return;
    }
    const int i = 64 - std::countl_zero(differ);
    buckets_[i].push_back(e);
    mask_ |= std::uint64_t{1} << (i - 1);
  }

  std::array<std::vector<Entry>, 65> buckets_;
  std::uint64_t mask_ = 0;  // bit i - 1: bucket i > 0 is not empty
  Nanos last_ = 0;
  std::vector<Nanos> wake_;             // by workstation; kNever: none
  std::vector<std::uint32_t> version_;  // of its live entry
};

// The messages on their way to one workstation, earliest first in the canonical order: a vector sorted
// by (arrival, sender, sequence) from `head_` on. A workstation's messages are put on their way at the end
// of each send, in the step that runs it ahead, so not quite in arrival order: a new one moves back past
// the later ones, which are few (those posted by a step of a later instant that arrive earlier), so that
// pushing and popping cost about nothing, where a heap moves its 64-byte entries log n times each way.
class Inbound {
 public:
  bool empty() const { return head_ == items_.size(); }
  const Arrival& front() const { return items_[head_]; }
  void push(const Arrival& arrival) {
    if (empty()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    items_.push_back(arrival);
    for (std::size_t i = items_.size() - 1; i > head_ && arrival.before(items_[i - 1]); --i)
      std::swap(items_[i], items_[i - 1]);
  }
  // Removes the front and returns it (valid until the next push).
  const Message& pop() { return items_[head_++].message; }

 private:
  static constexpr std::size_t kCompactAt = 256;  // taken-out entries kept before they are dropped
  std::vector<Arrival> items_;
  std::size_t head_ = 0;  // the first entry not taken out
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
    while (wake_.settle()) {
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
  // Workstation w's events from `now` (the earliest of all workstations') to its horizon, now + the
  // smallest latency: every workstation has handled its events before now, so every message that arrives
  // before the horizon is already on its way. Each arrives in turn, after the timers of its instant, in
  // canonical order; then w's own events run up to the horizon, or to the next message on its way if
  // that comes first (one arriving exactly at the horizon may still have company from a workstation not
  // yet stepped at `now`). What it sends leaves at the end of each send, arriving after the route's delay,
  // at or after the horizon; none is for w itself, since a job has one process per workstation.
  void step(int w, Nanos now) {
    Node& node = *run_.nodes[w];
    auto& inbound = inbound_[w];
    const Nanos horizon = now + min_latency_;
    while (!inbound.empty() && inbound.front().at < horizon) {
      const Nanos at = inbound.front().at;
      node.advance(at);
      do node.deliver(at, inbound.pop());
      while (!inbound.empty() && inbound.front().at == at);
    }
    node.run_ahead(std::min(inbound.empty() ? kNever : inbound.front().at, horizon));
    post(w);
    reschedule(w);
  }

  // Puts the messages workstation w sent on their way, in the order they left.
  void post(int w) {
    auto& outbox = run_.nodes[w]->outbox();
    for (const auto& envelope : outbox) {
      const int to = envelope.workstation;
      const Nanos at = envelope.leaves + run_.platform.delay(w, to);
      inbound_[to].push(Arrival{at, w, sent_[w]++, envelope.message});
      // An arrival can only bring the destination's next event forward.
      if (at < wake_.wake(to)) wake_.set(to, at);
    }
    outbox.clear();
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
  WakeQueue wake_;
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
