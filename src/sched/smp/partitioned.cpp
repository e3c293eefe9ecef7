#include "sched/smp/partitioned.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "config/cycles.hpp"
#include "config/input_error.hpp"

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

namespace {

using config::Field;
using config::PolicyParams;

const config::PolicyKey kPartitionedKeys[] = {
    {"period", "cycles (or % of the quantum) between two partition decisions (required)",
     [](const Field& f, PolicyParams& params) {
       auto& p = config::params_as<PartitionedParams>(params);
       p.period = config::smp_cycles(f, p.quantum, "a positive period in cycles or % of the quantum");
       if (p.period <= 0) f.fail("a positive period in cycles or % of the quantum");
     },
     true},
    {"partition", "the distribution of partition sizes, such as \"7:5,2-6:95\" (K&W 4; required)",
     [](const Field& f, PolicyParams& params) {
       auto& p = config::params_as<PartitionedParams>(params);
       const std::string expected = "a distribution of partition sizes such as \"7:5,2-6:95\"";
       p.partition = f.scalar(expected);
       std::string why;
       p.sizes = workload::Distribution::parse(p.partition, &why);
       if (!p.sizes) f.fail(expected + " (" + why + ")");
       if (p.sizes->min() < 1) f.fail(expected + " with sizes of at least 1");
       if (p.cpus > 0 && p.sizes->max() > p.cpus)
         f.fail(fmt::format("{} with sizes up to platform.cpus = {}", expected, p.cpus));
     },
     true},
};

int job_count(const config::SmpConfig& smp) {
  int jobs = 0;
  for (const auto& job : smp.jobs) jobs += job.copies;
  return jobs;
}

// K&W 4: every job has a partition of its own, and only synchronizing jobs are partitioned.
void check_partitioned(const Field& scenario, const PolicyParams& params, const config::SmpConfig& smp) {
  if (smp.nosync > 0)
    scenario.error("scheduler.policy: partitioned runs synchronizing jobs only: give workload.nosync: 0");
  const int jobs = job_count(smp);
  const double block = static_cast<const PartitionedParams&>(params).block();
  if (smp.cpus > 0 && block * jobs > smp.cpus)
    scenario.error(
        fmt::format("scheduler.partition: {} jobs with partitions of up to {:g} processors need more than "
                    "platform.cpus = {}",
                    jobs, block, smp.cpus));
}

std::unique_ptr<SmpScheduler> make_partitioned(const PolicyParams& params, const config::SmpConfig& smp,
                                               int cpus, std::uint64_t seed) {
  const auto& p = static_cast<const PartitionedParams&>(params);
  const int jobs = job_count(smp);
  // With platform.cpus this was checked when the scenario was read; a platform file says it only now.
  const double block = p.block();
  if (block * jobs > cpus)
    throw config::InputError(fmt::format(
        "{}: platform.file: its host has {} cores, but scheduler.partition gives {} jobs partitions of up "
        "to {:g} processors; expected at least {:g} cores",
        smp.platform_file, cpus, jobs, block, block * jobs));
  // The partition stream has a seed of its own, derived from the run's seed.
  return std::make_unique<Partitioned>(p.quantum, p.period, *p.sizes, cpus, jobs,
                                       seed * 0x9E3779B97F4A7C15ULL + 0x5EED);
}

}  // namespace

const SmpSchedulerEntry kPartitionedEntry{
    {"partitioned",
     "dynamic hardware partitions redrawn every period, round robin within (Kontothanassis & Wisniewski 4)",
     kPartitionedKeys, config::default_params<PartitionedParams>,
     [](const PolicyParams& params, nlohmann::ordered_json& out) {
       const auto& p = static_cast<const PartitionedParams&>(params);
       out["period"] = p.period;
       out["partition"] = p.partition;
     }},
    check_partitioned,
    make_partitioned,
    true};

}  // namespace cosched::sched
