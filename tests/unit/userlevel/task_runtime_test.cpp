// The task-tree runtime (src/userlevel/task_runtime.cpp; docs/models/smp.md, "Task trees") on small trees
// traced by hand, through a pure driver that gives every thread its own CPU.
#include "userlevel/task_runtime.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "workload/userlevel_kinds.hpp"

namespace cosched::userlevel {
namespace {

// job_runtime.hpp's contract with dedicated CPUs: every thread begins each phase when the previous one ends
// (at 0 for the first), runs the cycles it is given and calls next() at their end; a thread told WaitForWork
// calls again as soon as work_available() is true after some thread's call. Calls happen in time order, ties
// by thread id (as the machine orders its CPUs' events, docs/models/smp.md section 2). A phase ends when its
// last thread is told Done (the barrier costs nothing here).
struct DedicatedRun {
  std::vector<Cycles> phase_ends;
  int calls = 0;
};

DedicatedRun run_dedicated(JobRuntime& runtime, int threads, int phases = 1) {
  DedicatedRun run;
  Cycles start = 0;
  for (int phase = 0; phase < phases; ++phase) {
    std::set<std::pair<Cycles, int>> calls;  // (time, thread)
    for (int thread = 0; thread < threads; ++thread) calls.insert({start, thread});
    std::vector<bool> waiting(static_cast<std::size_t>(threads), false);
    int done = 0;
    Cycles end = start;
    while (!calls.empty()) {
      if (++run.calls > 5'000'000) {
        ADD_FAILURE() << "no end after 5M calls";
        return run;
      }
      const auto [now, thread] = *calls.begin();
      calls.erase(calls.begin());
      const Next next = runtime.next(thread, phase, now);
      switch (next.kind) {
        case Next::Kind::Work:
          EXPECT_GT(next.cycles, 0) << "Work is at least one cycle (job_runtime.hpp)";
          calls.insert({now + next.cycles, thread});
          break;
        case Next::Kind::WaitForWork:
          waiting[static_cast<std::size_t>(thread)] = true;
          break;
        case Next::Kind::Done:
          ++done;
          end = now;
          break;
      }
      if (runtime.work_available()) {
        for (int other = 0; other < threads; ++other) {
          if (!waiting[static_cast<std::size_t>(other)]) continue;
          waiting[static_cast<std::size_t>(other)] = false;
          calls.insert({now, other});
        }
      }
    }
    EXPECT_EQ(done, threads) << "phase " << phase << ": every thread told Done (none left waiting)";
    run.phase_ends.push_back(end);
    start = end;
  }
  return run;
}

config::SmpTasks tree(const std::string& shape, int size, const std::string& policy, Cycles leaf,
                      Cycles spawn, Cycles switch_cost) {
  config::SmpTasks tasks;
  tasks.tree = workload::task_tree_named(shape).value();  // a test names a tree and a policy in their tables
  tasks.size = size;
  tasks.tree_given = shape + "(" + std::to_string(size) + ")";
  tasks.leaf = leaf;
  tasks.spawn = spawn;
  tasks.switch_cost = switch_cost;
  tasks.policy = workload::task_policy_named(policy).value();
  return tasks;
}

// The costs of the hand traces: leaf L = 10, spawn P = 2, switch S = 3. A Work is [switch in, own cycles,
// switch out], so a spawn is 2S + P = 8, a leaf 2S + L = 16, a sync (yield, suspend or return) 2S = 6.
config::SmpTasks traced(const std::string& shape, int size, const std::string& policy) {
  return tree(shape, size, policy, 10, 2, 3);
}

std::vector<std::string> texts(const std::vector<TaskRuntime::Step>& steps) {
  std::vector<std::string> lines;
  for (const auto& step : steps) {
    lines.push_back(std::to_string(step.at) + " T" + std::to_string(step.thread) + " " + step.text);
  }
  return lines;
}

ThreadStats sum(const JobRuntime& runtime, int threads) {
  ThreadStats total;
  for (int thread = 0; thread < threads; ++thread) {
    const ThreadStats& one = runtime.stats(thread);
    total.tasks += one.tasks;
    total.dispatches += one.dispatches;
    total.steals += one.steals;
    total.switch_cycles += one.switch_cycles;
    total.spawn_cycles += one.spawn_cycles;
    total.waiting_for_work += one.waiting_for_work;
  }
  return total;
}

// fib(3): r = fib(3) spawns r0 = fib(2), then r1 = fib(1); r0 spawns r00 = fib(1), then r01 = fib(0).
// 5 tasks, 3 leaves (r1, r00, r01), 4 spawns.

TEST(TaskRuntimeCentralQueue, Fib3OnOneThreadFollowsTheSeedsRunQueue) {
  // Seed 1.3: a spawn queues the parent at the back and runs the child; a return takes the front of the
  // queue; a sync on unfinished children yields to the back. Q is the run queue, front first.
  //   0  r queue spawn    Q=[]        r spawns r0                    -> 8,  Q=[r]
  //   8  r0 child spawn               r0 spawns r00                  -> 16, Q=[r r0]
  //  16  r00 child leaf                                              -> 32
  //  32  r queue spawn    Q=[r0]      r spawns r1                    -> 40, Q=[r0 r]
  //  40  r1 child leaf                                               -> 56
  //  56  r0 queue spawn   Q=[r]       r0 spawns r01                  -> 64, Q=[r r0]
  //  64  r01 child leaf                                              -> 80
  //  80  r queue yield    Q=[r0]      r0 has not returned            -> 86, Q=[r0 r]
  //  86  r0 queue return  Q=[r]       r00, r01 done                  -> 92
  //  92  r queue return   Q=[]                                       -> 98
  // 10 Works: 20 switches (60) + 4 spawns (8) + 3 leaves (30) = 98.
  TaskRuntime runtime(traced("fib", 3, "central-queue"), 1);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 1);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{98}));
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"0 T0 r queue spawn", "8 T0 r0 child spawn", "16 T0 r00 child leaf",
                                      "32 T0 r queue spawn", "40 T0 r1 child leaf", "56 T0 r0 queue spawn",
                                      "64 T0 r01 child leaf", "80 T0 r queue yield", "86 T0 r0 queue return",
                                      "92 T0 r queue return", "98 T0 done"}));
  const ThreadStats& stats = runtime.stats(0);
  EXPECT_EQ(stats.tasks, 5);
  EXPECT_EQ(stats.dispatches, 6) << "0, 32, 56, 80, 86, 92: children run without the queue";
  EXPECT_EQ(stats.steals, 0);
  EXPECT_EQ(stats.switch_cycles, 60);
  EXPECT_EQ(stats.spawn_cycles, 8);
  EXPECT_EQ(stats.waiting_for_work, 0);
}

