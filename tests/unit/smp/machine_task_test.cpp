// The SMP machine running a task-tree job (docs/models/smp.md, 21.1 and 21.3): the hand traces of
// tests/unit/userlevel/task_runtime_test.cpp, now through smp::Machine, and a loaded machine where a thread
// descheduled while it holds a task delays the tree. The machine adds its own costs to the runtime's: every
// thread begins on its CPU after its cs_in (1 cycle here), so every call of the runtime comes one cycle later
// than in the pure driver, and the thread told Done spends one more cycle on the arrival (thesis 3.2.1.1)
// before the barrier. Each expected cycle is worked out in the comment above it.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sched/smp/round_robin.hpp"
#include "smp/machine.hpp"
#include "userlevel/task_runtime.hpp"
#include "wait/smp/smp_wait.hpp"
#include "workload/userlevel_kinds.hpp"

namespace cosched::smp {
namespace {

using userlevel::TaskRuntime;

constexpr Cycles kLongQuantum = 1'000'000'000'000;  // no preemption within these runs
constexpr wait::Cycles kLongSpin = 1'000'000'000'000;

// The costs of task_runtime_test.cpp's traces unless given: leaf L = 10, spawn P = 2, switch S = 3, so a
// spawn is 2S + P = 8, a leaf 2S + L = 16, a sync (yield, suspend or return) 2S = 6.
config::SmpTasks fib(int n, const std::string& policy, Cycles leaf = 10) {
  config::SmpTasks tasks;
  tasks.tree = workload::TaskTree::Fib;
  tasks.size = n;
  tasks.tree_given = "fib(" + std::to_string(n) + ")";
  tasks.leaf = leaf;
  tasks.spawn = 2;
  tasks.switch_cost = 3;
  tasks.policy = workload::task_policy_named(policy).value();  // a test names a policy in its table
  return tasks;
}

// A one-phase task job whose runtime records its answers into *steps.
JobInstance task_job(const config::SmpTasks& tasks, int threads, wait::Cycles spin,
                     std::vector<TaskRuntime::Step>* steps) {
  JobInstance job{"T", 0, threads, 1, 0.0, 0.0, std::make_shared<wait::FixedSpin>(spin), {}};
  job.make_runtime = [tasks, threads, steps] {
    auto runtime = std::make_unique<TaskRuntime>(tasks, threads);
    runtime->record_steps(steps);
    return runtime;
  };
  return job;
}

Machine machine(JobInstance job, int cpus, Cycles quantum = kLongQuantum) {
  MachineConfig config;
  config.cpus = cpus;
  config.cs_in = 1;
  config.cs_out = 1;
  config.jobs.push_back(std::move(job));
  return Machine(std::move(config), std::make_unique<sched::RoundRobin>(quantum));
}

void run_to_end(Machine& m) {
  while (m.run_until(m.now() + 1'000'000'000'000)) {
  }
}

std::vector<std::string> texts(const std::vector<TaskRuntime::Step>& steps) {
  std::vector<std::string> lines;
  for (const auto& step : steps)
    lines.push_back(std::to_string(step.at) + " T" + std::to_string(step.thread) + " " + step.text);
  return lines;
}

TEST(SmpTaskMachine, Fib3CentralQueueOnOneCpuIsTheDriversTraceOneCycleLater) {
  // task_runtime_test's trace (done at 98) shifted by the cs_in: the thread runs from cycle 1, so the root
  // returns and the thread is told Done at 99; its arrival's cycle takes it to 100, where it is the last
  // (and only) thread: it completes the barrier and finishes.
  std::vector<TaskRuntime::Step> steps;
  auto m = machine(task_job(fib(3, "central-queue"), 1, kLongSpin, &steps), 1);
  run_to_end(m);
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"1 T0 r queue spawn", "9 T0 r0 child spawn", "17 T0 r00 child leaf",
                                      "33 T0 r queue spawn", "41 T0 r1 child leaf", "57 T0 r0 queue spawn",
                                      "65 T0 r01 child leaf", "81 T0 r queue yield", "87 T0 r0 queue return",
                                      "93 T0 r queue return", "99 T0 done"}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 100);
  EXPECT_EQ(m.runtime(0)->stats(0).tasks, 5);
  EXPECT_EQ(m.runtime(0)->stats(0).switch_cycles, 60);
}

TEST(SmpTaskMachine, Fib3WorkStealingOnOneCpuIsTheDriversTraceOneCycleLater) {
  // The serial order (92 in the driver): Done at 93, the arrival completes the barrier at 94.
  std::vector<TaskRuntime::Step> steps;
  auto m = machine(task_job(fib(3, "work-stealing"), 1, kLongSpin, &steps), 1);
  run_to_end(m);
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"1 T0 r own spawn", "9 T0 r0 child spawn", "17 T0 r00 child leaf",
                                      "33 T0 r0 own spawn", "41 T0 r01 child leaf", "57 T0 r0 own return",
                                      "63 T0 r own spawn", "71 T0 r1 child leaf", "87 T0 r own return",
                                      "93 T0 done"}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 94);
}

