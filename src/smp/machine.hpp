#pragma once
// The SMP machine of the Tsafrir thesis (chapter 2) as a discrete-event system in whole cycles.
// Pure C++: no SimGrid calls. The SimGrid actor in smp/simulation.cpp drives it slice by slice.
//
// Every event belongs to a CPU, each CPU has at most one pending event, and events with equal time
// are processed in ascending CPU id (thesis 2.1, 7.5.4). docs/models/smp.md states every rule.

#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "sched/smp_scheduler.hpp"
#include "wait/smp_wait.hpp"
#include "workload/compute_interval.hpp"

namespace cosched::smp {

using Cycles = std::int64_t;
using ThreadId = int;
using CpuId = int;

struct JobInstance {
  std::string name;
  int copy = 0;
  int threads = 0;
  int barriers = 0;
  double compute_mean = 0;
  double compute_sigma = 0;
  std::shared_ptr<const wait::SmpWaitAlgorithm> wait;
};

struct MachineConfig {
  int cpus = 0;
  Cycles cs_in = 0;
  Cycles cs_out = 0;
  bool shuffle = false;
  bool end_at_first_finish = false;
  int nosync = 0;
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
};

enum class ThreadState { Ready, Running, Blocked, Finished };

class Machine {
 public:
  Machine(MachineConfig config, std::unique_ptr<sched::SmpScheduler> scheduler);

  // Processes every event with time <= until. Returns true while the run goes on.
  bool run_until(Cycles until);
  bool done() const { return done_; }
  Cycles now() const { return now_; }
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
  int thread_count() const { return static_cast<int>(threads_.size()); }

 private:
  enum class CpuPhase { Idle, SwitchIn, Running, SwitchOut };
  enum class SwitchOutReason { Preempt, Yield, Finish };

  struct Thread {
    int job = -1;  // -1: non-synchronizing
    ThreadState state = ThreadState::Ready;
    CpuId cpu = -1;
    int barrier = 0;              // index of the barrier it works toward or waits at
    bool spinning = false;        // waiting at a barrier with spin budget left (on or off a CPU)
    bool finish_pending = false;  // passed its last barrier while off the CPU
    Cycles work_left = 0;         // computation plus the one-cycle arrival, for the current phase
    Cycles spin_left = 0;         // spin budget left
    Cycles success_at = 0;        // when the spin succeeds, once its barrier has completed
    std::optional<workload::ComputeInterval> compute;
  };

  struct Cpu {
    CpuPhase phase = CpuPhase::Idle;
    ThreadId thread = -1;
    Cycles run_since = 0;  // progress of the running thread is accounted up to here
    Cycles quantum_end = 0;
    Cycles next_event = 0;
    SwitchOutReason reason = SwitchOutReason::Preempt;
    std::uint64_t version = 0;
  };

  struct JobState {
    int arrived = 0;
    int completed = 0;  // barriers completed
    int finished_threads = 0;
    std::vector<ThreadId> blocked;  // in the order they blocked
  };

  struct Event {
    Cycles time;
    CpuId cpu;
    std::uint64_t version;
    bool operator>(const Event& other) const {
      return time != other.time ? time > other.time : cpu > other.cpu;
    }
  };

  void schedule(CpuId cpu, Cycles time);
  void handle(CpuId cpu);
  void handle_switch_in_end(CpuId cpu);
  void handle_running(CpuId cpu);
  void handle_switch_out_end(CpuId cpu);
  void schedule_running(CpuId cpu);
  void switch_out(CpuId cpu, SwitchOutReason reason);
  void dispatch(CpuId cpu);
  void dispatch_idle();
  void make_ready(ThreadId thread);
  void arrive(ThreadId thread, CpuId cpu);
  void complete_barrier(int job, CpuId completer);
  // Moves the thread past the barrier it waited at; returns true if that was its last barrier.
  bool pass_barrier(Thread& thread);
  void finish(ThreadId thread);
  void start_phase(Thread& thread);
  bool barrier_complete(const Thread& thread) const { return jobs_[thread.job].completed > thread.barrier; }

  MachineConfig config_;
  std::unique_ptr<sched::SmpScheduler> scheduler_;
  std::vector<Thread> threads_;
  std::vector<Cpu> cpus_;
  std::vector<JobState> jobs_;
  std::vector<JobOutcome> outcomes_;
  std::vector<ThreadId> job_first_thread_;
  std::set<CpuId> idle_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_queue_;
  Cycles now_ = 0;
  std::uint64_t events_ = 0;
  int jobs_remaining_ = 0;
  std::int64_t barriers_total_ = 0;
  std::int64_t barriers_done_ = 0;
  bool done_ = false;
};

}  // namespace cosched::smp
