#include "workload/userlevel_kinds.hpp"

#include <array>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/registry.hpp"

namespace cosched::workload {
namespace {

constexpr std::array<LoopScheduleEntry, 3> kLoopSchedules = {{
    {LoopSchedule::Static, "static",
     "chunks of chunk_size dealt round robin in thread order, or without chunk_size one nearly equal "
     "contiguous chunk per thread (OpenMP 5.2, 11.5.3)"},
    {LoopSchedule::Dynamic, "dynamic",
     "a thread takes the next chunk_size iterations (1 by default) from a shared counter whenever it needs "
     "work (OpenMP 5.2, 11.5.3)"},
    {LoopSchedule::Guided, "guided",
     "as dynamic, with chunks proportional to the unassigned iterations divided by the threads, at least "
     "chunk_size (OpenMP 5.2, 11.5.3)"},
}};

constexpr std::array<TaskPolicyEntry, 2> kTaskPolicies = {{
    {TaskPolicy::CentralQueue, "central-queue",
     "the seed's task library: one run queue shared by all the job's threads (seed 1.3)"},
    {TaskPolicy::WorkStealing, "work-stealing",
     "per-thread deques, work-first spawns, steals from the top of a victim's deque (Blumofe & Leiserson "
     "1999; Frigo, Leiserson & Randall 1998)"},
}};

// Bounds that keep a phase's tasks to a few million: fib(32) has 7 049 155 tasks, binary(22) 8 388 607.
constexpr std::array<TaskTreeEntry, 2> kTaskTrees = {{
    {TaskTree::Fib, "fib", "N", 32,
     "the seed's fibo (seed 1.1): a leaf for N < 2, else fib(N-1) then fib(N-2)"},
    {TaskTree::Binary, "binary", "DEPTH", 22, "two children of depth DEPTH - 1 per task, leaves at depth 0"},
}};

template <typename Entry>
auto kind_named(std::span<const Entry> table, std::string_view name) -> std::optional<decltype(Entry::kind)> {
  if (const Entry* entry = util::find_named(table, name)) return entry->kind;
  return std::nullopt;
}

template <typename Entry>
const Entry& entry_of(std::span<const Entry> table, decltype(Entry::kind) kind) {
  for (const auto& entry : table)
    if (entry.kind == kind) return entry;
  throw std::logic_error("user-level kinds: a kind missing from its table");
}

}  // namespace

std::span<const LoopScheduleEntry> loop_schedules() {
  return kLoopSchedules;
}

std::optional<LoopSchedule> loop_schedule_named(std::string_view name) {
  return kind_named(loop_schedules(), name);
}

std::string_view loop_schedule_name(LoopSchedule kind) {
  return entry_of(loop_schedules(), kind).name;
}

std::string loop_schedule_names() {
  return util::names_of(loop_schedules(), " or ");
}

std::span<const TaskPolicyEntry> task_policies() {
  return kTaskPolicies;
}

std::optional<TaskPolicy> task_policy_named(std::string_view name) {
  return kind_named(task_policies(), name);
}

std::string_view task_policy_name(TaskPolicy kind) {
  return entry_of(task_policies(), kind).name;
}

std::string task_policy_names() {
  return util::names_of(task_policies(), " or ");
}

std::span<const TaskTreeEntry> task_trees() {
  return kTaskTrees;
}

std::optional<TaskTree> task_tree_named(std::string_view name) {
  return kind_named(task_trees(), name);
}

const TaskTreeEntry& task_tree_entry(TaskTree kind) {
  return entry_of(task_trees(), kind);
}

std::string_view task_tree_name(TaskTree kind) {
  return task_tree_entry(kind).name;
}

std::string task_tree_forms() {
  std::vector<std::string> forms;
  for (const auto& tree : task_trees()) {
    const std::string size_name(tree.size_name);
    forms.push_back(std::string(tree.name) + "(" + size_name + ") with " + size_name + " from 0 to " +
                    std::to_string(tree.max_size));
  }
  return util::join_list({forms.begin(), forms.end()}, ", or ");
}

std::int64_t task_tree_size(TaskTree tree, int size) {
  if (size < 0) throw std::invalid_argument("task tree: expected a size >= 0, got " + std::to_string(size));
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max() / 2;
  std::int64_t before = 1, current = 1;
  for (int k = 1; k <= size; ++k) {
    std::int64_t next = 0;
    switch (tree) {
      case TaskTree::Fib:
        next = k == 1 ? 1 : 1 + current + before;
        break;
      case TaskTree::Binary:
        next = 1 + 2 * current;
        break;
    }
    before = current;
    current = next;
    if (current > kMax) throw std::invalid_argument("task tree: too many tasks");
  }
  return current;
}

}  // namespace cosched::workload