TEST(TaskRuntimeCentralQueue, Fib3OnTwoThreadsSharesTheQueueAndPollsBlockedParents) {
  // Both threads call at 0; T0 first (ties by thread id).
  //   0  T0 r queue spawn                       -> 8, then Q=[r]
  //   0  T1 wait (Q empty)
  //   8  T0 r0 child spawn   Q=[r]              -> 16, then Q=[r0 ..]; r is queued: T1 asks at once
  //   8  T1 r queue spawn    Q=[]               -> 16 (waited 8)
  //  16  T0 r00 child leaf   Q=[r0]             -> 32
  //  16  T1 r1 child leaf    Q=[r0 r]           -> 32
  //  32  T0 r0 queue spawn   Q=[r]              -> 40
  //  32  T1 r queue yield    Q=[] (r0 runs)     -> 38
  //  38  T1 r queue yield    Q=[] (r0 runs)     -> 44
  //  40  T0 r01 child leaf   Q=[r0]             -> 56
  //  44  T1 r0 queue yield   Q=[r] (r01 runs)   -> 50
  //  50  T1 r queue yield    Q=[r0]             -> 56
  //  56  T0 r0 queue return  Q=[] (r01 done)    -> 62
  //  56  T1 r queue yield    Q=[] (r0 returns)  -> 62
  //  62  T0 wait             Q=[] (r on T1)
  //  62  T1 r queue return                      -> 68: the root returns, both Done at 68 (T0 waited 6).
  TaskRuntime runtime(traced("fib", 3, "central-queue"), 2);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 2);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{68}));
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"0 T0 r queue spawn", "0 T1 wait", "8 T0 r0 child spawn",
                                      "8 T1 r queue spawn", "16 T0 r00 child leaf", "16 T1 r1 child leaf",
                                      "32 T0 r0 queue spawn", "32 T1 r queue yield", "38 T1 r queue yield",
                                      "40 T0 r01 child leaf", "44 T1 r0 queue yield", "50 T1 r queue yield",
                                      "56 T0 r0 queue return", "56 T1 r queue yield", "62 T0 wait",
                                      "62 T1 r queue return", "68 T1 done", "68 T0 done"}));
  const ThreadStats& t0 = runtime.stats(0);
  const ThreadStats& t1 = runtime.stats(1);
  EXPECT_EQ(t0.tasks, 3) << "r00, r01, r0";
  EXPECT_EQ(t1.tasks, 2) << "r1, r";
  EXPECT_EQ(t0.dispatches, 3) << "0, 32, 56";
  EXPECT_EQ(t1.dispatches, 7) << "8, 32, 38, 44, 50, 56, 62";
  EXPECT_EQ(t0.switch_cycles, 6 * 6);
  EXPECT_EQ(t1.switch_cycles, 8 * 6);
  EXPECT_EQ(t0.spawn_cycles, 3 * 2);
  EXPECT_EQ(t1.spawn_cycles, 1 * 2);
  EXPECT_EQ(t0.waiting_for_work, 6);
  EXPECT_EQ(t1.waiting_for_work, 8);
  EXPECT_EQ(t0.steals + t1.steals, 0);
}

