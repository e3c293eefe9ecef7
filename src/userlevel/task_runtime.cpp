#include "userlevel/task_runtime.hpp"

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "util/log.hpp"

XBT_LOG_EXTERNAL_CATEGORY(cosched_userlevel);

namespace cosched::userlevel {

std::int64_t task_tree_size(const config::SmpTasks& tasks) {
  return workload::task_tree_size(tasks.tree, tasks.size);
}

TaskRuntime::TaskId TaskRuntime::TaskDeque::pop_bottom() {
  const TaskId task = items_.back();
  items_.pop_back();
  if (empty()) clear();
  return task;
}

TaskRuntime::TaskId TaskRuntime::TaskDeque::pop_top() {
  const TaskId task = items_[top_++];
  if (empty()) {
    clear();
  } else if (top_ > 1024 && 2 * top_ > items_.size()) {
    // Amortized O(1) per take: the taken half is dropped only when it outweighs the live entries.
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(top_));
    top_ = 0;
  }
  return task;
}

TaskRuntime::TaskRuntime(const config::SmpTasks& tasks, int threads)
    : policy_(tasks.policy),
      tree_(tasks.tree),
      size_(tasks.size),
      leaf_(tasks.leaf),
      spawn_(tasks.spawn),
      switch_(tasks.switch_cost),
      logs_(XBT_LOG_ISENABLED(cosched_userlevel, xbt_log_priority_debug)) {
  if (threads < 1)
    throw std::invalid_argument("task runtime: expected threads >= 1, got " + std::to_string(threads));
  if (size_ < 0) throw std::invalid_argument("tasks.tree: expected a size >= 0, got " + tasks.tree_given);
  if (leaf_ < 0)
    throw std::invalid_argument("tasks.leaf: expected cycles >= 0, got " + std::to_string(leaf_));
  if (spawn_ < 0)
    throw std::invalid_argument("tasks.spawn: expected cycles >= 0, got " + std::to_string(spawn_));
  if (switch_ < 0) {
    throw std::invalid_argument("tasks.switch: expected cycles >= 0, got " + std::to_string(switch_));
  }
  workers_.resize(static_cast<std::size_t>(threads));
}

// fib: the seed's fibo (seed 1.1), a leaf for n < 2, else fib(n-1) then fib(n-2). binary: two children of
// depth - 1, leaves at depth 0.
bool TaskRuntime::is_leaf(std::int32_t size) const {
  switch (tree_) {
    case workload::TaskTree::Fib:
      return size < 2;
    case workload::TaskTree::Binary:
      return size == 0;
  }
  throw std::logic_error("task runtime: a tree kind without a shape");
}

std::int32_t TaskRuntime::child_size(std::int32_t size, int child_index) const {
  switch (tree_) {
    case workload::TaskTree::Fib:
      return size - 1 - child_index;
    case workload::TaskTree::Binary:
      return size - 1;
  }
  throw std::logic_error("task runtime: a tree kind without a shape");
}

void TaskRuntime::begin_phase(int phase) {
  if (phase == phase_) return;
  if (phase < phase_) {
    throw std::logic_error("task runtime: a thread asked for phase " + std::to_string(phase) +
                           " after phase " + std::to_string(phase_) + " began");
  }
  if (phase_ >= 0 && !finished_) {
    throw std::logic_error("task runtime: phase " + std::to_string(phase) +
                           " began before the tree of phase " + std::to_string(phase_) + " finished");
  }
  phase_ = phase;
  finished_ = false;
  tasks_.clear();
  free_.clear();
  queue_.clear();
  queued_blocked_ = 0;
  deque_entries_ = 0;
  for (Worker& worker : workers_) {
    worker.ending = Ending::Nothing;
    worker.task = kNoTask;
    worker.child = kNoTask;
    worker.waiting = false;
    worker.done = false;
    worker.deque.clear();
  }
  // Choice: the root is ready when the phase begins, in the run queue (central-queue: the first thread to ask
  // takes it) or at the bottom of thread 0's deque (work-stealing: others steal it if thread 0 is not on a
  // CPU).
  const TaskId root = new_task(kNoTask, size_, 0);
  if (policy_ == workload::TaskPolicy::CentralQueue) {
    push_queue(root);
  } else {
    push_own(0, root);
  }
}

