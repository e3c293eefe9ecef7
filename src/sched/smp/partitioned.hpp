#pragma once
// Dynamic hardware partitioning as Kontothanassis & Wisniewski emulate it (section 4): every `period` cycles
// each synchronizing job is given a partition of processors drawn from a distribution ("seven processors for
// five percent of the time ... between two and six processors with equal probability"), and its threads
// time-share their partition round robin. Job j's partition is the first size_j CPUs of its own block of
// max-size CPUs, so partitions never overlap.

#include <cmath>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "sched/smp/smp_scheduler.hpp"
#include "workload/distribution.hpp"

namespace cosched::sched {

class Partitioned final : public SmpScheduler {
 public:
  Partitioned(Cycles quantum, Cycles period, workload::Distribution partition, int cpus, int jobs,
              std::uint64_t seed);

  void enqueue(ThreadId thread, ReadyReason reason) override;
  std::optional<ThreadId> pick_next(CpuId cpu, std::optional<ThreadId> prev) override;
  Cycles time_slice(ThreadId) const override { return quantum_; }
  bool has_ready() const override;
  std::size_t ready_count() const override;
  int partition_cpus(int address_space) const override;
  std::optional<Cycles> next_change() const override { return next_change_; }
  void change(Cycles now) override;
  bool cpu_usable(CpuId cpu) const override;

  int partition(int job) const { return sizes_[job]; }

 private:
  int owner(CpuId cpu) const;
  void draw();

  Cycles quantum_;
  Cycles period_;
  workload::Distribution distribution_;
  int block_;  // CPUs reserved per job: the distribution's largest size
  std::vector<int> sizes_;
  std::vector<std::deque<ThreadId>> queues_;
  std::mt19937_64 engine_;
  Cycles next_change_;
};

// scheduler.policy partitioned's parameters: the cycles between two partition decisions and the distribution
// of partition sizes (thesis 5.1.3 notation), as written.
struct PartitionedParams : config::SmpSchedulerParams {
  Cycles period = 0;
  std::string partition;                        // as written, for the record
  std::optional<workload::Distribution> sizes;  // parsed once, when read
  // The CPUs a job's block holds: the largest size (K&W 4: partitions never overlap).
  double block() const { return std::floor(sizes->max()); }
};
extern const SmpSchedulerEntry kPartitionedEntry;

}  // namespace cosched::sched
