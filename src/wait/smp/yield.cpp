// The yield waiting algorithm: a thread that waits at a barrier polls it and calls sched_yield() after each
// failed poll, `while (!done) sched_yield();`, until the barrier completes or its budget of CPU time in the
// loop is spent; then it blocks as a fixed spin does. The scheduling policy decides what sched_yield() does
// (SmpScheduler::yield: SCHED_RR's queue tail, CFS's skip buddy, EEVDF's deadline push).
// docs/models/smp.md, "The yield waiting algorithm".
#include <fmt/format.h>

#include <algorithm>

#include "config/cycles.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {
namespace {

using config::PolicyParams;

struct YieldParams : SpinParams {
  Cycles poll = 0;  // user time of one pass of the loop: the poll and the sched_yield() call
  void derive(Cycles scheduler_quantum, Cycles scheduler_context_switch) override {
    SpinParams::derive(scheduler_quantum, scheduler_context_switch);
    spin = kUnlimitedSpin;
    spin_given = "unlimited";
    // A choice: a yield that keeps the CPU enters the kernel and runs schedule() but switches nothing, half
    // of a context switch CS = cs_in + cs_out.
    poll = std::max<Cycles>(1, scheduler_context_switch / 2);
  }
};

class YieldLoop final : public SmpWaitAlgorithm, public SmpWaiter {
 public:
  YieldLoop(Cycles budget, Cycles poll) : budget_(budget), poll_(poll) {}
  Cycles spin_budget(const ArrivalView&) override { return budget_; }
  Cycles yield_every() const override { return poll_; }
  std::unique_ptr<SmpWaiter> make_waiter() const override { return std::make_unique<YieldLoop>(*this); }

 private:
  Cycles budget_;
  Cycles poll_;
};

const config::PolicyKey kYieldKeys[] = {
    {"spin",
     "CPU time in the yield loop before the thread blocks: cycles, % of the quantum, or CS multiples such "
     "as 2CS+ (default unlimited: it yields until the barrier completes)",
     kSpinKey.read},
    {"poll",
     "user time of one pass of the loop, its poll and its sched_yield() call: cycles, % of the quantum or "
     "CS multiples (default CS/2)",
     [](const config::Field& f, PolicyParams& params) {
       auto& w = config::params_as<YieldParams>(params);
       w.poll = config::spin_cycles(f, w.quantum, w.context_switch, nullptr);
       if (w.poll <= 0) f.fail("a positive number of cycles, % of the quantum or CS multiples");
     }}};

}  // namespace

const SmpWaitEntry kSmpYieldEntry{
    {"yield", "poll and sched_yield() until the barrier completes (or a spin budget is spent), then block",
     kYieldKeys, config::default_params<YieldParams>,
     [](const PolicyParams& params, nlohmann::ordered_json& out) {
       spin_json(params, out);
       out["poll"] = static_cast<const YieldParams&>(params).poll;
     }},
    [](const PolicyParams& params) -> std::unique_ptr<SmpWaitAlgorithm> {
      const auto& w = static_cast<const YieldParams&>(params);
      return std::make_unique<YieldLoop>(w.spin, w.poll);
    },
    /*yields=*/true};

}  // namespace cosched::wait
