#pragma once
// Stride scheduling with system credit, the NOW model's "SSC" (Brim & Miller 3.1: it "compensates
// processes who voluntarily give up their remaining quantum"; Arpaci-Dusseau & Culler 1997: exhaustible
// extra tickets). Everything but the charge is plain Stride; docs/models/now-schedulers.md has the rules.

#include <map>
#include <optional>

#include "sched/now/stride.hpp"

namespace cosched::sched {

class StrideCredit final : public Stride {
 public:
  // credit_cap: the most credit a process may hold; one quantum when not given.
  explicit StrideCredit(SimTime quantum, std::optional<SimTime> credit_cap = std::nullopt,
                        bool preempt_on_wake = true);

  // CPU time the process may still use at the credited rate.
  SimTime credit(ProcessId process) const;
  SimTime credit_cap() const { return credit_cap_; }

 protected:
  double pass_charge(ProcessId process, SimTime ran) const override;
  void charged(ProcessId process, LeaveReason reason, SimTime ran) override;

 private:
  SimTime credit_cap_;
  std::map<ProcessId, SimTime> credit_;
};

// scheduler.policy stride-credit's parameters: stride's, with its own default for wake_preempt.
struct StrideCreditParams : StrideParams {
  std::optional<config::Nanos> credit_cap;  // default: one quantum
  StrideCreditParams() { wake_preempt = WakePreempt::Pass; }
};
extern const LocalSchedulerEntry kStrideCreditEntry;

}  // namespace cosched::sched
