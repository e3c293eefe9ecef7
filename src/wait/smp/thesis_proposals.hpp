#pragma once
// The barrier algorithms that the Tsafrir thesis proposes in chapter 10 and nobody evaluated:
// yield-on-wake ("Possible Barrier Algorithm and a Retrospect on Round-Robin"), load-based ("Load Based
// Barrier Algorithm") and granularity-aware ("Job Granularity Classification"). docs/models/smp.md,
// section 16.

#include <vector>

#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {

// Fixed spin; after a successful spin whose barrier woke blocked peers while no processor is idle (or, as the
// thesis suggests for priority schedulers, while runnable threads outnumber the processors), release the CPU.
class YieldOnWake final : public SmpWaitAlgorithm, public SmpWaiter {
 public:
  YieldOnWake(Cycles spin, bool runnable_exceeds_cpus)
      : spin_(spin), runnable_exceeds_cpus_(runnable_exceeds_cpus) {}
  std::unique_ptr<SmpWaiter> make_waiter() const override {
    return std::make_unique<YieldOnWake>(spin_, runnable_exceeds_cpus_);
  }
  Cycles spin_budget(const ArrivalView&) override { return spin_; }
  bool release_after_success(const ArrivalView& view, int woken) override;

 private:
  Cycles spin_;
  bool runnable_exceeds_cpus_;
};

// Spin (fixed) only while the runnable threads are at most factor x CPUs, else block; decided at arrival and
// again while spinning when the state changes.
class LoadBased final : public SmpWaitAlgorithm, public SmpWaiter {
 public:
  LoadBased(Cycles spin, double factor) : spin_(spin), factor_(factor) {}
  std::unique_ptr<SmpWaiter> make_waiter() const override {
    return std::make_unique<LoadBased>(spin_, factor_);
  }
  Cycles spin_budget(const ArrivalView& view) override { return loaded(view) ? 0 : spin_; }
  bool give_up(const ArrivalView& view) override { return loaded(view); }
  bool loaded(const ArrivalView& view) const {
    return static_cast<double>(view.runnable_threads) > factor_ * static_cast<double>(view.cpus);
  }

 private:
  Cycles spin_;
  double factor_;
};

// Each thread keeps the time between its recent barrier arrivals made within one quantum (without leaving its
// CPU in between), averaged over the last three; the largest average over the job's threads estimates the
// job's grain. Block when it exceeds `coarse`; spin (fixed) otherwise, and while no estimate exists.
class GranularityAware final : public SmpWaitAlgorithm, public SmpWaiter {
 public:
  GranularityAware(Cycles spin, Cycles coarse) : spin_(spin), coarse_(coarse) {}
  std::unique_ptr<SmpWaiter> make_waiter() const override {
    return std::make_unique<GranularityAware>(spin_, coarse_);
  }
  Cycles spin_budget(const ArrivalView& view) override;
  // The current estimate of the job's grain in cycles, -1 while none.
  Cycles estimate() const;

 private:
  struct History {
    Cycles samples[3] = {0, 0, 0};
    int count = 0;
  };
  Cycles spin_;
  Cycles coarse_;
  std::vector<History> threads_;
};

// yield-on-wake's parameters: a spin of CS unless given (thesis chapter 10: "the widely accepted maximal spin
// duration of CS"), and the condition under which a successful spin that woke peers yields.
struct YieldOnWakeParams : SpinParams {
  bool runnable_exceeds_cpus = false;  // condition: runnable-exceeds-cpus; false: no-idle
  void derive(Cycles scheduler_quantum, Cycles scheduler_context_switch) override {
    SpinParams::derive(scheduler_quantum, scheduler_context_switch);
    spin = scheduler_context_switch;
    spin_given = "CS";
  }
};
// load-based's and granularity-aware's: a spin of 2CS+ unless given (chapter 10: 2CS+ is the best fixed
// spin).
struct TwoCsPlusSpinParams : SpinParams {
  void derive(Cycles scheduler_quantum, Cycles scheduler_context_switch) override {
    SpinParams::derive(scheduler_quantum, scheduler_context_switch);
    spin = 2 * scheduler_context_switch + 1;
    spin_given = "2CS+";
  }
};
struct LoadBasedParams : TwoCsPlusSpinParams {
  double factor = 2;  // spin while runnable threads <= factor x CPUs
};
struct GranularityAwareParams : TwoCsPlusSpinParams {
  Cycles coarse = 0;  // block when the estimated grain exceeds this
  // A choice: between the thesis's medium (10%) and coarse (100%) grains.
  void derive(Cycles scheduler_quantum, Cycles scheduler_context_switch) override {
    TwoCsPlusSpinParams::derive(scheduler_quantum, scheduler_context_switch);
    coarse = scheduler_quantum / 2;
  }
};
extern const SmpWaitEntry kYieldOnWakeEntry;
extern const SmpWaitEntry kLoadBasedEntry;
extern const SmpWaitEntry kGranularityAwareEntry;

}  // namespace cosched::wait
