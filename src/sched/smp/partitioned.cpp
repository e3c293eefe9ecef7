#include "sched/smp/partitioned.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace cosched::sched {

Partitioned::Partitioned(Cycles quantum, Cycles period, workload::Distribution partition, int cpus, int jobs,
                         std::uint64_t seed)
    : quantum_(quantum),
      period_(period),
      distribution_(std::move(partition)),
      block_(static_cast<int>(std::floor(distribution_.max()))),
      sizes_(static_cast<std::size_t>(jobs)),
      queues_(static_cast<std::size_t>(jobs)),
      engine_(seed),
      next_change_(period) {
  if (quantum <= 0) throw std::invalid_argument("scheduler.quantum: must be positive");
  if (period <= 0) throw std::invalid_argument("scheduler.period: must be positive");
  if (distribution_.min() < 1)
    throw std::invalid_argument("scheduler.partition: every size must be at least 1");
  if (static_cast<long long>(block_) * jobs > cpus)
    throw std::invalid_argument("scheduler.partition: " + std::to_string(jobs) + " jobs of up to " +
                                std::to_string(block_) + " processors need more than the " +
                                std::to_string(cpus) + " CPUs");
  draw();
}

void Partitioned::draw() {
  for (auto& size : sizes_) size = static_cast<int>(distribution_.draw_integer(engine_));
}

void Partitioned::change(Cycles now) {
  draw();
  next_change_ = now + period_;
}

int Partitioned::owner(CpuId cpu) const {
  const int job = cpu / block_;
  return job < static_cast<int>(sizes_.size()) ? job : -1;
}

bool Partitioned::cpu_usable(CpuId cpu) const {
  const int job = owner(cpu);
  return job >= 0 && cpu - job * block_ < sizes_[job];
}

int Partitioned::partition_cpus(int address_space) const {
  return address_space < static_cast<int>(sizes_.size()) ? sizes_[address_space] : 0;
}

void Partitioned::enqueue(ThreadId thread, ReadyReason) {
  const int job = host_->address_space(thread);
  if (job >= static_cast<int>(queues_.size()))
    throw std::invalid_argument(
        "scheduler.policy: partitioned runs synchronizing jobs only (workload.nosync: 0)");
  queues_[job].push_back(thread);
}

std::optional<ThreadId> Partitioned::pick_next(CpuId cpu, std::optional<ThreadId> prev) {
  if (prev) throw std::logic_error("partitioned: a runnable thread is queued before its CPU picks");
  if (!cpu_usable(cpu)) return std::nullopt;
  auto& queue = queues_[owner(cpu)];
  if (queue.empty()) return std::nullopt;
  const ThreadId head = queue.front();
  queue.pop_front();
  return head;
}

bool Partitioned::has_ready() const {
  for (const auto& q : queues_) {
    if (!q.empty()) return true;
  }
  return false;
}

std::size_t Partitioned::ready_count() const {
  std::size_t n = 0;
  for (const auto& q : queues_) n += q.size();
  return n;
}

}  // namespace cosched::sched