TEST(TaskRuntimeWorkStealing, Fib3OnOneThreadRunsDepthFirst) {
  // Work-first: a spawn pushes the parent at the bottom of the own deque D and runs the child; a thread pops
  // its bottom. On one thread this is the serial order, and no sync ever fails.
  //   0  r own spawn       D=[]       -> 8,  D=[r]
  //   8  r0 child spawn               -> 16, D=[r r0]
  //  16  r00 child leaf               -> 32
  //  32  r0 own spawn      D=[r]      -> 40, D=[r r0]
  //  40  r01 child leaf               -> 56
  //  56  r0 own return     D=[r]      -> 62
  //  62  r own spawn       D=[]       -> 70, D=[r]
  //  70  r1 child leaf                -> 86
  //  86  r own return                 -> 92
  // 9 Works: 18 switches (54) + 8 + 30 = 92, one sync fewer than the central queue's 98.
  TaskRuntime runtime(traced("fib", 3, "work-stealing"), 1);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 1);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{92}));
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"0 T0 r own spawn", "8 T0 r0 child spawn", "16 T0 r00 child leaf",
                                      "32 T0 r0 own spawn", "40 T0 r01 child leaf", "56 T0 r0 own return",
                                      "62 T0 r own spawn", "70 T0 r1 child leaf", "86 T0 r own return",
                                      "92 T0 done"}));
  const ThreadStats& stats = runtime.stats(0);
  EXPECT_EQ(stats.tasks, 5);
  EXPECT_EQ(stats.dispatches, 5) << "0, 32, 56, 62, 86";
  EXPECT_EQ(stats.steals, 0);
  EXPECT_EQ(stats.switch_cycles, 54);
  EXPECT_EQ(stats.spawn_cycles, 8);
}

TEST(TaskRuntimeWorkStealing, Fib3OnTwoThreadsStealsFromTheTopAndJoinsByTheLastChild) {
  // The root starts at the bottom of T0's deque D0. T1 steals from the top of D0 (the only other deque).
  //   0  T0 r own spawn              -> 8, D0=[r]
  //   0  T1 wait (D0 empty)
  //   8  T0 r0 child spawn           -> 16, D0=[r0]    (r was stolen first: T1 called at 8, after T0)
  //   8  T1 r steal:T0 spawn         -> 16, D1=[r]
  //  16  T0 r00 child leaf           -> 32
  //  16  T1 r1 child leaf            -> 32
  //  32  T0 r0 own spawn             -> 40, D0=[r0]
  //  32  T1 r own suspend            -> 38: r0 has not returned; r parks
  //  38  T1 wait
  //  40  T0 r01 child leaf           -> 56; r0 is in D0: T1 steals it at once
  //  40  T1 r0 steal:T0 suspend      -> 46: r01 runs on T0; r0 parks
  //  46  T1 wait
  //  56  T0 r0 own return            r01 was r0's last child: T0 pushes r0 and pops it -> 62
  //  62  T0 r own return             r0 was r's last child -> 68: Done for both (T1 waited 8 + 2 + 22).
  TaskRuntime runtime(traced("fib", 3, "work-stealing"), 2);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 2);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{68}));
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{
                "0 T0 r own spawn", "0 T1 wait", "8 T0 r0 child spawn", "8 T1 r steal:T0 spawn",
                "16 T0 r00 child leaf", "16 T1 r1 child leaf", "32 T0 r0 own spawn", "32 T1 r own suspend",
                "38 T1 wait", "40 T0 r01 child leaf", "40 T1 r0 steal:T0 suspend", "46 T1 wait",
                "56 T0 r0 own return", "62 T0 r own return", "68 T0 done", "68 T1 done"}));
  const ThreadStats& t0 = runtime.stats(0);
  const ThreadStats& t1 = runtime.stats(1);
  EXPECT_EQ(t0.tasks, 4) << "r00, r01, r0, r";
  EXPECT_EQ(t1.tasks, 1) << "r1";
  EXPECT_EQ(t0.dispatches, 4) << "0, 32, 56, 62 from its own deque";
  EXPECT_EQ(t1.dispatches, 3) << "8 and 40 stolen, 32 its own";
  EXPECT_EQ(t0.steals, 0);
  EXPECT_EQ(t1.steals, 2);
  EXPECT_EQ(t0.switch_cycles, 7 * 6);
  EXPECT_EQ(t1.switch_cycles, 4 * 6);
  EXPECT_EQ(t0.spawn_cycles, 3 * 2);
  EXPECT_EQ(t1.spawn_cycles, 1 * 2);
  EXPECT_EQ(t0.waiting_for_work, 0);
  EXPECT_EQ(t1.waiting_for_work, 32);
}

