#pragma once
// The SMP machine of the Tsafrir thesis (chapters 2 and 7) as a discrete-event system in whole cycles.
// Pure C++: no SimGrid calls. The SimGrid actor in smp/simulation.cpp drives it slice by slice.
//
// Every event belongs to a CPU, each CPU has at most one pending event, and events with equal time
// are processed in ascending CPU id (thesis 2.1, 7.5.4). docs/models/smp.md states every rule.
// The scheduling policy (sched::SmpScheduler) decides; the machine owns the CPUs and shows them to it.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "metrics/timeline.hpp"
#include "sched/smp/smp_scheduler.hpp"
#include "smp/cpu_events.hpp"
#include "smp/thread_timeline.hpp"
#include "smp/trace.hpp"
#include "userlevel/job_runtime.hpp"
#include "wait/smp/smp_wait.hpp"
#include "workload/compute_interval.hpp"

namespace cosched::smp {

using sched::CpuPhase;

struct JobInstance {
  std::string name;
  int copy = 0;
  int threads = 0;
  int barriers = 0;
  double compute_mean = 0;
  double compute_sigma = 0;
  std::shared_ptr<const wait::SmpWaitAlgorithm> wait;
  // A job whose phases are a parallel loop or a task tree: makes its user-level runtime, which hands out its
  // threads' work instead of compute_mean +- sigma (docs/models/smp.md, "User-level scheduling"). Empty for
  // the thesis's jobs.
  std::function<std::unique_ptr<userlevel::JobRuntime>()> make_runtime;
  int nice = 0;  // its threads' nice value, for the policies that weigh threads by it (cfs, eevdf)
};

struct MachineConfig {
  int cpus = 0;
  Cycles cs_in = 0;
  Cycles cs_out = 0;
  Cycles idle_wakeup = 0;  // added to a switch in on a CPU that was idle
  Cycles quantum = 0;      // for the waiting algorithms' view only; the policy owns time slices
  bool shuffle = false;
  bool end_at_first_finish = false;
  int nosync = 0;
  int nosync_nice = 0;
  std::uint64_t seed = 1;
  std::vector<JobInstance> jobs;  // one entry per instance (copies expanded), in scenario order
  // Start-up ready-queue order by thread id; empty means the thesis's order (or its shuffle).
  // Thread ids number the synchronizing jobs' threads in job order, then the non-synchronizing threads.
  std::vector<int> initial_order;
};

struct JobOutcome {
  std::optional<Cycles> completion_time;  // when its last thread finished
  std::int64_t successful_spins = 0;
  std::int64_t total_spins = 0;
  int barriers_completed = 0;
  std::int64_t blocks = 0;                 // times a thread blocked (gave up its CPU to wait)
  std::int64_t context_switches = 0;       // switches in of the job's threads
  std::int64_t spin_cycles = 0;            // cycles its threads spent spinning on a CPU
  std::optional<Cycles> last_failed_spin;  // when its last unsuccessful spin gave up (thesis 7.6)
  // Its work on its partition: ceil(threads / partition size at the phase's start) x compute mean, summed
  // over the phases begun (Kontothanassis & Wisniewski's work delay; docs/models/smp.md section 18).
  double partition_work = 0;
};

// Wait4cs: chosen by schedule() and waiting for the switch out of the CPU's previous thread (thesis 7.2).
enum class ThreadState { Ready, Wait4cs, Running, Blocked, Finished };

class Machine final : private sched::SmpHost {
 public:
  Machine(MachineConfig config, std::unique_ptr<sched::SmpScheduler> scheduler);
  // Neither copied nor moved: the scheduler holds it as its host.
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Processes every event with time <= until. Returns true while the run goes on.
  bool run_until(Cycles until);
  bool done() const { return done_; }
  Cycles now() const override { return now_; }
  std::optional<Cycles> next_event_time() const;

  std::uint64_t events() const { return events_; }
  const std::vector<JobOutcome>& outcomes() const { return outcomes_; }
  const MachineConfig& config() const { return config_; }
  // Fraction of all barriers completed so far, for progress reports.
  double barrier_progress() const;

