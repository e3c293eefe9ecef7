#pragma once
// The names a scenario gives the user-level side of an SMP job (issue 23; docs/models/smp.md, "User-level
// scheduling"): a parallel loop's schedule, a task tree's policy and its shape. One table each holds a kind's
// name and documentation line (and a tree's size bound): the scenario reader checks names and writes the
// resolved scenario from them, and the runtimes (src/userlevel/) switch on the kinds.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cosched::workload {

// loop.schedule: OpenMP 5.2, 11.5.3, the schedule clause's kinds that a loop can name.
enum class LoopSchedule { Static, Dynamic, Guided };

struct LoopScheduleEntry {
  LoopSchedule kind;
  std::string_view name;
  std::string_view doc;
};

std::span<const LoopScheduleEntry> loop_schedules();
std::optional<LoopSchedule> loop_schedule_named(std::string_view name);
std::string_view loop_schedule_name(LoopSchedule kind);
// "static, dynamic or guided", for error messages.
std::string loop_schedule_names();

// tasks.policy: how the job's threads share its task tree.
enum class TaskPolicy { CentralQueue, WorkStealing };

struct TaskPolicyEntry {
  TaskPolicy kind;
  std::string_view name;
  std::string_view doc;
};

std::span<const TaskPolicyEntry> task_policies();
std::optional<TaskPolicy> task_policy_named(std::string_view name);
std::string_view task_policy_name(TaskPolicy kind);
// "central-queue or work-stealing", for error messages.
std::string task_policy_names();

// tasks.tree: the shape of a phase's fork-join tree, written NAME(SIZE).
enum class TaskTree { Fib, Binary };

struct TaskTreeEntry {
  TaskTree kind;
  std::string_view name;
  std::string_view size_name;  // what SIZE counts, as the error message names it: "N", "DEPTH"
  int max_size;                // SIZE is from 0 to this
  std::string_view doc;
};

std::span<const TaskTreeEntry> task_trees();
std::optional<TaskTree> task_tree_named(std::string_view name);
const TaskTreeEntry& task_tree_entry(TaskTree kind);
std::string_view task_tree_name(TaskTree kind);
// "fib(N) with N from 0 to 32, or binary(DEPTH) with DEPTH from 0 to 22", for error messages.
std::string task_tree_forms();
// The tasks of one tree (fib(n): 1 + size(n-1) + size(n-2), size(0) = size(1) = 1; binary(d): 1 + 2
// size(d-1)); both are full binary trees, so (size + 1) / 2 of them are leaves. Throws std::invalid_argument
// for a negative size or one whose count overflows.
std::int64_t task_tree_size(TaskTree tree, int size);

}  // namespace cosched::workload