TEST(TaskRuntimeWorkStealing, Binary2OnThreeThreadsPicksVictimsRoundRobinFromTheNextThread) {
  // A thief tries the threads after it in order (T0: T1, T2; T1: T2, T0; T2: T0, T1) and takes the top of the
  // first non-empty deque. Dn is thread n's deque, top first.
  //   0  T0 r own spawn                   -> 8;  T1, T2 wait
  //   8  T0 r0 child spawn                -> 16, D0=[r]: T1 and T2 ask
  //   8  T1 r steal:T0 spawn              -> 16
  //   8  T2 wait                          D0 empty again
  //  16  T0 r00 child leaf                -> 32, D0=[r0]: T2 asks
  //  16  T1 r1 child spawn                -> 24, D1=[r]
  //  16  T2 r0 steal:T0 spawn             -> 24: T0 comes before T1 in T2's order, so r0 and not r
  //  24  T1 r10 child leaf                -> 40, D1=[r r1]
  //  24  T2 r01 child leaf                -> 40, D2=[r0]
  //  32  T0 r steal:T1 suspend            -> 38: the top of D1; r0 and r1 are unfinished
  //  38  T0 r1 steal:T1 spawn             -> 46
  //  40  T1 r0 steal:T2 suspend           -> 46: r01 ends at 40 too, but on T2, whose call comes after T1's
  //  40  T2 wait                          r01 done; r0 is T1's, switching out
  //  46  T0 r11 child leaf                -> 62, D0=[r1]: T2 asks
  //  46  T1 r0 own return                 -> 52: r0's last child returned while it switched out
  //  46  T2 r1 steal:T0 suspend           -> 52
  //  52  T1 wait, T2 wait
  //  62  T0 r1 own return                 -> 68: T0 ran r1's last child, so it resumes r1
  //  68  T0 r own return                  -> 74: Done for all three.
  TaskRuntime runtime(traced("binary", 2, "work-stealing"), 3);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 3);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{74}));
  EXPECT_EQ(texts(steps), (std::vector<std::string>{"0 T0 r own spawn",
                                                    "0 T1 wait",
                                                    "0 T2 wait",
                                                    "8 T0 r0 child spawn",
                                                    "8 T1 r steal:T0 spawn",
                                                    "8 T2 wait",
                                                    "16 T0 r00 child leaf",
                                                    "16 T1 r1 child spawn",
                                                    "16 T2 r0 steal:T0 spawn",
                                                    "24 T1 r10 child leaf",
                                                    "24 T2 r01 child leaf",
                                                    "32 T0 r steal:T1 suspend",
                                                    "38 T0 r1 steal:T1 spawn",
                                                    "40 T1 r0 steal:T2 suspend",
                                                    "40 T2 wait",
                                                    "46 T0 r11 child leaf",
                                                    "46 T1 r0 own return",
                                                    "46 T2 r1 steal:T0 suspend",
                                                    "52 T1 wait",
                                                    "52 T2 wait",
                                                    "62 T0 r1 own return",
                                                    "68 T0 r own return",
                                                    "74 T0 done",
                                                    "74 T1 done",
                                                    "74 T2 done"}));
  const std::vector<std::int64_t> tasks{4, 2, 1}, steals{2, 2, 2}, waiting{0, 8 + 22, 16 + 6 + 22};
  for (int thread = 0; thread < 3; ++thread) {
    SCOPED_TRACE(thread);
    EXPECT_EQ(runtime.stats(thread).tasks, tasks[static_cast<std::size_t>(thread)]);
    EXPECT_EQ(runtime.stats(thread).steals, steals[static_cast<std::size_t>(thread)]);
    EXPECT_EQ(runtime.stats(thread).waiting_for_work, waiting[static_cast<std::size_t>(thread)]);
  }
}

