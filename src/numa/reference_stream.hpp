#pragma once
// A thread's reference stream (docs/models/numa.md sections 6.1-6.2): the draws of the clocks of one running
// thread, from its process's two reference-frequency tables (thesis 4.2.3). It knows which entries are events
// (need more than a local action, where the pages are now): the machine sets their weights as pages come and
// go; the stream draws the clocks to the next event, which event it is, or (stepped execution) one clock.
// Pure: its own random stream and the tables, nothing of the machine.

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "numa/network.hpp"
#include "numa/reference_table.hpp"
#include "util/fenwick.hpp"
#include "util/normal.hpp"
#include "util/random.hpp"

namespace cosched::numa {

// No event ever: the clock count of a draw with probability 0.
constexpr Clock kNever = std::numeric_limits<Clock>::max() / 4;

// Uniform integer in [0, n) by the NUMA machine's draw (util/random.hpp).
inline std::int64_t uniform_below(std::mt19937_64& rng, std::int64_t n) {
  return static_cast<std::int64_t>(util::uniform_below_multiply_high(rng, static_cast<std::uint64_t>(n)));
}

// The number of failures before the first success of Bernoulli(p) trials: floor(log U / log(1 - p)); 0 for
// p >= 1, kNever for p <= 0.
inline Clock geometric(double p, std::mt19937_64& rng) {
  if (p <= 0) return kNever;
  if (p >= 1) return 0;
  const double g = std::floor(std::log(util::uniform_open01(rng)) / std::log1p(-p));
  return g >= static_cast<double>(kNever) ? kNever : static_cast<Clock>(g);
}

class ReferenceStream {
 public:
  // One reference of a clock: its space (shared or local) and its entry in that space's table (-1: an entry
  // that touches no memory, "other activity").
  struct Reference {
    bool shared = false;
    int entry = -1;
  };

  ReferenceStream() = default;
  // No entry has a weight until assign(); `seed` seeds the thread's own random stream.
  ReferenceStream(const ReferenceTable& local, const ReferenceTable& shared, double shared_rate,
                  std::uint64_t seed);

  // The weights of the entries that are events: local and shared, by entry, replacing every weight.
  void assign(const std::vector<std::int64_t>& local, const std::vector<std::int64_t>& shared);
  // Entry `entry` of one space is an event with weight `weight` (0: it is not); true if that changed it.
  bool set(bool shared, int entry, std::int64_t weight) {
    auto& events = shared ? shared_events_ : local_events_;
    if (events.weight(entry) == weight) return false;
    events.set(entry, weight);
    return true;
  }
  std::int64_t weight(bool shared, int entry) const {
    return (shared ? shared_events_ : local_events_).weight(entry);
  }

  // Section 6.2: the probability p that one clock is an event,
  // (1 - r) . sum of local event weights / local total + r . sum of shared event weights / shared total.
  double event_probability() const { return local_share() + shared_share(); }

  // Skipping: the number of clocks before the next event, geometric(p) (kNever: none).
  Clock clocks_to_event() { return geometric(event_probability(), rng_); }
  // Skipping: which event the next event is: its space in proportion to the spaces' shares of p, then the
  // entry in proportion to the events' weights.
  Reference draw_event() {
    const double l = local_share(), s = shared_share();
    Reference r;
    r.shared = util::uniform_open01(rng_) * (l + s) >= l;
    const auto& events = r.shared ? shared_events_ : local_events_;
    r.entry = static_cast<int>(events.find(uniform_below(rng_, events.total())));
    return r;
  }

  // Stepped execution: one clock drawn as thesis 4.2.3 says, the space (shared with probability r, A4), then
  // the entry of its table with probability f / sum f. `event`: the entry is an event now.
  Reference draw_clock(bool& event);

 private:
  double local_share() const {
    return local_->total > 0 ? (1 - shared_rate_) * static_cast<double>(local_events_.total()) / local_->total
                             : 0;
  }
  double shared_share() const {
    return shared_->total > 0 ? shared_rate_ * static_cast<double>(shared_events_.total()) / shared_->total
                              : 0;
  }

  const ReferenceTable* local_ = nullptr;
  const ReferenceTable* shared_ = nullptr;
  double shared_rate_ = 0;
  util::Fenwick local_events_, shared_events_;
  std::mt19937_64 rng_;
};

}  // namespace cosched::numa