TEST(SmpTaskMachine, Fib3CentralQueueOnTwoCpusPollsAndIsOfferedWorkOnItsCpu) {
  // The driver's two-thread trace one cycle later: both threads are switched in at 0 and run from 1, thread
  // t on CPU t. Thread 1's first call finds the queue empty and it polls on CPU 1; at 9 thread 0's call
  // queues the root, work_available() turns true and the machine asks thread 1 at once (offer_work), as the
  // driver does. At 63 thread 0 finds nothing and polls; at 69 thread 1's root returns and it is told Done;
  // thread 0, polling on CPU 0, is offered the end at once and told Done too. Both arrive at 70: CPU 0's
  // event first, so thread 0 arrives first and spins; thread 1 completes the barrier and finishes at 70;
  // thread 0's spin is on a CPU before the completer's and sees the completion at the next cycle: 71.
  std::vector<TaskRuntime::Step> steps;
  auto m = machine(task_job(fib(3, "central-queue"), 2, kLongSpin, &steps), 2);
  m.record_trace(true);
  run_to_end(m);
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"1 T0 r queue spawn", "1 T1 wait", "9 T0 r0 child spawn",
                                      "9 T1 r queue spawn", "17 T0 r00 child leaf", "17 T1 r1 child leaf",
                                      "33 T0 r0 queue spawn", "33 T1 r queue yield", "39 T1 r queue yield",
                                      "41 T0 r01 child leaf", "45 T1 r0 queue yield", "51 T1 r queue yield",
                                      "57 T0 r0 queue return", "57 T1 r queue yield", "63 T0 wait",
                                      "63 T1 r queue return", "69 T1 done", "69 T0 done"}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 71);
  EXPECT_EQ(m.outcomes()[0].successful_spins, 1) << "thread 0's spin at the barrier";
  EXPECT_EQ(m.outcomes()[0].context_switches, 2) << "polling keeps the CPU: no kernel switch but the first";
  EXPECT_EQ(m.runtime(0)->stats(0).tasks, 3);
  EXPECT_EQ(m.runtime(0)->stats(1).tasks, 2);
  // Waiting for work: thread 1 from 1 to 9 (8), thread 0 from 63 to 69 (6): the driver's figures.
  EXPECT_EQ(m.runtime(0)->stats(0).waiting_for_work, 6);
  EXPECT_EQ(m.runtime(0)->stats(1).waiting_for_work, 8);
  auto noted = [&m](TraceKind kind, Cycles time, ThreadId thread) {
    for (const auto& e : m.trace())
      if (e.kind == kind && e.time == time && e.thread == thread) return true;
    return false;
  };
  EXPECT_TRUE(noted(TraceKind::Poll, 1, 1)) << "thread 1 polls from its first call";
  EXPECT_TRUE(noted(TraceKind::Work, 9, 1)) << "and is given the root at 9";
  EXPECT_TRUE(noted(TraceKind::Poll, 63, 0));
}

TEST(SmpTaskMachine, Fib3WorkStealingOnTwoCpusStealsAsSoonAsTheDequeFills) {
  // The driver's trace one cycle later: thread 1 steals the root at 9 and r0 at 41, each time offered the
  // work while it polls on CPU 1; it parks both parents (suspend) and polls. Thread 0 returns r0 at 57 and
  // the root at 63, told Done at 69; thread 1, polling, is told Done at once. Arrivals at 70 as above:
  // thread 0 spins on CPU 0, thread 1 completes the barrier, thread 0's spin succeeds at 71.
  std::vector<TaskRuntime::Step> steps;
  auto m = machine(task_job(fib(3, "work-stealing"), 2, kLongSpin, &steps), 2);
  run_to_end(m);
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{
                "1 T0 r own spawn", "1 T1 wait", "9 T0 r0 child spawn", "9 T1 r steal:T0 spawn",
                "17 T0 r00 child leaf", "17 T1 r1 child leaf", "33 T0 r0 own spawn", "33 T1 r own suspend",
                "39 T1 wait", "41 T0 r01 child leaf", "41 T1 r0 steal:T0 suspend", "47 T1 wait",
                "57 T0 r0 own return", "63 T0 r own return", "69 T0 done", "69 T1 done"}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 71);
  EXPECT_EQ(m.runtime(0)->stats(1).steals, 2);
  EXPECT_EQ(m.runtime(0)->stats(1).waiting_for_work, 32) << "1-9, 39-41, 47-69";
}

// fib(2) on one CPU with two threads and a quantum of 100: r spawns the leaves r0 and r1. A leaf of 150
// cycles (156 with its two switches) does not fit in what is left of a quantum, so each thread is
// descheduled in the middle of one, holding it. The barrier's spin is 0: an arrival blocks at once.

