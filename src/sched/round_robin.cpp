#include "sched/round_robin.hpp"

#include <stdexcept>

namespace cosched::sched {

RoundRobin::RoundRobin(Cycles quantum) : quantum_(quantum) {
  if (quantum <= 0)
    throw std::invalid_argument("scheduler.quantum: the round-robin quantum must be positive");
}

std::optional<ThreadId> RoundRobin::pick_next(CpuId) {
  if (queue_.empty()) return std::nullopt;
  ThreadId head = queue_.front();
  queue_.pop_front();
  return head;
}

}  // namespace cosched::sched