  // Introspection for tests.
  ThreadState thread_state(ThreadId thread) const { return threads_[thread].state; }
  std::optional<CpuId> thread_cpu(ThreadId thread) const;
  ThreadId first_thread_of_job(int job) const { return job_first_thread_[job]; }
  int thread_count() const override { return static_cast<int>(threads_.size()); }
  const sched::CpuView& cpu(CpuId cpu) const override { return cpus_[cpu].view; }
  const sched::SmpScheduler& scheduler() const { return *scheduler_; }
  // The job's user-level runtime, null for a job without one.
  const userlevel::JobRuntime* runtime(int job) const { return jobs_[job].runtime.get(); }
  // Whether the thread polls for work (its runtime answered WaitForWork).
  bool polling(ThreadId thread) const { return threads_[thread].user == UserStep::Poll; }
  sched::SmpScheduler& scheduler() { return *scheduler_; }
  void record_trace(bool on) {
    tracing_ = on;
    observed_ = tracing_ || timeline_ || logs_;
  }
  const std::vector<TraceEntry>& trace() const { return trace_; }
  // Records the synchronizing jobs' threads' states from now on (output.timeline).
  void record_timeline();
  // One lane per synchronizing thread (job order, thread index), each closed at its job's completion (or
  // now, for a job that did not complete); empty unless recorded.
  std::vector<metrics::TimelineLane> timeline() const;

 private:
  enum class SwitchOutReason { Preempt, Yield, Finish, Release };
  // Where a thread of a job with a user-level runtime is in its phase (None: a job without one).
  // Ask: it must call the runtime's next() once on a CPU (a phase begins, or its work ran to its end);
  // Work: it runs what next() gave (work_left); Poll: it waits for work on its CPU; Arrive: next() said
  // Done, work_left is the arrival's one cycle.
  enum class UserStep : std::uint8_t { None, Ask, Work, Poll, Arrive };

  struct Thread {
    int job = -1;  // -1: non-synchronizing
    int address_space = 0;
    int nice = 0;
    ThreadState state = ThreadState::Ready;
    CpuId cpu = -1;
    int barrier = 0;              // index of the barrier it works toward or waits at
    bool spinning = false;        // waiting at a barrier with spin budget left (on or off a CPU)
    bool finish_pending = false;  // passed its last barrier while off the CPU
    UserStep user = UserStep::None;
    Cycles work_left = 0;   // computation plus the one-cycle arrival, for the current phase
    Cycles spin_left = 0;   // spin budget left
    Cycles yield_left = 0;  // a yielding waiter's user time until its next sched_yield()
    Cycles success_at = 0;  // when the spin succeeds, once its barrier has completed
    Cycles phase_started_at = 0;
    Cycles blocked_at = 0;        // when it last blocked
    bool wait_to_record = false;  // a wait that blocked: told to the waiter when the thread runs again
    std::int64_t dispatches = 0;  // switches in so far
    Cycles last_arrival_at = -1;
    std::int64_t last_arrival_dispatch = -1;
    wait::WaitRecord wait;  // the wait in progress
    std::optional<workload::ComputeInterval> compute;
  };

  struct Cpu {
    sched::CpuView view;
    Cycles run_since = 0;  // progress of the running thread is accounted up to here
    Cycles quantum_end = 0;
    Cycles next_event = 0;
    Cycles last_handled = -1;  // the cycle of its last processed event
    SwitchOutReason reason = SwitchOutReason::Preempt;
    ThreadId after_switch =
        -1;  // runnable previous thread: reschedule_idle(prev) after the switch (alg. 4, l. 27)
    Cycles after_switch_at = 0;
    bool pending = false;  // it has an event in events_queue_, at next_event
  };

  struct JobState {
    int arrived = 0;
    int completed = 0;  // barriers completed
    int finished_threads = 0;
    std::vector<ThreadId> blocked;  // in the order they blocked
    std::unique_ptr<wait::SmpWaiter> waiter;
    int woken_at_last_completion = 0;
    std::unique_ptr<userlevel::JobRuntime> runtime;  // null: compute_mean +- sigma
  };

  // SmpHost
  int cpu_count() const override { return static_cast<int>(cpus_.size()); }
  int address_space(ThreadId thread) const override { return threads_[thread].address_space; }
  int nice(ThreadId thread) const override { return threads_[thread].nice; }
  void settle_running() override;
  void slices_changed() override;
  void resched_cpu(CpuId cpu) override { set_need_resched(cpu); }

