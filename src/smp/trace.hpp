#pragma once
// What the SMP machine notes as it runs (Machine::note): one step of a run, kept on request as a trace
// (Machine::record_trace) and fed to the thread timeline (smp/thread_timeline.hpp).

#include <cstdint>

namespace cosched::smp {

using Cycles = std::int64_t;
using ThreadId = int;
using CpuId = int;

// One step of a run: enough to follow a run cycle by cycle and to draw every thread's state over time
// (thesis figures 4.2, 7.3).
enum class TraceKind {
  SwitchIn,        // a context switch in starts (the thread is running from here, thesis 7.2)
  Run,             // the switch in ended: the thread runs its own code
  Arrive,          // it reached a barrier
  Complete,        // ... as the last: the barrier completes
  Spin,            // it starts spinning
  SpinSuccess,     // a poll saw the barrier complete
  SpinFail,        // its spin ran out: it yields
  SwitchOut,       // a context switch out starts
  Wait4cs,         // chosen by schedule(), waiting for the switch out (thesis 7.2)
  Ready,           // it enters the ready set (cpu: where it was, or -1)
  Block,           // it blocks at the end of its switch out
  Finish,          // it finished, at the end of its switch out
  NeedResched,     // the CPU's need_resched is set (thread: the CPU's current thread)
  RescheduleIdle,  // reschedule_idle(thread) after a switch chose cpu (-1: none)
  Poll,            // its user-level runtime has no work for it yet: it polls on its CPU
  Work,            // polling, it got work from its runtime
};

struct TraceEntry {
  Cycles time;
  TraceKind kind;
  CpuId cpu;
  ThreadId thread;
};

}  // namespace cosched::smp
