#pragma once
// The synchronizing threads' state timelines of an SMP run (output.timeline, timeline.csv;
// docs/models/smp.md section 19): each thread's state intervals, fed by the steps the machine notes.

#include <string>
#include <vector>

#include "metrics/timeline.hpp"
#include "smp/trace.hpp"

namespace cosched::smp {

// A thread's state in its timeline.
// Polling (a thread of a user-level runtime waiting for work on its CPU) comes last: the runs without one
// name the other states only, with the indices they always had.
enum class TimelineState { Computing, Spinning, Switching, Wait4cs, Ready, Blocked, Finished, Polling };

class ThreadTimeline {
 public:
  explicit ThreadTimeline(int threads) : recorder_(threads) {}

  // `thread` is in `state` at `place` (its CPU, or -1) from `now` on.
  void enter(ThreadId thread, Cycles now, TimelineState state, CpuId place) {
    recorder_.enter(thread, now, static_cast<int>(state), place);
  }
  // The step the machine noted at `now` moves `thread` to its state, if the step changes it; `spinning`,
  // `polling`: the thread spins at a barrier, or polls for work, when it runs (a Run step).
  void note(TraceKind kind, Cycles now, CpuId cpu, ThreadId thread, bool spinning, bool polling = false);
  // The intervals of `thread` up to `end`, the open one closed there.
  std::vector<metrics::TimelineInterval> closed(ThreadId thread, Cycles end) const {
    return recorder_.closed(thread, end);
  }
  // The states' names in timeline.csv, indexed by TimelineState; with `polling` only when a job of the run
  // has a user-level runtime.
  static const std::vector<std::string>& state_names(bool polling = false);

 private:
  metrics::TimelineRecorder recorder_;
};

}  // namespace cosched::smp
