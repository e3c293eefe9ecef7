// Slurm's gang scheduling (docs/models/now-streams.md section 3.5): the examples of Slurm's
// doc/html/gang_scheduling.shtml, each squeue listing reproduced as the job scheduler's state at that
// moment. squeue lists the running jobs first, then the suspended ones, each group by job id (as every
// listing of the document does); NODELIST names workstation w as n(12 + w), the document's five nodes
// n[12-16].

#include "sched/jobs/slurm_gang.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cosched::sched {
namespace {

constexpr SimTime kSecond = 1'000'000'000;

// Slurm's hostlist of consecutive nodes: n[12-14], or n15 alone.
std::string nodelist(const std::vector<int>& workstations) {
  std::string out;
  std::size_t i = 0;
  while (i < workstations.size()) {
    std::size_t j = i;
    while (j + 1 < workstations.size() && workstations[j + 1] == workstations[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += j == i ? std::to_string(12 + workstations[i])
                  : std::to_string(12 + workstations[i]) + "-" + std::to_string(12 + workstations[j]);
    i = j + 1;
  }
  return workstations.size() > 1 && out.find('-') != std::string::npos ? "n[" + out + "]" : "n" + out;
}

// The document's five nodes under OverSubscribe=FORCE (4 jobs per node) and SchedulerTimeSlice=30.
struct Cluster {
  SlurmGangParams params = [] {
    SlurmGangParams p;
    p.time_slice = 30 * kSecond;
    return p;
  }();
  SlurmGangJobScheduler slurm{5, params};
  std::map<int, std::vector<int>> nodes;  // by job

  void sbatch(int job, int processes, SimTime now) {
    slurm.submit({job, now, processes, 300 * kSecond}, now);
    decide(now);
  }
  void decide(SimTime now) {
    for (const auto& start : slurm.decide(now)) nodes[start.job] = start.workstations;
  }
  // squeue's JOBID ST NODES NODELIST lines.
  std::vector<std::string> squeue() const {
    std::vector<std::pair<bool, int>> order;
    for (const auto& [job, where] : nodes) order.emplace_back(!slurm.slicer().running(job), job);
    std::sort(order.begin(), order.end());
    std::vector<std::string> lines;
    for (const auto& [suspended, job] : order)
      lines.push_back(std::to_string(job) + (suspended ? " S " : " R ") +
                      std::to_string(nodes.at(job).size()) + " " + nodelist(nodes.at(job)));
    return lines;
  }
};

using Lines = std::vector<std::string>;

TEST(JobSlurmGang, ASimpleExample) {
  // "sbatch -N5 ./myload 300" twice: job 4 is suspended, and the time slicer swaps them every 30 s.
  Cluster c;
  c.sbatch(3, 5, 0);
  EXPECT_EQ(c.squeue(), (Lines{"3 R 5 n[12-16]"}));
  EXPECT_FALSE(c.slurm.next_wakeup()) << "nothing is suspended: the time slicer has nothing to do";
  c.sbatch(4, 5, 13 * kSecond);
  EXPECT_EQ(c.squeue(), (Lines{"3 R 5 n[12-16]", "4 S 5 n[12-16]"}));
  auto signals = c.slurm.take_signals();
  EXPECT_TRUE(signals.empty()) << "a job allocated suspended needs no signal";
  ASSERT_EQ(c.slurm.next_wakeup(), 30 * kSecond);
  // "After 30 seconds the gang scheduler swaps jobs, and now job 4 is the active one".
  c.decide(30 * kSecond);
  EXPECT_EQ(c.squeue(), (Lines{"4 R 5 n[12-16]", "3 S 5 n[12-16]"}));
  signals = c.slurm.take_signals();
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[0].job, 3);
  EXPECT_FALSE(signals[0].run);
  EXPECT_EQ(signals[1].job, 4);
  EXPECT_TRUE(signals[1].run);
  // "After another 30 seconds the gang scheduler sets job 3 running again".
  ASSERT_EQ(c.slurm.next_wakeup(), 60 * kSecond);
  c.decide(60 * kSecond);
  EXPECT_EQ(c.squeue(), (Lines{"3 R 5 n[12-16]", "4 S 5 n[12-16]"}));
}

TEST(JobSlurmGang, KeepsTheResourcesBusyJob10RunsContinually) {
  // "Job 10 runs continually, while jobs 9 and 11 are timesliced".
  Cluster c;
  c.sbatch(9, 3, 0);
  c.sbatch(10, 2, 1 * kSecond);
  c.sbatch(11, 3, 2 * kSecond);
  EXPECT_EQ(c.squeue(), (Lines{"9 R 3 n[12-14]", "10 R 2 n[15-16]", "11 S 3 n[12-14]"}));
  std::vector<JobSignal> signals;  // every suspension and resumption from here on
  const auto take = [&] {
    for (const auto& signal : c.slurm.take_signals()) signals.push_back(signal);
  };
  take();
  c.decide(30 * kSecond);
  take();
  EXPECT_EQ(c.squeue(), (Lines{"10 R 2 n[15-16]", "11 R 3 n[12-14]", "9 S 3 n[12-14]"}));
  EXPECT_EQ(c.slurm.slicer().queue(), (std::vector<int>{11, 9, 10}))
      << "the running jobs 9 and 10 went to the end of the queue, in their order";
  c.decide(60 * kSecond);
  take();
  EXPECT_EQ(c.squeue(), (Lines{"9 R 3 n[12-14]", "10 R 2 n[15-16]", "11 S 3 n[12-14]"}));
  c.decide(90 * kSecond);
  take();
  EXPECT_EQ(signals.size(), 6u) << "9 and 11 swapped at each of the three slices";
  for (const auto& signal : signals) EXPECT_NE(signal.job, 10) << "job 10 is never suspended or resumed";
}

TEST(JobSlurmGang, LocalBackfilling) {
  // Job 14 runs beside job 12 while job 13, ahead of it, waits suspended: "Without timeslicing and without
  // the backfill scheduler enabled, job 14 has to wait for job 13 to finish."
  Cluster c;
  c.sbatch(12, 3, 0);
  c.sbatch(13, 5, 1 * kSecond);
  c.sbatch(14, 2, 2 * kSecond);
  EXPECT_EQ(c.squeue(), (Lines{"12 R 3 n[12-14]", "14 R 2 n[15-16]", "13 S 5 n[12-16]"}));
}

TEST(JobSlurmGang, AJobEndingResumesTheSuspendedJobsThatFit) {
  // Slurm's gs_job_fini: the running jobs stay, the suspended ones that now fit resume at once, without
  // waiting for the time slice.
  Cluster c;
  c.sbatch(9, 3, 0);
  c.sbatch(10, 2, 1 * kSecond);
  c.sbatch(11, 3, 2 * kSecond);
  c.slurm.take_signals();
  c.slurm.finished(9, 10 * kSecond);
  c.nodes.erase(9);
  const auto signals = c.slurm.take_signals();
  ASSERT_EQ(signals.size(), 1u);
  EXPECT_EQ(signals[0].job, 11);
  EXPECT_TRUE(signals[0].run);
  EXPECT_EQ(c.squeue(), (Lines{"10 R 2 n[15-16]", "11 R 3 n[12-14]"}));
  EXPECT_FALSE(c.slurm.next_wakeup()) << "nothing left suspended";
}

TEST(JobSlurmGang, OversubscribeBoundsTheJobsPerWorkstation) {
  // OverSubscribe=FORCE:2: a third job on the same nodes waits in the queue, unallocated (FIFO: so does the
  // small job behind it, and it still finds no node below two jobs once the third is allocated).
  SlurmGangParams params;
  params.mpl = 2;
  SlurmGangJobScheduler slurm(5, params);
  int started = 0;
  for (int job = 0; job < 3; ++job) {
    slurm.submit({job, 0, 5, 100}, 0);
    started += static_cast<int>(slurm.decide(0).size());
  }
  slurm.submit({3, 0, 1, 100}, 0);
  started += static_cast<int>(slurm.decide(0).size());
  EXPECT_EQ(started, 2);
  slurm.finished(0, 10);
  const auto starts = slurm.decide(10);
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].job, 2);
  EXPECT_TRUE(starts[0].suspended) << "job 1 holds the nodes";
  slurm.finished(1, 20);
  const auto last = slurm.decide(20);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].job, 3);
  EXPECT_TRUE(last[0].suspended) << "job 2, resumed as job 1 ended, holds its node";
  EXPECT_TRUE(slurm.slicer().running(2));
}