TaskRuntime::TaskId TaskRuntime::new_task(TaskId parent, std::int32_t size, int child_index) {
  Task task;
  task.parent = parent;
  task.size = size;
  task.child_index = static_cast<std::uint8_t>(child_index);
  if (!free_.empty()) {
    const TaskId id = free_.back();
    free_.pop_back();
    tasks_[static_cast<std::size_t>(id)] = task;
    return id;
  }
  if (tasks_.size() >= static_cast<std::size_t>(std::numeric_limits<TaskId>::max())) {
    throw std::length_error("task runtime: more than 2^31 live tasks");
  }
  tasks_.push_back(task);
  return static_cast<TaskId>(tasks_.size() - 1);
}

void TaskRuntime::push_queue(TaskId id) {
  Task& task = tasks_[static_cast<std::size_t>(id)];
  task.queued = true;
  if (blocked(task)) ++queued_blocked_;
  queue_.push_bottom(id);
}

void TaskRuntime::push_own(int thread, TaskId id) {
  workers_[static_cast<std::size_t>(thread)].deque.push_bottom(id);
  ++deque_entries_;
}

// The effects of the Work a thread has just finished, at the moment of its call (job_runtime.hpp).
void TaskRuntime::apply_ending(int thread) {
  Worker& worker = workers_[static_cast<std::size_t>(thread)];
  const TaskId id = worker.task;
  switch (worker.ending) {
    case Ending::Nothing:
      break;
    case Ending::Spawned:
      // Seed 1.3: "It is only inside the scheduler context that the current task is placed in a run-queue and
      // the new task (child) is executed." Work stealing: the parent goes to the bottom of the thread's own
      // deque and the thread works on the child (Blumofe & Leiserson 1999, work-first: Frigo et al. 1998).
      if (policy_ == workload::TaskPolicy::CentralQueue) {
        push_queue(id);
      } else {
        push_own(thread, id);
      }
      break;
    case Ending::Returned:
      complete(thread, id);
      break;
    case Ending::Yielded:
      // Seed 1.3: a parent whose children have not all returned yields; "that task is placed at the end of
      // the run queue".
      push_queue(id);
      break;
    case Ending::Suspended: {
      Task& task = tasks_[static_cast<std::size_t>(id)];
      // Its last child may have returned while it switched out: then nobody else will enable it, and it is
      // ready at once, on this thread's deque like any enabled task.
      if (task.unfinished == 0) {
        push_own(thread, id);
      } else {
        task.suspended = true;
      }
      break;
    }
  }
  worker.ending = Ending::Nothing;
  worker.task = kNoTask;
}

void TaskRuntime::complete(int thread, TaskId id) {
  Worker& worker = workers_[static_cast<std::size_t>(thread)];
  ++worker.stats.tasks;
  const TaskId parent_id = tasks_[static_cast<std::size_t>(id)].parent;
  free_.push_back(id);
  if (parent_id == kNoTask) {
    finished_ = true;
    return;
  }
  Task& parent = tasks_[static_cast<std::size_t>(parent_id)];
  --parent.unfinished;
  if (parent.unfinished != 0) return;
  if (parent.queued && parent.spawned == 2) --queued_blocked_;  // queued, and its sync now succeeds
  if (parent.suspended) {
    // Blumofe & Leiserson 1999: a thread that enables a stalled thread puts it at the bottom of its own
    // deque; the child having died, this thread then pops it (the usual work-stealing join).
    parent.suspended = false;
    push_own(thread, parent_id);
  }
}

