#include "wait/now/pairwise.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosched::wait {

Pairwise::Pairwise(Timings timings) : timings_(timings) {
  if (timings_.read_window < 0) timings_.read_window = timings_.window;
  if (timings_.read_spin <= 0)
    throw std::invalid_argument("wait.read_spin: the read baseline must be positive");
  if (timings_.window <= 0)
    throw std::invalid_argument("wait.window: the conditional window must be positive");
}

Nanos Pairwise::first_spin(const Observation& seen) const {
  return seen.kind == WaitKind::Read ? timings_.read_spin : timings_.barrier_spin;
}

std::int64_t Pairwise::threshold(Nanos length) const {
  return std::max<Nanos>(1, length / timings_.read_spin);
}

Nanos Pairwise::after_wake(const Observation& seen) const {
  if (!timings_.window_after_wake) return first_spin(seen);
  // BLOCK_IMMEDIATELY never spins at a barrier, woken or not.
  if (seen.kind == WaitKind::Barrier && timings_.barrier_spin == 0) return 0;
  return window(seen.kind);
}

Nanos Pairwise::next_spin(const Observation& seen) const {
  // Under `extend` every message has already moved the phase's end (Node::deliver), so a phase that ends
  // has no message left extending it: it ran out, or the quantum ended during it, and the process blocks.
  if (timings_.extend) return 0;
  return seen.messages.total() >= threshold(seen.phase_length) ? window(seen.kind) : 0;
}

}  // namespace cosched::wait