TEST(TaskRuntimeCentralQueue, Binary2OnOneThread) {
  // binary(2): r spawns r0, r1 (depth 1), each spawns two leaves. 7 tasks, 4 leaves, 6 spawns.
  //   0  r queue spawn       -> 8,   Q=[r]
  //   8  r0 child spawn      -> 16,  Q=[r r0]
  //  16  r00 child leaf      -> 32
  //  32  r queue spawn       -> 40,  Q=[r0 r]
  //  40  r1 child spawn      -> 48,  Q=[r0 r r1]
  //  48  r10 child leaf      -> 64
  //  64  r0 queue spawn      -> 72,  Q=[r r1 r0]
  //  72  r01 child leaf      -> 88
  //  88  r queue yield       -> 94,  Q=[r1 r0 r]   (r0, r1 unfinished)
  //  94  r1 queue spawn      -> 102, Q=[r0 r r1]
  // 102  r11 child leaf      -> 118
  // 118  r0 queue return     -> 124, Q=[r r1]
  // 124  r queue yield       -> 130, Q=[r1 r]      (r1 unfinished)
  // 130  r1 queue return     -> 136
  // 136  r queue return      -> 142
  // 15 Works: 30 switches (90) + 6 spawns (12) + 4 leaves (40) = 142.
  TaskRuntime runtime(traced("binary", 2, "central-queue"), 1);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 1);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{142}));
  EXPECT_EQ(
      texts(steps),
      (std::vector<std::string>{
          "0 T0 r queue spawn", "8 T0 r0 child spawn", "16 T0 r00 child leaf", "32 T0 r queue spawn",
          "40 T0 r1 child spawn", "48 T0 r10 child leaf", "64 T0 r0 queue spawn", "72 T0 r01 child leaf",
          "88 T0 r queue yield", "94 T0 r1 queue spawn", "102 T0 r11 child leaf", "118 T0 r0 queue return",
          "124 T0 r queue yield", "130 T0 r1 queue return", "136 T0 r queue return", "142 T0 done"}));
  EXPECT_EQ(runtime.stats(0).tasks, 7);
  EXPECT_EQ(runtime.stats(0).dispatches, 9);
  EXPECT_EQ(runtime.stats(0).switch_cycles, 90);
  EXPECT_EQ(runtime.stats(0).spawn_cycles, 12);
}

TEST(TaskRuntimeWorkStealing, Binary2OnOneThread) {
  // Depth first, no failed sync: 3 Works per inner task (2 spawns, 1 return) + 4 leaves = 13 Works:
  // 26 switches (78) + 12 + 40 = 130.
  TaskRuntime runtime(traced("binary", 2, "work-stealing"), 1);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 1);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{130}));
  EXPECT_EQ(texts(steps),
            (std::vector<std::string>{"0 T0 r own spawn", "8 T0 r0 child spawn", "16 T0 r00 child leaf",
                                      "32 T0 r0 own spawn", "40 T0 r01 child leaf", "56 T0 r0 own return",
                                      "62 T0 r own spawn", "70 T0 r1 child spawn", "78 T0 r10 child leaf",
                                      "94 T0 r1 own spawn", "102 T0 r11 child leaf", "118 T0 r1 own return",
                                      "124 T0 r own return", "130 T0 done"}));
  EXPECT_EQ(runtime.stats(0).tasks, 7);
  EXPECT_EQ(runtime.stats(0).dispatches, 7) << "0, 32, 56, 62, 94, 118, 124";
}

