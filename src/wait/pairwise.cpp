#include "wait/pairwise.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosched::wait {

Pairwise::Pairwise(Timings timings) : timings_(timings) {
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

Nanos Pairwise::next_spin(const Observation& seen) const {
  return seen.messages.total() >= threshold(seen.phase_length) ? timings_.window : 0;
}

}  // namespace cosched::wait
