#include "sched/now/stride_credit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace cosched::sched {

StrideCredit::StrideCredit(SimTime quantum, std::optional<SimTime> credit_cap, bool preempt_on_wake)
    : Stride(quantum, preempt_on_wake), credit_cap_(credit_cap.value_or(quantum)) {
  if (credit_cap_ < 0) {
    throw std::invalid_argument(
        fmt::format("scheduler.credit_cap: expected a non-negative duration, got {} ns", credit_cap_));
  }
}

SimTime StrideCredit::credit(ProcessId process) const {
  auto it = credit_.find(process);
  return it == credit_.end() ? 0 : it->second;
}

double StrideCredit::pass_charge(ProcessId process, SimTime ran) const {
  // Choice: while it holds credit a process runs with extra tickets equal to its own, so that part of
  // its run costs half a stride per quantum; the rest of the run is charged as plain stride. The extra
  // tickets stay out of the global ticket sum: they are a refund, not a larger share, and leaving them
  // out keeps the global pass independent of when credit runs out in the middle of a run.
  SimTime credited = std::min(ran, credit(process));
  return Stride::pass_charge(process, credited) / 2 + Stride::pass_charge(process, ran - credited);
}

void StrideCredit::charged(ProcessId process, LeaveReason reason, SimTime ran) {
  if (reason == LeaveReason::Finished) {
    credit_.erase(process);
    return;
  }
  // The CPU time used consumes credit one for one.
  SimTime left = credit(process) - std::min(ran, credit(process));
  // Choice: a process that blocks is credited the part of its quantum it gave up (Brim & Miller 3.1:
  // SSC "compensates processes who voluntarily give up their remaining quantum"), up to the cap.
  if (reason == LeaveReason::Blocked)
    left = std::min(credit_cap_, left + std::max<SimTime>(0, quantum() - ran));
  if (left > 0) {
    credit_[process] = left;
  } else {
    credit_.erase(process);
  }
}

namespace {

const config::PolicyKey kStrideCreditKeys[] = {
    kStrideQuantumKey, kContextSwitchKey, kWakePreemptKey,
    config::duration_key<&StrideCreditParams::credit_cap, config::Zero::Allowed>(
        "credit_cap", "the most credit a process may hold (duration, default one quantum)")};

void stride_credit_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  stride_json(params, out);
  const auto& credit = static_cast<const StrideCreditParams&>(params);
  out["credit_cap_s"] = static_cast<double>(credit.credit_cap.value_or(credit.quantum_ns)) * 1e-9;
}

}  // namespace

const LocalSchedulerEntry kStrideCreditEntry{
    {"stride-credit", "stride scheduling with system credit for sleepers (Brim & Miller 3.1)",
     kStrideCreditKeys, config::default_params<StrideCreditParams>, stride_credit_json},
    false,
    [](const config::PolicyParams& params, std::shared_ptr<GangMatrix>) -> std::unique_ptr<LocalScheduler> {
      const auto& credit = static_cast<const StrideCreditParams&>(params);
      return std::make_unique<StrideCredit>(credit.quantum_ns, credit.credit_cap,
                                            credit.wake_preempt == WakePreempt::Pass);
    }};

}  // namespace cosched::sched
