// The tables of the user-level kinds (src/workload/userlevel_kinds.hpp): every name finds its kind and back,
// and the lists read as the scenario reader's error messages show them (tests/cli/cli_test.cpp's bad
// scenarios, docs/scenario-format.md).
#include "workload/userlevel_kinds.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cosched::workload {
namespace {

TEST(UserlevelKinds, LoopSchedulesFoundByNameAndBack) {
  const std::vector<std::pair<std::string, LoopSchedule>> expected = {
      {"static", LoopSchedule::Static}, {"dynamic", LoopSchedule::Dynamic}, {"guided", LoopSchedule::Guided}};
  ASSERT_EQ(loop_schedules().size(), expected.size());
  for (const auto& [name, kind] : expected) {
    EXPECT_EQ(loop_schedule_named(name), kind) << name;
    EXPECT_EQ(loop_schedule_name(kind), name);
  }
  for (const auto& entry : loop_schedules()) EXPECT_FALSE(entry.doc.empty()) << entry.name;
  EXPECT_EQ(loop_schedule_named("auto"), std::nullopt) << "OpenMP's auto and runtime are not modelled";
  EXPECT_EQ(loop_schedule_named("Static"), std::nullopt) << "names are case-sensitive";
  EXPECT_EQ(loop_schedule_named(""), std::nullopt);
  EXPECT_EQ(loop_schedule_names(), "static, dynamic or guided");
}

TEST(UserlevelKinds, TaskPoliciesFoundByNameAndBack) {
  const std::vector<std::pair<std::string, TaskPolicy>> expected = {
      {"central-queue", TaskPolicy::CentralQueue}, {"work-stealing", TaskPolicy::WorkStealing}};
  ASSERT_EQ(task_policies().size(), expected.size());
  for (const auto& [name, kind] : expected) {
    EXPECT_EQ(task_policy_named(name), kind) << name;
    EXPECT_EQ(task_policy_name(kind), name);
  }
  for (const auto& entry : task_policies()) EXPECT_FALSE(entry.doc.empty()) << entry.name;
  EXPECT_EQ(task_policy_named("lifo"), std::nullopt);
  EXPECT_EQ(task_policy_named("central_queue"), std::nullopt);
  EXPECT_EQ(task_policy_names(), "central-queue or work-stealing");
}

TEST(UserlevelKinds, TaskTreesFoundByNameWithTheirSizeBounds) {
  ASSERT_EQ(task_trees().size(), 2u);
  EXPECT_EQ(task_tree_named("fib"), TaskTree::Fib);
  EXPECT_EQ(task_tree_named("binary"), TaskTree::Binary);
  EXPECT_EQ(task_tree_name(TaskTree::Fib), "fib");
  EXPECT_EQ(task_tree_name(TaskTree::Binary), "binary");
  // fib(32) has 2 F(33) - 1 = 7 049 155 tasks, binary(22) 2^23 - 1 = 8 388 607: a few million at most.
  EXPECT_EQ(task_tree_entry(TaskTree::Fib).max_size, 32);
  EXPECT_EQ(task_tree_entry(TaskTree::Binary).max_size, 22);
  for (const auto& entry : task_trees()) EXPECT_FALSE(entry.doc.empty()) << entry.name;
  EXPECT_EQ(task_tree_named("ternary"), std::nullopt);
  EXPECT_EQ(task_tree_named("fib(3)"), std::nullopt) << "the name alone, without its size";
  EXPECT_EQ(task_tree_forms(), "fib(N) with N from 0 to 32, or binary(DEPTH) with DEPTH from 0 to 22");
}

}  // namespace
}  // namespace cosched::workload
