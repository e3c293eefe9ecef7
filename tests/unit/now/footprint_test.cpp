// The NOW model's footprint (docs/scenario-format.md, "Traces" and "Limits"): its trace and memory
// estimates, worked out by hand.

#include "now/footprint.hpp"

#include <gtest/gtest.h>

#include "sched/now/local_scheduler_registry.hpp"

namespace cosched::now {
namespace {

// 4 workstations, one NEWS job of 4 processes and 2 copies: reads every 10 us within a 1 ms synchronization
// interval (100 reads), 9 barriers.
config::NowConfig news_job() {
  config::NowConfig now;
  now.workstations = 4;
  now.scheduler = sched::local_schedulers().defaults("ts");
  config::NowJobProfile job;
  job.processes = 4;
  job.copies = 2;
  job.pattern = config::Pattern::News;
  job.comm_interval = 10'000;
  job.sync_interval = 1'000'000;
  job.barriers = 9;
  now.jobs = {job};
  return now;
}

TEST(NowFootprint, PerSynchronizationIntervalSixAndFourPerReadAndTwoMessagesPerRead) {
  const auto now = news_job();
  const auto estimate = trace_estimate(now);
  // 9 ms of barriers alone, times 8 processes on 4 workstations.
  EXPECT_DOUBLE_EQ(estimate.run_length, 9e6 * 2);
  const double syncs = 8 * 10.0;  // processes x (barriers + 1)
  const double quantum = static_cast<double>(now.scheduler_params().quantum());
  EXPECT_DOUBLE_EQ(estimate.intervals, syncs * (6 + 4 * 100.0) + 8 * 3 * 18e6 / quantum);
  EXPECT_DOUBLE_EQ(estimate.messages, syncs * (2 * 100.0 + 2)) << "a request and a reply per read";
}

TEST(NowFootprint, NoReadsWithoutAPattern) {
  auto now = news_job();
  now.jobs[0].pattern = config::Pattern::None;
  const auto estimate = trace_estimate(now);
  EXPECT_DOUBLE_EQ(estimate.messages, 8 * 10.0 * 2) << "an arrival and a notice per barrier";
}

TEST(NowFootprint, MemoryCountsWorkstationsProcessesAndTalkingPairs) {
  // NEWS neighbours and the barrier root: 6 pairs per process, at most every pair of workstations (16).
  EXPECT_DOUBLE_EQ(memory_bytes(news_job()),
                   config::limits::kBaseBytes + 4 * 64 * 1024.0 + 8 * 4096.0 + 16 * 64.0);
}

}  // namespace
}  // namespace cosched::now