TaskRuntime::TaskId TaskRuntime::take_next(int thread, Source& source, int& victim) {
  Worker& worker = workers_[static_cast<std::size_t>(thread)];
  if (worker.child != kNoTask) {
    const TaskId child = worker.child;
    worker.child = kNoTask;
    source = Source::Child;
    return child;
  }
  if (policy_ == workload::TaskPolicy::CentralQueue) {
    // Seed 1.3: in the scheduler context "a new task is chosen to run", the front of the run queue. With free
    // switches, a thread cycling through tasks whose sync fails spends no time and changes nothing: it waits
    // for work instead of looping.
    if (queue_.size() == (switch_ == 0 ? queued_blocked_ : 0)) return kNoTask;
    const TaskId id = queue_.pop_top();
    Task& task = tasks_[static_cast<std::size_t>(id)];
    task.queued = false;
    if (blocked(task)) --queued_blocked_;
    ++worker.stats.dispatches;
    source = Source::Queue;
    return id;
  }
  if (!worker.deque.empty()) {
    --deque_entries_;
    ++worker.stats.dispatches;
    source = Source::Own;
    return worker.deque.pop_bottom();
  }
  // Choice: the victim is the first thread with a non-empty deque in round-robin order from the next thread
  // (Blumofe & Leiserson pick one uniformly at random; the runtime has no random stream, and this keeps a run
  // deterministic without one).
  const int threads = static_cast<int>(workers_.size());
  for (int k = 1; k < threads && deque_entries_ > 0; ++k) {
    const int other = (thread + k) % threads;
    TaskDeque& deque = workers_[static_cast<std::size_t>(other)].deque;
    if (deque.empty()) continue;
    --deque_entries_;
    ++worker.stats.dispatches;
    ++worker.stats.steals;
    source = Source::Steal;
    victim = other;
    return deque.pop_top();
  }
  return kNoTask;
}

// The thread's scheduler context switches into `id`, which runs until it jumps back: a leaf runs and returns;
// an inner task spawns its next child, or syncs. The Work is [switch in, the task's own cycles, switch out].
Cycles TaskRuntime::enter(int thread, TaskId id, Source source, int victim, Cycles now) {
  Worker& worker = workers_[static_cast<std::size_t>(thread)];
  const Task task = tasks_[static_cast<std::size_t>(id)];
  const char* action = nullptr;
  Cycles own = 0;
  if (is_leaf(task.size)) {
    action = "leaf";
    own = leaf_;
    worker.ending = Ending::Returned;
  } else if (task.spawned < 2) {
    // Seed 1.1's fibo spawns fib(n-1), then fib(n-2), then syncs on both. Choice: an inner task has no cycles
    // of its own besides its spawns (fibo's only work is the addition after the sync): the tree's work is its
    // leaves' and everything else is the runtime's cost.
    action = "spawn";
    own = spawn_;
    worker.stats.spawn_cycles += spawn_;
    const TaskId child = new_task(id, child_size(task.size, task.spawned), task.spawned);
    Task& parent = tasks_[static_cast<std::size_t>(id)];  // new_task may have moved the pool
    ++parent.spawned;
    ++parent.unfinished;
    worker.child = child;
    worker.ending = Ending::Spawned;
  } else if (task.unfinished == 0) {
    action = "return";  // the sync succeeds; the task returns at once (no cycles of its own, as above)
    worker.ending = Ending::Returned;
  } else if (policy_ == workload::TaskPolicy::CentralQueue) {
    action = "yield";
    worker.ending = Ending::Yielded;
  } else {
    action = "suspend";
    worker.ending = Ending::Suspended;
  }
  worker.task = id;
  // Seed 1.2.1/1.3: each jump between a task and the scheduler context is one switch, in and out.
  worker.stats.switch_cycles += 2 * switch_;
  if (steps_ != nullptr) {
    std::string from;
    switch (source) {
      case Source::Child:
        from = "child";
        break;
      case Source::Queue:
        from = "queue";
        break;
      case Source::Own:
        from = "own";
        break;
      case Source::Steal:
        from = "steal:T" + std::to_string(victim);
        break;
    }
    record(now, thread, label(id) + " " + from + " " + action);
  }
  if (logs_) [[unlikely]] {
    std::string how;
    switch (source) {
      case Source::Child:
        how = "runs " + label(id) + ", just spawned";
        break;
      case Source::Queue:
        how = "takes " + label(id) + " from the run queue";
        break;
      case Source::Own:
        how = "pops " + label(id) + " from its deque";
        break;
      case Source::Steal:
        how = "steals " + label(id) + " from thread " + std::to_string(victim) + "'s deque";
        break;
    }
    std::string does;
    switch (worker.ending) {
      case Ending::Spawned:
        does = "it spawns " + label(worker.child);
        break;
      case Ending::Returned:
        does = is_leaf(task.size) ? "a leaf, it runs and returns" : "its children have returned: it returns";
        break;
      case Ending::Yielded:
        does = "its sync fails: it yields to the back of the run queue";
        break;
      case Ending::Suspended:
        does = "its sync fails: it is suspended until its last child returns";
        break;
      case Ending::Nothing:
        break;
    }
    util::log_userlevel(now, thread, "phase %d: %s; %s (%lld cycles)", phase_, how.c_str(), does.c_str(),
                        static_cast<long long>(2 * switch_ + own));
  }
  return 2 * switch_ + own;
}