  void note(TraceKind kind, CpuId cpu, ThreadId thread);
  void apply_change();
  void run_after_switch(CpuId cpu);
  void schedule(CpuId cpu, Cycles time);
  void handle(CpuId cpu);
  void handle_switch_in_end(CpuId cpu);
  void handle_running(CpuId cpu);
  void handle_switch_out_end(CpuId cpu);
  void schedule_running(CpuId cpu);
  // Inlined into handle_running, the hottest caller, which the decision lines made too big for GCC to do so.
  [[gnu::always_inline]] void settle(CpuId cpu);
  void switch_out(CpuId cpu, SwitchOutReason reason);
  void switch_in(CpuId cpu, ThreadId thread);
  void go_idle(CpuId cpu);
  void dispatch(CpuId cpu);
  void dispatch_idle();
  // schedule() of the thesis's algorithm 4 on `cpu`; `leaving` says why its thread gives up the CPU, nothing
  // when it is still runnable (quantum expiry, need_resched).
  void run_schedule(CpuId cpu, std::optional<SwitchOutReason> leaving);
  void leave(CpuId cpu, SwitchOutReason reason);
  void set_need_resched(CpuId cpu);
  void make_ready(ThreadId thread, sched::ReadyReason reason);
  void arrive(ThreadId thread, CpuId cpu);
  void complete_barrier(int job, CpuId completer);
  void add_phase_work(int job);  // a phase of the job begins: JobOutcome::partition_work
  // Moves the thread past the barrier it waited at; returns true if that was its last barrier.
  bool pass_barrier(Thread& thread);
  void record_wait(ThreadId thread);
  // Asks the job's spinning threads whether they give up, after a change they observe (thesis 10, K&W 3).
  void recheck_spinners(int job);
  void finish(ThreadId thread);
  void start_phase(Thread& thread);
  // Calls the runtime's next() for a thread running on its CPU (docs/models/smp.md, "The runtime
  // contract"); then, if its job's runtime has work for polling threads, offers it to them (offer_work).
  void ask_runtime(ThreadId thread);
  void take_next(ThreadId thread);  // one call of next() and its answer
  void offer_work(int job);
  bool barrier_complete(const Thread& thread) const { return jobs_[thread.job].completed > thread.barrier; }
  // Its waiting algorithm polls and calls sched_yield() while it spins (the `yield` algorithm).
  bool yields(const Thread& thread) const { return jobs_[thread.job].waiter->yield_every() > 0; }
  wait::ArrivalView arrival_view(ThreadId thread) const;
  bool before_switch() const { return decides_before_switch_; }
  // "job fine#0 thread 2" or "nosync thread 45", for the decision lines of the log.
  // A decision line of cosched_smp_machine (`what`: a printf format and its arguments).
  [[gnu::cold]] void log_noted(TraceKind kind, CpuId cpu, ThreadId thread) const;
  [[gnu::cold, gnu::noinline, gnu::format(printf, 4, 5)]] void log_decision(CpuId cpu, ThreadId thread,
                                                                            const char* what, ...) const;
  std::string who(ThreadId thread) const;
  // Names the thread as the subject of its runtime's cosched_userlevel lines (util/log.hpp).
  [[gnu::cold, gnu::noinline]] void name_userlevel_caller(ThreadId thread) const;
  static const char* reason_name(SwitchOutReason reason);

  MachineConfig config_;
  std::unique_ptr<sched::SmpScheduler> scheduler_;
  bool logs_;      // cosched_smp_machine is on at debug (log settings are made before the run)
  bool observed_;  // tracing_, timeline_ or logs_: a noted step has somewhere to go (note()'s one test)
  bool decides_before_switch_ = false;
  std::optional<Cycles> next_change_;  // the policy's next_change(), which changes only in change()
  std::vector<Thread> threads_;
  std::vector<Cpu> cpus_;
  std::vector<JobState> jobs_;
  std::vector<JobOutcome> outcomes_;
  std::vector<ThreadId> job_first_thread_;
  std::set<CpuId> idle_;
  int idle_cpus_ = 0;            // CPUs in phase Idle (kept by switch_in and go_idle)
  std::vector<ThreadId> woken_;  // complete_barrier's list of the threads it wakes
  // Each CPU's pending event, except during the CPU's own handling: its event stays there until handle()
  // returns (nothing reads the queue meanwhile), and is then cleared unless the handler scheduled another.
  CpuEvents events_queue_;
  CpuId current_cpu_ = -1;  // the CPU whose event is being processed
  Cycles now_ = 0;
  std::uint64_t events_ = 0;
  int jobs_remaining_ = 0;
  int runnable_ = 0;  // threads ready, in wait4cs or on a CPU
  std::int64_t barriers_total_ = 0;
  std::int64_t barriers_done_ = 0;
  bool done_ = false;
  bool tracing_ = false;
  std::vector<TraceEntry> trace_;
  std::unique_ptr<ThreadTimeline> timeline_;  // null unless recorded
};

}  // namespace cosched::smp
