#include "sched/local_scheduler_registry.hpp"

#include <stdexcept>

#include "sched/stride.hpp"
#include "sched/stride_credit.hpp"

namespace cosched::sched {

namespace {

using Factory = std::unique_ptr<LocalScheduler> (*)(const LocalSchedulerConfig&, std::shared_ptr<GangMatrix>);

struct PolicyEntry {
  LocalPolicy policy;
  std::string_view name;
  Factory make;
};

using Config = LocalSchedulerConfig;
using Matrix = std::shared_ptr<GangMatrix>;

constexpr PolicyEntry kPolicies[] = {
    {LocalPolicy::Gang, "gang",
     [](const Config&, Matrix m) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<Gang>(std::move(m));
     }},
    {LocalPolicy::TimeSharing, "ts",
     [](const Config& c, Matrix) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<TimeSharing>(c.initial_level, c.sleep_return,
                                            c.ts_dispatch_table.value_or(TsDispatchTable::solaris_default()));
     }},
    {LocalPolicy::Stride, "stride",
     [](const Config& c, Matrix) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<Stride>(c.quantum, c.wake_preempt);
     }},
    {LocalPolicy::StrideCredit, "stride-credit",
     [](const Config& c, Matrix) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<StrideCredit>(c.quantum, c.credit_cap, c.wake_preempt);
     }},
};

const PolicyEntry& entry(LocalPolicy policy) {
  for (const auto& candidate : kPolicies) {
    if (candidate.policy == policy) return candidate;
  }
  throw std::invalid_argument("scheduler.policy: unknown local scheduling policy");
}

}  // namespace

std::unique_ptr<LocalScheduler> make_local_scheduler(const LocalSchedulerConfig& config,
                                                     std::shared_ptr<GangMatrix> gang_matrix) {
  return entry(config.policy).make(config, std::move(gang_matrix));
}

std::string_view local_policy_name(LocalPolicy policy) {
  return entry(policy).name;
}

}  // namespace cosched::sched