TEST(JobSlurmGang, ResumptionsCarryTheirCost) {
  SlurmGangParams params;
  params.time_slice = 30;
  params.suspend_resume = 7;
  SlurmGangJobScheduler slurm(2, params);
  slurm.submit({0, 0, 2, 100}, 0);
  slurm.submit({1, 0, 2, 100}, 0);
  slurm.decide(0);
  slurm.decide(30);
  const auto signals = slurm.take_signals();
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[0].delay, 0) << "a suspension takes effect when it arrives";
  EXPECT_EQ(signals[1].delay, 7) << "a resumption runs suspend_resume later";
}

// The consumable-resource examples: the time slicer over cores. Five nodes of 8 CPUs; each job asks 2
// CPUs on each node (sbatch -n10 -N5).
std::vector<int> running_jobs(const SlurmTimeSlicer& slicer, const std::vector<int>& jobs) {
  std::vector<int> out;
  for (int job : jobs)
    if (slicer.running(job)) out.push_back(job);
  return out;
}

TEST(JobSlurmGang, CrCoreMemoryTimeslicesOnlyTheJobsSharingCores) {
  // CR_Core: cores are specific resources (5 nodes x 8 cores). Jobs 44-47 take cores 0-1, 2-3, 4-5, 6-7 of
  // every node; "Jobs 48 and 49 were allocated to the same cores as jobs 44 and 45."
  SlurmTimeSlicer slicer(std::vector<int>(40, 1));
  const auto cores = [](int first) {
    std::vector<SlurmTimeSlicer::Demand> demand;
    for (int node = 0; node < 5; ++node)
      for (int core = first; core < first + 2; ++core) demand.push_back({node * 8 + core, 1});
    return demand;
  };
  const std::vector<int> jobs{44, 45, 46, 47, 48, 49};
  for (int i = 0; i < 6; ++i) slicer.add(jobs[static_cast<std::size_t>(i)], cores(2 * (i % 4)));
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{44, 45, 46, 47}));
  auto changes = slicer.cycle();
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{46, 47, 48, 49}));
  EXPECT_EQ(changes.suspended, (std::vector<int>{44, 45}));
  EXPECT_EQ(changes.resumed, (std::vector<int>{48, 49}));
  slicer.cycle();
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{44, 45, 46, 47}));
  // "Note that jobs 46 and 47 don't ever get suspended."
  for (int slice = 0; slice < 6; ++slice) {
    changes = slicer.cycle();
    EXPECT_TRUE(slicer.running(46) && slicer.running(47));
  }
}

