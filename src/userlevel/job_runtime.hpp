#pragma once
// User-level scheduling inside an SMP job (issue 23; docs/models/smp.md, "User-level scheduling"): the
// runtime that hands a job's threads their work within a phase, a parallel loop's chunks or a task tree's
// tasks. Pure C++ and pure bookkeeping: the SMP machine (smp/machine.cpp) runs the cycles it hands out on
// its CPUs, under the kernel's scheduling, and asks again when they are done.
//
// The contract with the machine:
// - A phase begins for the job when its previous barrier completes (the first phase at time 0). Each thread
//   calls next(thread, phase, now) when it begins the phase on a CPU and again each time the work the last
//   call gave it has run to its end. The effects of that finished work (a task completed, a parent queued)
//   happen at the call, so `now` is the moment they happen.
// - Work: run `cycles` more cycles (every cost included: iterations, dispatches, spawns, user-level
//   switches), then call again. A thread descheduled in the middle keeps its work (a static chunk, a taken
//   dynamic chunk, a running task): nobody else can do it.
// - WaitForWork: nothing to do now, but the phase is not over (a task tree whose queue is empty while
//   other threads run tasks). The thread polls on its CPU (it spins: docs/models/smp.md says why) and
//   calls next() again when work_available() turns true while it is on a CPU, or when it is switched back
//   in. The machine asks work_available() after every call to next() by a thread of the job.
// - Done: the phase's work is over for this thread: it arrives at the phase's barrier (the loop's implicit
//   barrier, the tree's end), with the job's waiting algorithm.

#include <cstdint>
#include <memory>

#include "config/scenario.hpp"

namespace cosched::userlevel {

using Cycles = std::int64_t;

struct Next {
  enum class Kind { Work, WaitForWork, Done };
  Kind kind = Kind::Done;
  Cycles cycles = 0;  // Work: cycles to run before the next call (> 0)
};

// What one thread did, summed over the phases (jobs.csv, summary.json).
struct ThreadStats {
  std::int64_t iterations = 0;       // loop iterations run
  std::int64_t chunks = 0;           // loop chunks run
  std::int64_t tasks = 0;            // tasks run to completion
  std::int64_t dispatches = 0;       // chunks taken from the shared counter, or tasks taken from a queue
  std::int64_t steals = 0;           // work stealing: tasks taken from another thread's deque
  Cycles dispatch_cycles = 0;        // cycles spent taking work (loop dispatch)
  Cycles switch_cycles = 0;          // cycles spent in user-level switches
  Cycles spawn_cycles = 0;           // cycles spent spawning tasks
  Cycles waiting_for_work = 0;       // time from a WaitForWork answer to the next Work or Done
  // A job's sums over its threads (metrics::SmpUserLevelRecord is this type).
  ThreadStats& operator+=(const ThreadStats& o) {
    iterations += o.iterations;
    chunks += o.chunks;
    tasks += o.tasks;
    dispatches += o.dispatches;
    steals += o.steals;
    dispatch_cycles += o.dispatch_cycles;
    switch_cycles += o.switch_cycles;
    spawn_cycles += o.spawn_cycles;
    waiting_for_work += o.waiting_for_work;
    return *this;
  }
};

class JobRuntime {
 public:
  virtual ~JobRuntime() = default;
  // Thread `thread` (0 .. threads-1 of the job) is on a CPU at `now` in phase `phase` (0-based) and has
  // finished the work the last call gave it, or begins the phase.
  virtual Next next(int thread, int phase, Cycles now) = 0;
  // Whether a thread that was told WaitForWork could now get something else.
  virtual bool work_available() const = 0;
  virtual const ThreadStats& stats(int thread) const = 0;
};

// The loop of `loop` run by `threads` threads; iteration costs drawn from a stream seeded by `seed`.
std::unique_ptr<JobRuntime> make_loop_runtime(const config::SmpLoop& loop, int threads, std::uint64_t seed);
// The task tree of `tasks` run by `threads` threads with the policy it names.
std::unique_ptr<JobRuntime> make_task_runtime(const config::SmpTasks& tasks, int threads);

}  // namespace cosched::userlevel