void TaskRuntime::stop_waiting(Worker& worker, Cycles now) {
  if (!worker.waiting) return;
  worker.stats.waiting_for_work += now - worker.waiting_since;
  worker.waiting = false;
}

Next TaskRuntime::next(int thread, int phase, Cycles now) {
  if (thread < 0 || thread >= static_cast<int>(workers_.size())) {
    throw std::out_of_range("task runtime: no thread " + std::to_string(thread));
  }
  begin_phase(phase);
  Worker& worker = workers_[static_cast<std::size_t>(thread)];
  if (worker.done) return Next{Next::Kind::Done, 0};
  apply_ending(thread);
  for (;;) {
    if (finished_) {
      // The root has returned: every thread is done with the phase.
      stop_waiting(worker, now);
      worker.done = true;
      if (steps_ != nullptr) record(now, thread, "done");
      if (logs_) [[unlikely]]
        util::log_userlevel(now, thread, "phase %d: the root has returned, done", phase_);
      return Next{Next::Kind::Done, 0};
    }
    Source source = Source::Child;
    int victim = -1;
    const TaskId id = take_next(thread, source, victim);
    if (id == kNoTask) {
      if (!worker.waiting) {
        worker.waiting = true;
        worker.waiting_since = now;
      }
      if (steps_ != nullptr) record(now, thread, "wait");
      if (logs_) [[unlikely]]
        util::log_userlevel(now, thread, "phase %d: no task to take, waits for work", phase_);
      return Next{Next::Kind::WaitForWork, 0};
    }
    const Cycles cycles = enter(thread, id, source, victim, now);
    if (cycles > 0) {
      stop_waiting(worker, now);
      return Next{Next::Kind::Work, cycles};
    }
    apply_ending(thread);  // free switches and costs: the Work ends as it begins
  }
}

bool TaskRuntime::work_available() const {
  if (finished_) return true;
  if (policy_ == workload::TaskPolicy::CentralQueue)
    return queue_.size() > (switch_ == 0 ? queued_blocked_ : 0);
  return deque_entries_ > 0;
}

const ThreadStats& TaskRuntime::stats(int thread) const {
  if (thread < 0 || thread >= static_cast<int>(workers_.size())) {
    throw std::out_of_range("task runtime: no thread " + std::to_string(thread));
  }
  return workers_[static_cast<std::size_t>(thread)].stats;
}

std::string TaskRuntime::label(TaskId id) const {
  std::string path;
  for (TaskId at = id; tasks_[static_cast<std::size_t>(at)].parent != kNoTask;
       at = tasks_[static_cast<std::size_t>(at)].parent) {
    path.insert(path.begin(), static_cast<char>('0' + tasks_[static_cast<std::size_t>(at)].child_index));
  }
  return "r" + path;
}

void TaskRuntime::record(Cycles now, int thread, std::string text) {
  steps_->push_back(Step{now, thread, std::move(text)});
}

std::unique_ptr<JobRuntime> make_task_runtime(const config::SmpTasks& tasks, int threads) {
  return std::make_unique<TaskRuntime>(tasks, threads);
}

}  // namespace cosched::userlevel
