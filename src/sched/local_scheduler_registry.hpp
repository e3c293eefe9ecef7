#pragma once
// Builds a workstation's local scheduler from its settings. Adding a policy: one new file behind
// LocalScheduler, one enum value here and one line in the table of local_scheduler_registry.cpp.

#include <memory>
#include <optional>
#include <string_view>

#include "sched/gang.hpp"
#include "sched/local_scheduler.hpp"
#include "sched/time_sharing.hpp"
#include "sched/ts_dispatch_table.hpp"

namespace cosched::sched {

enum class LocalPolicy { Gang, TimeSharing, Stride, StrideCredit };

struct LocalSchedulerConfig {
  LocalPolicy policy = LocalPolicy::Stride;
  SimTime quantum = 10'000'000;  // stride quantum and gang slot; TS takes its quanta from the table
  int initial_level = TimeSharing::kDefaultInitialLevel;
  SleepReturn sleep_return = SleepReturn::Always;
  std::optional<SimTime> credit_cap;                 // stride-credit; one quantum when not given
  bool wake_preempt = true;                          // stride, stride-credit: preempt on wake (pass rule)
  std::optional<TsDispatchTable> ts_dispatch_table;  // TS; the Solaris default when not given
};

// `gang_matrix` is the matrix shared by all workstations, needed by LocalPolicy::Gang only. Throws
// std::invalid_argument naming the setting when the configuration is refused.
std::unique_ptr<LocalScheduler> make_local_scheduler(const LocalSchedulerConfig& config,
                                                     std::shared_ptr<GangMatrix> gang_matrix);

// The policy's name in scenario files ("gang", "ts", "stride", "stride-credit").
std::string_view local_policy_name(LocalPolicy policy);

}  // namespace cosched::sched
