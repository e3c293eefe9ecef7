#pragma once
// The task-tree runtime of an SMP job (issue 23 section 3; docs/models/smp.md, "Task trees"): a fork-join
// tree, fib(n) or binary(depth), run by the job's threads through a user-level scheduler with one of two
// policies:
// - central-queue: the seed's task library (seed 1.3) with its one run queue shared by all the job's threads;
// - work-stealing: per-thread deques, work-first spawns and steals from the top of a victim's deque
//   (Blumofe & Leiserson 1999; Frigo, Leiserson & Randall 1998, the Cilk-5 implementation).
// Both keep the seed's mechanics: a task is a user-level context, each thread has a scheduler context, and
// every jump between a task and the scheduler context is one user-level switch of `switch` cycles.
// The runtime is pure bookkeeping behind job_runtime.hpp's contract; the SMP machine runs the cycles.

#include <cstdint>
#include <string>
#include <vector>

#include "userlevel/job_runtime.hpp"

namespace cosched::userlevel {

// Tasks in the tree of `tasks`: fib(n) has 1 for n < 2, else 1 + fib(n-1)'s + fib(n-2)'s; binary(d) has
// 2^(d+1) - 1. Throws std::invalid_argument for a negative size or a count past 2^62.
std::int64_t task_tree_size(const config::SmpTasks& tasks);

class TaskRuntime final : public JobRuntime {
 public:
  // One answer of next(), for tests and explanations. A task is named by its path from the root: "r" is the
  // root, "r0" its first child (fib(n-1)), "r1" its second (fib(n-2)), "r01" the second child of "r0".
  struct Step {
    Cycles at = 0;
    int thread = 0;
    std::string text;  // "r0 child spawn", "r queue yield", "r steal:T0 spawn", "wait", "done"
  };

  // Throws std::invalid_argument for a negative size or cost, or threads < 1.
  TaskRuntime(const config::SmpTasks& tasks, int threads);

  Next next(int thread, int phase, Cycles now) override;
  bool work_available() const override;
  const ThreadStats& stats(int thread) const override;

  workload::TaskPolicy policy() const { return policy_; }
  // Every answer from now on is appended to *steps (nullptr stops the recording).
  void record_steps(std::vector<Step>* steps) { steps_ = steps; }

 private:
  using TaskId = std::int32_t;
  static constexpr TaskId kNoTask = -1;

  struct Task {
    TaskId parent = kNoTask;
    std::int32_t size = 0;         // n of fib(n), depth of binary(depth)
    std::uint8_t child_index = 0;  // 0: its parent's first spawn, 1: the second
    std::uint8_t spawned = 0;      // children spawned so far (an inner task spawns 2, then syncs)
    std::uint8_t unfinished = 0;   // spawned children that have not returned
    bool queued = false;           // central-queue: in the run queue
    bool suspended = false;        // work-stealing: parked at its sync until its last child returns
  };

  // A double-ended queue of task ids in one vector: push and pop at the bottom, take from the top. The
  // central run queue uses it as a FIFO (push at the bottom, take the top).
  class TaskDeque {
   public:
    bool empty() const { return top_ == items_.size(); }
    std::size_t size() const { return items_.size() - top_; }
    void push_bottom(TaskId task) { items_.push_back(task); }
    TaskId pop_bottom();
    TaskId pop_top();
    void clear() {
      items_.clear();
      top_ = 0;
    }

   private:
    std::vector<TaskId> items_;
    std::size_t top_ = 0;  // items_[top_ ..] are the live entries, top first
  };

  // How the Work a thread was last given ends; applied at its next call, when it happens (the contract).
  enum class Ending { Nothing, Spawned, Returned, Yielded, Suspended };
  // Where the task a thread enters comes from.
  enum class Source { Child, Queue, Own, Steal };

  struct Worker {
    Ending ending = Ending::Nothing;
    TaskId task = kNoTask;   // the task of the Work last given
    TaskId child = kNoTask;  // Ending::Spawned: the child it runs next
    bool waiting = false;    // told WaitForWork, not yet Work or Done
    Cycles waiting_since = 0;
    bool done = false;  // told Done in the current phase
    TaskDeque deque;    // work-stealing: its own deque
    ThreadStats stats;
  };

  bool is_leaf(std::int32_t size) const;
  std::int32_t child_size(std::int32_t size, int child_index) const;
  // An inner task that has spawned both children and waits for one: its sync would fail now.
  static bool blocked(const Task& task) { return task.spawned == 2 && task.unfinished > 0; }

  void begin_phase(int phase);
  TaskId new_task(TaskId parent, std::int32_t size, int child_index);
  void apply_ending(int thread);
  void complete(int thread, TaskId task);
  void push_queue(TaskId task);
  void push_own(int thread, TaskId task);
  TaskId take_next(int thread, Source& source, int& victim);
  Cycles enter(int thread, TaskId task, Source source, int victim, Cycles now);
  void stop_waiting(Worker& worker, Cycles now);
  std::string label(TaskId task) const;
  void record(Cycles now, int thread, std::string text);

  workload::TaskPolicy policy_;
  workload::TaskTree tree_;
  std::int32_t size_;
  Cycles leaf_, spawn_, switch_;
  std::vector<Worker> workers_;
  std::vector<Task> tasks_;         // the pool: a completed task's slot is reused through free_
  std::vector<TaskId> free_;        // slots of completed tasks
  TaskDeque queue_;                 // central-queue: the run queue, front at the top
  std::size_t queued_blocked_ = 0;  // central-queue: queued tasks whose sync would fail now
  std::size_t deque_entries_ = 0;   // work-stealing: tasks in all the deques
  int phase_ = -1;
  bool finished_ = false;  // the current phase's root has returned
  std::vector<Step>* steps_ = nullptr;
  bool logs_;  // cosched_userlevel is on at debug (log settings are made before the run)
};

}  // namespace cosched::userlevel