TEST(SmpTaskMachine, LoadedWorkStealingADescheduledThreadsLeafHoldsTheParent) {
  // Thread 0 runs from 1 (cs_in), its quantum ends at 101; thread 1 waits in the ready queue.
  //   1  T0 r own spawn            -> 9
  //   9  T0 r0 child leaf          -> 165; r goes to D0 (no thread polls on a CPU to take it)
  // 101  quantum: T0 is preempted with 64 cycles of r0 left; cs_out to 102, T1's cs_in to 103
  // 103  T1 r steal:T0 spawn       -> 111 (its quantum ends at 203)
  // 111  T1 r1 child leaf          -> 267; r goes to D1
  // 203  quantum: T1 is preempted with 64 cycles of r1 left; T0 runs again from 205, r0 ends at 269
  // 269  T0 r steal:T1 suspend     -> 275: r0 has returned, r waits for r1, which T1 holds off the CPU
  // 275  T0 wait: it polls for 30 cycles, to its quantum's end at 305
  // 305  T0 preempted; T1 runs from 307, r1 ends at 371
  // 371  T1 r own return           -> 377: r1 was r's last child, so T1 resumes r
  // 377  T1 done; arrives at 378 and blocks (spin 0): cs_out to 379, T0's cs_in to 380
  // 380  T0, switched in while polling, asks again: done; arrives at 381, completes the barrier and
  //      finishes (cs_out to 382); T1, woken, is switched in and finishes at 383.
  // On two CPUs the same tree ends at 180 (its Done); here the tree waits twice for a descheduled leaf.
  std::vector<TaskRuntime::Step> steps;
  auto m = machine(task_job(fib(2, "work-stealing", 150), 2, 0, &steps), 1, 100);
  run_to_end(m);
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"1 T0 r own spawn", "9 T0 r0 child leaf", "103 T1 r steal:T0 spawn",
                                      "111 T1 r1 child leaf", "269 T0 r steal:T1 suspend", "275 T0 wait",
                                      "371 T1 r own return", "377 T1 done", "380 T0 done"}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 383);
  EXPECT_EQ(m.runtime(0)->stats(0).waiting_for_work, 380 - 275)
      << "from its wait to its Done, off its CPU too";
  EXPECT_EQ(m.runtime(0)->stats(1).steals, 1);
  EXPECT_EQ(m.runtime(0)->stats(0).steals, 1);
}

TEST(SmpTaskMachine, LoadedCentralQueueAThreadDescheduledWithTheYieldingParentHoldsTheTree) {
  // As above to 269, with the seed's run queue Q:
  //   1  T0 r queue spawn          -> 9
  //   9  T0 r0 child leaf          -> 165, Q=[r]; preempted at 101 with 64 left
  // 103  T1 r queue spawn          -> 111
  // 111  T1 r1 child leaf          -> 267, Q=[r]; preempted at 203 with 64 left; T0 runs from 205
  // 269  T0 r queue yield          -> 275: r0 returned, r1 has not: r polls, 6 cycles a turn
  // 275, 281, 287, 293, 299  T0 r queue yield: the same, Q=[r] between the turns
  // 305  T0 r queue yield: the yield ending at 305 counts before the quantum's end (docs/models/smp.md
  //      section 6), so T0 takes r again and is preempted holding it, 6 cycles left; T1 runs from 307
  // 371  T1 r1 returns; Q is empty (r is T0's): T1 waits, polling its whole quantum to 407
  // 407  T1 preempted; T0 runs from 409 and ends its yield at 415
  // 415  T0 r queue return         -> 421: r went back to Q, its sync now succeeds
  // 421  T0 done; arrives at 422 and blocks: cs_out to 423, T1's cs_in to 424
  // 424  T1, switched in while polling, asks: done; arrives at 425, completes the barrier and finishes
  //      (cs_out to 426); T0, woken, is switched in and finishes at 427.
  // The root returns 44 cycles later than under work stealing (377): when r1 returns at 371, r is not in the
  // queue but inside the yield T0 holds off the CPU, so T1's 36 cycles of polling to its quantum's end, the
  // kernel switch (2) and the rest of T0's yield (6) come first.
  std::vector<TaskRuntime::Step> steps;
  auto m = machine(task_job(fib(2, "central-queue", 150), 2, 0, &steps), 1, 100);
  run_to_end(m);
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"1 T0 r queue spawn", "9 T0 r0 child leaf", "103 T1 r queue spawn",
                                      "111 T1 r1 child leaf", "269 T0 r queue yield", "275 T0 r queue yield",
                                      "281 T0 r queue yield", "287 T0 r queue yield", "293 T0 r queue yield",
                                      "299 T0 r queue yield", "305 T0 r queue yield", "371 T1 wait",
                                      "415 T0 r queue return", "421 T0 done", "424 T1 done"}));
  EXPECT_EQ(m.outcomes()[0].completion_time, 427);
  EXPECT_EQ(m.runtime(0)->stats(0).dispatches, 1 + 7 + 1) << "the root, seven polls of it, its return";
  EXPECT_EQ(m.runtime(0)->stats(1).waiting_for_work, 424 - 371);
}

}  // namespace
}  // namespace cosched::smp
