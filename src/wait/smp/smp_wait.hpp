#pragma once
// Waiting algorithms at SMP barriers: what a thread that is not the last to arrive does, spin (for how long)
// or block. The thesis's algorithms (chapters 2-7) are fixed spin: 0 (always block), a fixed budget, or
// unlimited (always spin). Adaptive ones (Kontothanassis & Wisniewski, thesis chapter 10) learn from past
// barriers and re-decide while spinning, from what the thread observes: ArrivalView and WaitRecord.

#include <cstdint>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "config/policy.hpp"
#include "config/scenario.hpp"

namespace cosched::wait {

using Cycles = std::int64_t;
// A budget no run reaches: always-spin never gives up.
inline constexpr Cycles kUnlimitedSpin = std::numeric_limits<Cycles>::max() / 4;

// What a thread observes of its job and of the machine when it arrives at a barrier and is not the last,
// and again while it spins whenever that state changes.
struct ArrivalView {
  Cycles now = 0;
  int thread = 0;          // its index within the job
  int barrier = 0;         // index of the barrier
  int job_threads = 0;     // N
  int arrived = 0;         // threads at the barrier, this one included
  int blocked_peers = 0;   // peers already blocked at this barrier
  int partition_cpus = 0;  // processors the job may use now: all of them unless the scheduler partitions
  int cpus = 0;
  int idle_cpus = 0;
  int runnable_threads = 0;   // threads of every job ready or running (switches included)
  Cycles context_switch = 0;  // cs_in + cs_out
  Cycles quantum = 0;
  Cycles phase_started_at = 0;  // when its last computation phase began (after its previous barrier)
  // Cycles since its previous arrival at a barrier when it has kept its CPU since then (the same quantum),
  // else -1 (thesis chapter 10, job granularity classification).
  Cycles since_last_arrival = -1;
};

// How one wait ended, told to the algorithm when the thread passes the barrier.
struct WaitRecord {
  int thread = 0;
  int barrier = 0;
  Cycles arrived_at = 0;
  Cycles passed_at = 0;       // when it could go on: a successful poll, or the wake-up that ended its block
  bool spun = false;          // it entered a spin
  bool succeeded = false;     // the spin succeeded
  Cycles spin_cycles = 0;     // cycles it spun on a CPU
  bool blocked = false;       // it blocked
  Cycles blocked_cycles = 0;  // from the end of its spin (its yield) to the wake-up
};

// The decisions of one job instance's threads; they share it, as Kontothanassis & Wisniewski's threads
// share their global SpinThreshold (appendix, figures 9-13).
class SmpWaiter {
 public:
  virtual ~SmpWaiter() = default;
  // Spin budget, in cycles, for a thread that has just arrived at a barrier and is not the last.
  // 0 means block at once without spinning (not counted as a spin in SSR).
  virtual Cycles spin_budget(const ArrivalView& view) = 0;
  // Asked of a spinning thread whenever its job's or the machine's state changes (a peer leaves a CPU,
  // the partition changes): true makes it give up the spin at once.
  virtual bool give_up(const ArrivalView& /*view*/) { return false; }
  // The thread passed a barrier it waited at (it was not the last to arrive).
  virtual void record(const WaitRecord& /*record*/) {}
  // After a successful spin that woke `woken` blocked peers: true releases the CPU (yield-on-wake).
  virtual bool release_after_success(const ArrivalView& /*view*/, int /*woken*/) { return false; }
  // Cycles of user time between a spinning thread's calls to sched_yield(): each failed poll of the `yield`
  // algorithm's loop yields the CPU. 0: it spins without yielding.
  virtual Cycles yield_every() const { return 0; }
};

// A waiting algorithm as a scenario names it: makes one waiter per job instance.
class SmpWaitAlgorithm {
 public:
  virtual ~SmpWaitAlgorithm() = default;
  virtual std::unique_ptr<SmpWaiter> make_waiter() const = 0;
};

// A waiting algorithm as its registry lists it (wait/smp/smp_wait_registry.hpp); each algorithm declares its
// own beside its code: what every policy declares (its parameters derive from config::SmpWaitParams), and
// its factory.
struct SmpWaitEntry {
  config::PolicySpec spec;
  std::unique_ptr<SmpWaitAlgorithm> (*make)(const config::PolicyParams& params);
  // It calls sched_yield(): only the scheduling policies that model it may run it.
  bool yields = false;
};

// The parameters of the algorithms with a spin budget (thesis 2.1 and chapter 10): its cycles and how it was
// written ("6%", "CS+"), for the record.
struct SpinParams : config::SmpWaitParams {
  Cycles spin = 0;
  std::string spin_given;
};
// The spin key of fixed-spin (required) and of the chapter 10 proposals (a default of their own), and its
// resolved form.
extern const config::PolicyKey kSpinKey;
extern const config::PolicyKey kRequiredSpinKey;
void spin_json(const config::PolicyParams& params, nlohmann::ordered_json& out);

// Fixed spin (thesis 2.1): the same budget at every barrier. 0 is always-block, kUnlimitedSpin always-spin.
class FixedSpin final : public SmpWaitAlgorithm, public SmpWaiter {
 public:
  explicit FixedSpin(Cycles budget) : budget_(budget) {}
  Cycles spin_budget(const ArrivalView&) override { return budget_; }
  Cycles spin_budget() const { return budget_; }
  std::unique_ptr<SmpWaiter> make_waiter() const override { return std::make_unique<FixedSpin>(budget_); }

 private:
  Cycles budget_;
};

// The thesis's fixed spins (chapters 2-7; wait/smp/fixed_spin.cpp).
extern const SmpWaitEntry kSmpFixedSpinEntry;
extern const SmpWaitEntry kSmpBlockEntry;
extern const SmpWaitEntry kSmpSpinEntry;
// Poll and sched_yield() until the barrier completes or a budget is spent, then block (wait/smp/yield.cpp).
extern const SmpWaitEntry kSmpYieldEntry;

}  // namespace cosched::wait
