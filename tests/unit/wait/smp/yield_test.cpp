// The yield waiting algorithm (src/wait/smp/yield.cpp; docs/models/smp.md, "The yield waiting algorithm"):
// poll, call sched_yield(), until the barrier completes or the budget is spent, then block. What the yield
// does is the policy's: SCHED_RR's queue tail, CFS's skip buddy, EEVDF's deadline push.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "smp_test_support.hpp"

namespace cosched::testing {
namespace {

// One job of 2 threads, 300 barriers, about 1 ms a phase, cs_in = cs_out = 2500
// (scenarios/linux/smp-2cpu.yaml).
const char* const kScenario = "scenarios/linux/smp-2cpu.yaml";

std::unique_ptr<smp::Machine> run(const std::string& policy, int cpus, int nosync, const std::string& wait,
                                  std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"scheduler.policy=" + policy, "platform.cpus=" + std::to_string(cpus),
                                   "workload.nosync=" + std::to_string(nosync),
                                   "workload.jobs.0.wait=" + wait, "workload.jobs.0.barriers=50"};
  sets.insert(sets.end(), more.begin(), more.end());
  return run_scenario(kScenario, sets);
}

TEST(SmpYield, AThreadAloneOnItsCpuKeepsItAndNeverBlocks) {
  // Two threads on two CPUs: a yield finds no other thread to run, so the waiter polls on until its peer
  // arrives. Every wait is a successful spin; neither thread leaves its CPU.
  for (const char* policy : {"rr", "cfs", "eevdf"}) {
    SCOPED_TRACE(policy);
    const auto m = run(policy, 2, 0, "{algorithm: yield}");
    const auto& job = m->outcomes().at(0);
    ASSERT_TRUE(job.completion_time);
    EXPECT_EQ(job.barriers_completed, 50);
    EXPECT_EQ(job.blocks, 0);
    EXPECT_EQ(job.total_spins, 50);
    EXPECT_EQ(job.successful_spins, 50);
    // Under cfs and eevdf each thread is switched in once, at the start; under rr a quantum's expiry
    // switches a thread out and back in even when it is alone (smp.md section 5).
    if (std::string(policy) != "rr") {
      EXPECT_EQ(job.context_switches, 2);
    }
  }
}

TEST(SmpYield, OnOneCpuTheYieldHandsItToThePeerSoEveryWaitSucceeds) {
  // Both threads on one CPU: the first to arrive yields to its peer, which computes and completes the
  // barrier; the waiter's next poll succeeds. A fixed spin of 2CS+ (5001 cycles, far shorter than a 1 ms
  // phase) fails and blocks instead.
  for (const char* policy : {"rr", "cfs", "eevdf"}) {
    SCOPED_TRACE(policy);
    const auto yielding = run(policy, 1, 0, "{algorithm: yield}");
    const auto& y = yielding->outcomes().at(0);
    EXPECT_EQ(y.blocks, 0);
    EXPECT_EQ(y.successful_spins, y.total_spins);
    EXPECT_EQ(y.total_spins, 50);
    // A switch to the peer at each barrier (a few more when a slice ends during a phase).
    EXPECT_GE(y.context_switches, 50);
    const auto spinning = run(policy, 1, 0, "{algorithm: fixed-spin, spin: 2CS+}");
    EXPECT_EQ(spinning->outcomes().at(0).successful_spins, 0);
    EXPECT_EQ(spinning->outcomes().at(0).blocks, 50);
  }
}

TEST(SmpYield, AloneOnItsCpuItsBudgetedLoopIsTheFixedSpinsRun) {
  // Two threads on two CPUs under eevdf: a yield finds nothing else on the CPU's queue and changes nothing
  // (yield_task_fair returns when nr_running is 1), and the budget counts the loop's CPU time. So a yield
  // loop with a budget of 2CS+ runs exactly as a fixed spin of 2CS+: same spins, blocks, spin time and
  // completion.
  const auto yielding = run("eevdf", 2, 0, "{algorithm: yield, spin: 2CS+}");
  const auto fixed = run("eevdf", 2, 0, "{algorithm: fixed-spin, spin: 2CS+}");
  const auto& y = yielding->outcomes().at(0);
  const auto& f = fixed->outcomes().at(0);
  EXPECT_EQ(y.total_spins, 50);
  EXPECT_GT(y.blocks, 40) << "phases of about 1 ms: most 5 us spins fail";
  EXPECT_EQ(y.successful_spins, f.successful_spins);
  EXPECT_EQ(y.blocks, f.blocks);
  EXPECT_EQ(y.spin_cycles, f.spin_cycles);
  EXPECT_EQ(y.completion_time, f.completion_time);
}

TEST(SmpYield, UnderLoadTheYielderGivesItsCpuAwayAndNeverBlocks) {
  // With 3 busy threads on 2 CPUs a yielding waiter hands its CPU to a busy thread (EEVDF pushes its
  // deadline one request on; CFS makes it the skip buddy; SCHED_RR queues it last): it spins for far less
  // CPU time than a thread that spins on until its slice ends, and its job completes sooner; it never
  // blocks, and every wait succeeds. (Measured: spin time 0.1, 42 and 31 ms against 75, 84 and 86 ms under
  // rr, cfs and eevdf.)
  for (const char* policy : {"rr", "cfs", "eevdf"}) {
    SCOPED_TRACE(policy);
    const auto m = run(policy, 2, 3, "{algorithm: yield}");
    const auto& job = m->outcomes().at(0);
    ASSERT_TRUE(job.completion_time);
    EXPECT_EQ(job.blocks, 0);
    EXPECT_EQ(job.successful_spins, job.total_spins);
    const auto spinning = run(policy, 2, 3, "{algorithm: spin}");
    const auto& spin = spinning->outcomes().at(0);
    EXPECT_LT(static_cast<double>(job.spin_cycles), 0.6 * static_cast<double>(spin.spin_cycles));
    EXPECT_LT(*job.completion_time, *spin.completion_time);
  }
}

}  // namespace
}  // namespace cosched::testing