TEST(TaskRuntime, ASingleLeafRootEndsThePhaseForEveryThread) {
  // fib(1) is one leaf: T0 takes it at 0 (2S + L = 16); T1 finds nothing and waits until the root returns.
  for (const std::string policy : {"central-queue", "work-stealing"}) {
    SCOPED_TRACE(policy);
    TaskRuntime runtime(traced("fib", 1, policy), 2);
    std::vector<TaskRuntime::Step> steps;
    runtime.record_steps(&steps);
    const DedicatedRun run = run_dedicated(runtime, 2);
    EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{16}));
    const std::string from = policy == "central-queue" ? "queue" : "own";
    EXPECT_EQ(texts(steps), (std::vector<std::string>{"0 T0 r " + from + " leaf", "0 T1 wait", "16 T0 done",
                                                      "16 T1 done"}));
    EXPECT_EQ(runtime.stats(0).tasks, 1);
    EXPECT_EQ(runtime.stats(0).switch_cycles, 6);
    EXPECT_EQ(runtime.stats(0).spawn_cycles, 0);
    EXPECT_EQ(runtime.stats(1).tasks, 0);
    EXPECT_EQ(runtime.stats(1).waiting_for_work, 16);
  }
}

TEST(TaskRuntime, WaitForWorkUntilWorkIsAvailableAndWaitingCountsFromTheFirstAnswer) {
  // fib(3) central queue on 2 threads, called by hand: the transitions of the trace above.
  TaskRuntime runtime(traced("fib", 3, "central-queue"), 2);
  EXPECT_FALSE(runtime.work_available()) << "no phase has begun";
  EXPECT_EQ(runtime.next(0, 0, 0).kind, Next::Kind::Work);  // T0 takes the root
  EXPECT_FALSE(runtime.work_available()) << "the root is running, the queue is empty";
  EXPECT_EQ(runtime.next(1, 0, 0).kind, Next::Kind::WaitForWork);
  // Switched back in at 5 with still nothing: it waits on, from 0.
  EXPECT_EQ(runtime.next(1, 0, 5).kind, Next::Kind::WaitForWork);
  const Next t0 = runtime.next(0, 0, 8);  // the root is queued as T0 runs r0
  EXPECT_EQ(t0.kind, Next::Kind::Work);
  EXPECT_EQ(t0.cycles, 8);
  EXPECT_TRUE(runtime.work_available()) << "the root is in the queue";
  const Next t1 = runtime.next(1, 0, 8);
  EXPECT_EQ(t1.kind, Next::Kind::Work);
  EXPECT_EQ(t1.cycles, 8) << "the root spawns r1";
  EXPECT_FALSE(runtime.work_available());
  EXPECT_EQ(runtime.stats(1).waiting_for_work, 8) << "from the first WaitForWork at 0 to the Work at 8";
}

TEST(TaskRuntime, FreeSwitchesAndSpawnsWaitInsteadOfPollingBlockedParents) {
  // S = P = 0, L = 10: a Work is a leaf's 10 cycles; everything else happens within a call.
  //   0  T0 r spawns r0 (free), r0 spawns r00 (free): Q=[r r0]; runs r00      -> 10
  //   0  T1 takes r: r spawns r1 (free), Q=[r0 r]; runs r1                  -> 10
  //  10  T0 r00 done; takes r0: spawns r01 (free), Q=[r r0]; runs r01        -> 20
  //  10  T1 r1 done; r and r0 both wait for a child: a free yield would change nothing, so T1 waits
  //  20  T0 r01 done; r yields (r0 has not returned) behind r0; r0 returns; r returns: Done at 20.
  TaskRuntime runtime(tree("fib", 3, "central-queue", 10, 0, 0), 2);
  std::vector<TaskRuntime::Step> steps;
  runtime.record_steps(&steps);
  const DedicatedRun run = run_dedicated(runtime, 2);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{20}));
  EXPECT_EQ(texts(steps), (std::vector<std::string>{
                              "0 T0 r queue spawn", "0 T0 r0 child spawn", "0 T0 r00 child leaf",
                              "0 T1 r queue spawn", "0 T1 r1 child leaf", "10 T0 r0 queue spawn",
                              "10 T0 r01 child leaf", "10 T1 wait", "20 T0 r queue yield",
                              "20 T0 r0 queue return", "20 T0 r queue return", "20 T0 done", "20 T1 done"}));
  EXPECT_EQ(runtime.stats(1).waiting_for_work, 10);
  EXPECT_EQ(runtime.stats(0).dispatches, 5);
  EXPECT_EQ(runtime.stats(1).dispatches, 1);
}

