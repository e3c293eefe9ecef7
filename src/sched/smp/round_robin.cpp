#include "sched/smp/round_robin.hpp"

#include <stdexcept>

namespace cosched::sched {

RoundRobin::RoundRobin(Cycles quantum) : quantum_(quantum) {
  if (quantum <= 0)
    throw std::invalid_argument("scheduler.quantum: the round-robin quantum must be positive");
}

std::optional<ThreadId> RoundRobin::pick_next(CpuId, std::optional<ThreadId> prev) {
  if (prev) throw std::logic_error("round robin: a runnable thread is queued before its CPU picks");
  if (queue_.empty()) return std::nullopt;
  ThreadId head = queue_.front();
  queue_.pop_front();
  return head;
}

const SmpSchedulerEntry kRoundRobinEntry{
    {"rr",
     "SCHED_RR: one global FIFO ready queue, fixed quantum (Tsafrir thesis chapter 2)",
     {},
     config::default_params<config::SmpSchedulerParams>,
     config::no_keys_json},
    nullptr,
    [](const config::PolicyParams& params, const config::SmpConfig&, int,
       std::uint64_t) -> std::unique_ptr<SmpScheduler> {
      return std::make_unique<RoundRobin>(static_cast<const config::SmpSchedulerParams&>(params).quantum);
    },
    /*partitions=*/false,
    // sched_yield() under SCHED_RR (yield_task_rt): the yielder goes to its queue's tail, which the machine
    // does by handing the CPU to the queue's head.
    /*yields=*/true};

}  // namespace cosched::sched