TEST(JobSlurmGang, CrCpuMemoryRotatesAllSixJobs) {
  // CR_CPU: a node's 8 CPUs are counted, not named; each job holds 2 of each node's.
  SlurmTimeSlicer slicer(std::vector<int>(5, 8));
  std::vector<SlurmTimeSlicer::Demand> two_per_node;
  for (int node = 0; node < 5; ++node) two_per_node.push_back({node, 2});
  const std::vector<int> jobs{51, 52, 53, 54, 55, 56};
  for (int job : jobs) slicer.add(job, two_per_node);
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{51, 52, 53, 54}));
  slicer.cycle();
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{51, 52, 55, 56}));
  slicer.cycle();
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{53, 54, 55, 56}));
  slicer.cycle();
  EXPECT_EQ(running_jobs(slicer, jobs), (std::vector<int>{51, 52, 53, 54}));
}

TEST(JobSlurmGang, RefusesWhatTheEngineMustNeverAsk) {
  SlurmTimeSlicer slicer(std::vector<int>(2, 1));
  EXPECT_THROW(slicer.add(0, {{2, 1}}), std::invalid_argument);
  EXPECT_THROW(slicer.add(0, {{0, 2}}), std::invalid_argument);
  slicer.add(0, {{0, 1}});
  EXPECT_THROW(slicer.add(0, {{1, 1}}), std::logic_error);
  EXPECT_THROW(slicer.remove(5), std::logic_error);
}

}  // namespace
}  // namespace cosched::sched