TEST(TaskRuntime, AFreeTreeEndsAtTheFirstCall) {
  // No cost at all: the first thread runs the whole tree of fib(5) (15 tasks) within its first call.
  for (const std::string policy : {"central-queue", "work-stealing"}) {
    SCOPED_TRACE(policy);
    TaskRuntime runtime(tree("fib", 5, policy, 0, 0, 0), 2);
    EXPECT_EQ(runtime.next(0, 0, 0).kind, Next::Kind::Done);
    EXPECT_TRUE(runtime.work_available());
    EXPECT_EQ(runtime.next(1, 0, 0).kind, Next::Kind::Done);
    EXPECT_EQ(runtime.stats(0).tasks, 15);
    EXPECT_EQ(runtime.stats(1).tasks, 0);
  }
}

TEST(TaskRuntime, EachPhaseRunsTheTreeAgainAndStatsAddUp) {
  // Two phases of fib(3) on one thread: 98 each (the central-queue trace above), stats summed.
  TaskRuntime runtime(traced("fib", 3, "central-queue"), 1);
  const DedicatedRun run = run_dedicated(runtime, 1, 2);
  EXPECT_EQ(run.phase_ends, (std::vector<Cycles>{98, 196}));
  EXPECT_EQ(runtime.stats(0).tasks, 10);
  EXPECT_EQ(runtime.stats(0).dispatches, 12);
  EXPECT_EQ(runtime.stats(0).switch_cycles, 120);
}

TEST(TaskRuntime, RefusesCallsThatBreakTheContract) {
  TaskRuntime runtime(traced("fib", 3, "work-stealing"), 2);
  ASSERT_EQ(runtime.next(0, 0, 0).kind, Next::Kind::Work);
  EXPECT_THROW(runtime.next(1, 1, 0), std::logic_error) << "phase 1 before phase 0's tree finished";
  EXPECT_THROW(runtime.next(2, 0, 0), std::out_of_range);
  EXPECT_THROW(runtime.stats(-1), std::out_of_range);
  TaskRuntime one(traced("fib", 1, "central-queue"), 1);
  const DedicatedRun run = run_dedicated(one, 1, 2);
  ASSERT_EQ(run.phase_ends.size(), 2u);
  EXPECT_THROW(one.next(0, 0, 100), std::logic_error) << "back to phase 0";
}

TEST(TaskRuntime, RefusesBadSettings) {
  EXPECT_THROW(TaskRuntime(traced("fib", -1, "central-queue"), 2), std::invalid_argument);
  EXPECT_THROW(TaskRuntime(tree("fib", 3, "central-queue", -1, 0, 0), 2), std::invalid_argument);
  EXPECT_THROW(TaskRuntime(tree("fib", 3, "central-queue", 0, -1, 0), 2), std::invalid_argument);
  EXPECT_THROW(TaskRuntime(tree("fib", 3, "central-queue", 0, 0, -1), 2), std::invalid_argument);
  EXPECT_THROW(TaskRuntime(traced("fib", 3, "central-queue"), 0), std::invalid_argument);
  EXPECT_NE(make_task_runtime(traced("binary", 2, "work-stealing"), 3), nullptr);
}

TEST(TaskRuntime, TreeSizes) {
  // fib(n): 2 F(n+1) - 1 tasks with F(1) = F(2) = 1; binary(d): 2^(d+1) - 1.
  EXPECT_EQ(task_tree_size(traced("fib", 0, "central-queue")), 1);
  EXPECT_EQ(task_tree_size(traced("fib", 1, "central-queue")), 1);
  EXPECT_EQ(task_tree_size(traced("fib", 2, "central-queue")), 3);
  EXPECT_EQ(task_tree_size(traced("fib", 3, "central-queue")), 5);
  EXPECT_EQ(task_tree_size(traced("fib", 25, "central-queue")), 2 * 121393 - 1);
  EXPECT_EQ(task_tree_size(traced("binary", 0, "central-queue")), 1);
  EXPECT_EQ(task_tree_size(traced("binary", 2, "central-queue")), 7);
  EXPECT_EQ(task_tree_size(traced("binary", 10, "central-queue")), 2047);
  EXPECT_THROW(task_tree_size(traced("binary", 70, "central-queue")), std::invalid_argument);
}

