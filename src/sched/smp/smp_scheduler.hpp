#pragma once
// The decision logic of an SMP scheduling policy: which ready thread a CPU runs next, for how long, and which
// CPUs must reschedule when threads become ready. Policies never advance time or touch SimGrid; the SMP
// machine (src/smp/machine.hpp) calls them and owns the CPUs, whose state it shows them through SmpHost.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/policy.hpp"
#include "config/scenario.hpp"

namespace cosched::sched {

using ThreadId = int;
using CpuId = int;
using Cycles = std::int64_t;

// Why a thread enters the ready set (Tsafrir thesis 2.1, 6.5.3, 6.5.4).
enum class ReadyReason {
  Start,      // at start-up, in the start-up order
  Woken,      // its barrier completed while it was blocked (__wake_up_common)
  Preempted,  // it left its CPU still runnable (quantum expiry, or a better thread took the CPU)
  Requeued,   // it gave up its CPU to block, but its barrier completed during the switch out (thesis 4.3.4)
};

// What a CPU is doing, as a policy may see it.
enum class CpuPhase { Idle, SwitchIn, Running, SwitchOut };

struct CpuView {
  CpuPhase phase = CpuPhase::Idle;
  // The CPU's current task: the running thread, the one switching in, or (during a switch out) the one
  // leaving, which counts as running until its switch ends (thesis 7.2). -1 on an idle CPU (the idle task).
  ThreadId current = -1;
  ThreadId next = -1;         // chosen to run after the switch out (the thesis's wait4cs state), or -1
  bool need_resched = false;  // schedule() must run on this CPU at its next chance (thesis 6.4.4)
  Cycles idle_since = 0;      // when it last became idle: "least recently active" (thesis 6.5.2)
};

// What the machine shows a policy.
class SmpHost {
 public:
  virtual ~SmpHost() = default;
  virtual int cpu_count() const = 0;
  virtual const CpuView& cpu(CpuId cpu) const = 0;
  virtual int thread_count() const = 0;
  // Threads with the same address space (the threads of one job) share this number (thesis 6.4.4, mm).
  virtual int address_space(ThreadId thread) const = 0;
  // The thread's nice value (the job's `nice`), for the policies that weigh threads by it.
  virtual int nice(ThreadId /*thread*/) const { return 0; }
  // Accounts every running thread's user time up to now (charge() for each), so that counters are current.
  virtual void settle_running() = 0;
  // Every thread's time slice changed (a Linux epoch): the machine re-reads those of running threads.
  virtual void slices_changed() = 0;
  // The machine's clock, in cycles.
  virtual Cycles now() const = 0;
  // `cpu` must run schedule() at its next chance (need_resched), for a policy that moved a thread to its
  // queue outside a wake-up (load balancing).
  virtual void resched_cpu(CpuId /*cpu*/) {}
};

class SmpScheduler {
 public:
  virtual ~SmpScheduler() = default;
  // Called once by the machine before any other call.
  virtual void attach(SmpHost& host) { host_ = &host; }

  // How the machine drives the policy.
  // true: schedule() decides the next thread when the CPU's thread leaves, before its switch out, and the
  //   chosen thread waits for the switch (thesis 7.2, wait4cs); idle CPUs run schedule() only when their
  //   need_resched is set (thesis 6.5.2, 6.6.1).
  // false: the CPU takes the next thread at the end of the switch out, and idle CPUs take newly ready
  //   threads at once (round robin, thesis 2.1).
  virtual bool decides_before_switch() const { return false; }

  virtual void enqueue(ThreadId thread, ReadyReason reason) = 0;
  // The thread `cpu` should run next. `prev` is the CPU's current thread when it is still runnable: it
  // competes with the ready threads and, when returned, keeps running without a switch. Any other returned
  // thread is removed from the ready set. Nothing when no thread can run.
  virtual std::optional<ThreadId> pick_next(CpuId cpu, std::optional<ThreadId> prev) = 0;
  // How long the thread may run from now, in cycles of user time.
  virtual Cycles time_slice(ThreadId thread) const = 0;
  // The thread ran `cycles` of user time (computing or spinning).
  virtual void charge(ThreadId /*thread*/, Cycles /*cycles*/) {}
  // The running thread on `cpu` called sched_yield() (the `yield` waiting algorithm): the policy's
  // yield_task; the machine then runs schedule() (a policy that decides before the switch) or, for one that
  // does not, hands the CPU to the head of the ready set if there is one and queues the yielder at the tail.
  virtual void yield(ThreadId /*thread*/, CpuId /*cpu*/) {}
  // The thread left the ready set for good or for a while (it blocked, or finished).
  virtual void blocked(ThreadId /*thread*/) {}
  virtual void finished(ThreadId /*thread*/) {}
  // Threads that a barrier completion on `this_cpu` has just made ready (already enqueued, in wake order):
  // the CPUs whose need_resched must be set, in the order they are chosen (__wake_up_common, thesis 6.5.3).
  virtual std::vector<CpuId> wake(const std::vector<ThreadId>& /*woken*/, CpuId /*this_cpu*/) { return {}; }
  // reschedule_idle(thread) run on `this_cpu` (thesis algorithm 2): the CPU whose need_resched must be set.
  virtual std::optional<CpuId> reschedule_idle(ThreadId /*thread*/, CpuId /*this_cpu*/) {
    return std::nullopt;
  }

  virtual bool has_ready() const = 0;
  virtual std::size_t ready_count() const = 0;

  // Processors the job with this address space may use now (Kontothanassis & Wisniewski's partition size).
  virtual int partition_cpus(int /*address_space*/) const { return host_ ? host_->cpu_count() : 0; }
  // A change of the policy's own (a new partition) due at that cycle; the machine calls change() then, and
  // vacates the CPUs that are no longer usable. Its value may change only in change(): the machine reads it
  // once at the start and after each change().
  virtual std::optional<Cycles> next_change() const { return std::nullopt; }
  virtual void change(Cycles /*now*/) {}
  virtual bool cpu_usable(CpuId /*cpu*/) const { return true; }
  // Whether change() redraws partitions, which waiting algorithms watching the machine then see (the
  // machine rechecks their spins); false for a policy whose changes only move queued threads.
  virtual bool change_is_repartition() const { return true; }

 protected:
  SmpHost* host_ = nullptr;
};

// An SMP scheduling policy as its registry lists it (sched/smp/smp_policy_registry.hpp); each policy declares
// its own beside its code: what every policy declares (its parameters derive from
// config::SmpSchedulerParams), its checks that need the workload, its factory, and whether it partitions the
// CPUs.
struct SmpSchedulerEntry {
  config::PolicySpec spec;
  // Refusals that need the rest of the scenario (the workload), once every section is read; may be null.
  // Errors are located at `scenario`, the scenario's top mapping.
  void (*check)(const config::Field& scenario, const config::PolicyParams& params,
                const config::SmpConfig& smp);
  // The policy on `cpus` CPUs (a platform file's, once loaded), for the run's seed.
  std::unique_ptr<SmpScheduler> (*make)(const config::PolicyParams& params, const config::SmpConfig& smp,
                                        int cpus, std::uint64_t seed);
  // It divides the CPUs among the jobs: the run's record reports K&W's barrier overhead per phase.
  bool partitions = false;
  // It models sched_yield(), which the `yield` waiting algorithm calls.
  bool yields = false;
  // It weighs threads by their nice value: jobs may give `nice`, and workload `nosync_nice`.
  bool nice = false;
};

}  // namespace cosched::sched
