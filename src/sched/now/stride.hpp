#pragma once
// Stride scheduling (Waldspurger & Weihl 1995, as the Flux OSKit stride scheduler implements it): the
// NOW model's fair-share local scheduler "SS" (Brim & Miller 3.1). Rules and sources are in
// docs/models/now-schedulers.md.

#include <cstdint>
#include <map>

#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

class Stride : public LocalScheduler {
 public:
  static constexpr double kStride1 = 1 << 20;  // S: stride = S / tickets

  // `preempt_on_wake`: a woken client whose pass is below the running one's takes the CPU at once
  // (scheduler.wake_preempt: pass); otherwise the scheduler decides only when the running client leaves
  // or its quantum ends (none, Waldspurger & Weihl's rule).
  explicit Stride(SimTime quantum, bool preempt_on_wake = true);

  void admit(ProcessId process, JobId job, ProcessShare share, SimTime now) final;
  void wake(ProcessId process, SimTime now) final;
  void leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime ran) final;
  std::optional<ProcessId> pick_next(SimTime now) final;
  SimTime time_slice(ProcessId, SimTime) const final { return quantum_; }
  bool should_preempt(ProcessId running, SimTime now, SimTime ran) const final;
  std::optional<SimTime> next_tick() const final { return std::nullopt; }
  bool ticks() const final { return false; }
  void tick(SimTime now) final { advance(now); }
  bool has_ready() const final;

  SimTime quantum() const { return quantum_; }
  double pass(ProcessId process) const { return find(process).pass; }
  double stride(ProcessId process) const { return find(process).stride; }
  // As of the last call that took a time: the global pass advances lazily.
  double global_pass() const { return global_pass_; }
  int runnable_tickets() const { return runnable_tickets_; }

 protected:
  // The pass a process owes for running `ran`: plain stride charges stride x ran / quantum, so a
  // partial quantum costs a fraction of a stride.
  virtual double pass_charge(ProcessId process, SimTime ran) const;
  // Called once a leaving process has been charged for `ran` (StrideCredit settles its credit here).
  virtual void charged(ProcessId, LeaveReason, SimTime) {}

 private:
  enum class State { Ready, Running, Blocked };
  struct Client {
    int tickets;
    double stride;
    double pass;
    double remain;  // pass - global_pass when it blocked: the lag it keeps while away
    State state;
    std::uint64_t ready_order;  // ties on pass go to the process that became ready first
  };

  Client& find(ProcessId process);
  const Client& find(ProcessId process) const;
  // Brings global_pass to `now`: it advances by S / (runnable tickets) per quantum of real time.
  void advance(SimTime now);
  void make_ready(Client& client);
  std::optional<ProcessId> smallest_ready() const;

  SimTime quantum_;
  bool preempt_on_wake_;
  std::map<ProcessId, Client> clients_;
  double global_pass_ = 0;
  int runnable_tickets_ = 0;
  SimTime last_update_ = 0;
  std::uint64_t next_ready_order_ = 0;
};

// scheduler.wake_preempt: does a woken process take the CPU when its pass is below the running one's?
enum class WakePreempt { Pass, None };

// scheduler.policy stride's parameters (and stride-credit's, which adds its own).
struct StrideParams : config::LocalSchedulerParams {
  config::Nanos quantum_ns = kDefaultQuantum;
  // Choice (docs/models/now-schedulers.md): W&W's stride decides at quantum ends and when the running client
  // leaves; B&M 3.4 has SSC, like TS, schedule a woken process "immediately".
  WakePreempt wake_preempt = WakePreempt::None;
  config::Nanos quantum() const override { return quantum_ns; }
};
extern const LocalSchedulerEntry kStrideEntry;

// The keys stride and stride-credit share, and their resolved form.
extern const config::PolicyKey kStrideQuantumKey;
extern const config::PolicyKey kWakePreemptKey;
void stride_json(const config::PolicyParams& params, nlohmann::ordered_json& out);

}  // namespace cosched::sched