// Dedicated CPUs, so every thread is working or waiting for work from 0 until the root returns (no task runs
// after it), and threads x end = switches + spawns + leaves x leaf + waiting, summed over the threads.
void expect_consistent_sums(const config::SmpTasks& tasks, int threads, std::int64_t leaves) {
  TaskRuntime runtime(tasks, threads);
  const DedicatedRun run = run_dedicated(runtime, threads);
  ASSERT_EQ(run.phase_ends.size(), 1u);
  const ThreadStats total = sum(runtime, threads);
  const std::int64_t size = task_tree_size(tasks);
  EXPECT_EQ(total.tasks, size);
  EXPECT_EQ(total.spawn_cycles, (size - 1) * tasks.spawn) << "every task but the root is spawned once";
  EXPECT_EQ(total.switch_cycles % (2 * tasks.switch_cost), 0) << "switches come in pairs";
  EXPECT_GE(total.dispatches, tasks.policy == workload::TaskPolicy::CentralQueue ? size - leaves : 1);
  EXPECT_LE(total.steals, total.dispatches);
  if (tasks.policy == workload::TaskPolicy::CentralQueue) {
    EXPECT_EQ(total.steals, 0);
  }
  EXPECT_EQ(total.switch_cycles + total.spawn_cycles + leaves * tasks.leaf + total.waiting_for_work,
            threads * run.phase_ends[0]);
}

TEST(TaskRuntime, SumsAreConsistentOnLargerTrees) {
  // fib(12): 465 tasks, 233 leaves; binary(8): 511 tasks, 256 leaves.
  for (const std::string policy : {"central-queue", "work-stealing"}) {
    for (int threads : {1, 3, 4}) {
      SCOPED_TRACE(policy + " on " + std::to_string(threads) + " threads");
      expect_consistent_sums(tree("fib", 12, policy, 50, 7, 5), threads, 233);
      expect_consistent_sums(tree("binary", 8, policy, 50, 7, 5), threads, 256);
    }
  }
}

TEST(TaskRuntime, WorkStealingSpreadsAWideTree) {
  // binary(8) with long leaves (L = 1000, P = 7, S = 5). On one thread: 3 Works per inner task (2 spawns,
  // 1 return), 1 per leaf, each with 2 switches. On 4 threads every thread steals, and the run keeps within
  // the greedy bound T1/4 + T_inf (Graham; Brent), T_inf the critical path: 8 spawns (2S + P), a leaf
  // (2S + L) and 8 returns (2S).
  const config::SmpTasks tasks = tree("binary", 8, "work-stealing", 1000, 7, 5);
  TaskRuntime serial(tasks, 1);
  const Cycles one = run_dedicated(serial, 1).phase_ends.at(0);
  EXPECT_EQ(one, 256 * 1000 + 510 * 7 + 2 * 5 * (3 * 255 + 256));
  TaskRuntime runtime(tasks, 4);
  const Cycles four = run_dedicated(runtime, 4).phase_ends.at(0);
  for (int thread = 1; thread < 4; ++thread) EXPECT_GT(runtime.stats(thread).steals, 0) << thread;
  EXPECT_LE(four, one / 4 + 8 * 17 + 1010 + 8 * 10);
}

TEST(TaskRuntime, IsDeterministic) {
  for (const std::string policy : {"central-queue", "work-stealing"}) {
    SCOPED_TRACE(policy);
    std::vector<std::vector<TaskRuntime::Step>> runs(2);
    std::vector<Cycles> ends;
    for (auto& steps : runs) {
      TaskRuntime runtime(tree("fib", 10, policy, 40, 3, 4), 3);
      runtime.record_steps(&steps);
      ends.push_back(run_dedicated(runtime, 3).phase_ends.at(0));
    }
    EXPECT_EQ(ends[0], ends[1]);
    EXPECT_EQ(texts(runs[0]), texts(runs[1]));
    EXPECT_GT(runs[0].size(), 177u) << "fib(10) has 177 tasks";
  }
}

TEST(TaskRuntime, Fib25OnFourThreads) {
  // The size the brief names (242785 tasks): both policies run it, every task counted once.
  for (const std::string policy : {"central-queue", "work-stealing"}) {
    SCOPED_TRACE(policy);
    const config::SmpTasks tasks = tree("fib", 25, policy, 200, 20, 300);
    TaskRuntime runtime(tasks, 4);
    const DedicatedRun run = run_dedicated(runtime, 4);
    EXPECT_EQ(sum(runtime, 4).tasks, 242785);
    EXPECT_GT(run.phase_ends.at(0), 0);
  }
}

}  // namespace
}  // namespace cosched::userlevel
