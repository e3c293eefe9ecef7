// A NOW workstation's node without SimGrid: feed it time and messages, check what it sends and when.
// Times in nanoseconds; o = 2us, context switch W = 100us, stride quantum 10 ms.

#include <gtest/gtest.h>

#include "now/node.hpp"
#include "sched/local_scheduler_registry.hpp"
#include "wait/fixed_wait.hpp"
#include "wait/pairwise.hpp"

namespace cosched::now {
namespace {

constexpr Nanos kUs = 1'000;
constexpr Nanos kMs = 1'000'000;

JobLayout compute_only_job(const std::string& name, int processes, Nanos compute,
                           std::shared_ptr<const wait::NowWaitAlgorithm> wait) {
  JobLayout job;
  job.name = name;
  job.processes = processes;
  job.barriers = 1;
  for (int r = 0; r < processes; ++r) job.workstation_of.push_back(r);
  job.wait = std::move(wait);
  job.barrier = barrier::make_protocol(config::BarrierKind::Root, processes);
  job.program.sync_interval = compute;
  job.program.pattern = config::Pattern::None;
  job.program.processes = processes;
  return job;
}

std::shared_ptr<const wait::NowWaitAlgorithm> pairwise() {
  return std::make_shared<wait::Pairwise>(wait::Pairwise::Timings{128 * kUs, 300 * kUs, 300 * kUs});
}

struct Fixture {
  explicit Fixture(std::vector<JobLayout> job_list) : jobs(std::move(job_list)), tracker(sizes(jobs)) {
    sched::LocalSchedulerConfig config;
    config.policy = sched::LocalPolicy::Stride;
    node = std::make_unique<Node>(NodeParams{0, 2 * kUs, 100 * kUs, 1},
                                  sched::make_local_scheduler(config, nullptr), &jobs, &tracker);
  }
  static std::vector<int> sizes(const std::vector<JobLayout>& jobs) {
    std::vector<int> out;
    for (const auto& j : jobs) out.push_back(j.processes);
    return out;
  }
  std::vector<JobLayout> jobs;
  JobTracker tracker;
  std::unique_ptr<Node> node;
};

Message request(int job, int from, int to) {
  return Message{Message::Kind::ReadRequest, job, from, to, 0};
}

TEST(NowNode, AMessageToTheRunningProcessIsHandledAtOnce) {
  // Rank 0 of a 2-process job computes 1 ms from 100us (after its switch-in). A read request arrives at
  // 500us: its handler runs at once (o) and sends the reply (o): the reply leaves at 504us, and the
  // computation, delayed by 2o, ends at 1.104 ms, where the root starts to spin for the 300us baseline.
  Fixture f({compute_only_job("A", 2, 1 * kMs, pairwise())});
  f.node->add_process(0, 0);
  f.node->start();
  EXPECT_EQ(f.node->next_timer(), 100 * kUs) << "the switch-in ends";
  f.node->advance(500 * kUs);
  f.node->deliver(500 * kUs, request(0, 1, 0));
  f.node->advance(503 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "the reply is still being sent at 503us";
  f.node->advance(504 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the reply leaves at 504us";
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::ReadReply);
  EXPECT_EQ(f.node->outbox()[0].workstation, 1) << "to the requester's workstation";
  f.node->outbox().clear();
  f.node->advance(1104 * kUs);
  EXPECT_EQ(f.node->next_timer(), 1404 * kUs)
      << "computation ended at 1.104 ms; the barrier spin lasts 300us";
}

TEST(NowNode, AMessageToAReadyProcessWaitsUntilItIsScheduled) {
  // Two single-process jobs share the CPU: A runs first (switch to 100us, quantum to 10.1 ms). A request
  // for B arrives at 1 ms: B is ready, not running, so nothing happens until B's turn: switch from
  // 10.1 ms to 10.2 ms, handle (o), reply (o) leaving at 10.204 ms.
  Fixture f({compute_only_job("A", 1, 50 * kMs, pairwise()), compute_only_job("B", 2, 50 * kMs, pairwise())});
  f.node->add_process(0, 0);
  f.node->add_process(1, 0);
  f.node->start();
  f.node->advance(1 * kMs);
  f.node->deliver(1 * kMs, request(1, 1, 0));
  f.node->advance(10'203 * kUs);
  EXPECT_TRUE(f.node->outbox().empty()) << "B has not run yet";
  f.node->advance(10'204 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "B's reply leaves at 10.204 ms";
  EXPECT_EQ(f.node->outbox()[0].message.job, 1);
}

TEST(NowNode, AMessageWakesABlockedProcessWhichThenGoesBackToWaiting) {
  // A 2-process job that always blocks: rank 1 here computes 1 ms (to 1.1 ms), sends its arrival to the
  // root (leaves 1.102 ms) and blocks. A read request from the root arrives at 2 ms: it wakes rank 1,
  // which is switched in (to 2.1 ms), handles it (o) and replies (o, leaves 2.104 ms); the barrier is
  // not complete, so it blocks again and the CPU idles: no timer left.
  auto block = std::make_shared<wait::FixedWait>(wait::FixedWait::block());
  Fixture f({compute_only_job("A", 2, 1 * kMs, block)});
  f.node->add_process(0, 1);
  f.node->start();
  f.node->advance(1102 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the barrier arrival leaves at 1.102 ms";
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::BarrierArrival);
  f.node->outbox().clear();
  EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked: the CPU is idle";
  f.node->advance(2 * kMs);
  f.node->deliver(2 * kMs, request(0, 0, 1));
  f.node->advance(2104 * kUs);
  ASSERT_EQ(f.node->outbox().size(), 1u) << "the reply leaves at 2.104 ms";
  EXPECT_EQ(f.node->outbox()[0].message.kind, Message::Kind::ReadReply);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "blocked again, waiting for the barrier";
  EXPECT_FALSE(f.node->finished());
}

TEST(NowNode, ConditionalSpinContinuesWhileMessagesKeepArriving) {
  // The root of a 2-process job reaches the barrier at 1.1 ms and spins for the 300us baseline (to
  // 1.4 ms). Two unrelated requests arrive during it (the threshold for 300us with a 128us read baseline
  // is 2), so it spins another 300us window; none arrive in that one, so it blocks at 1.7 ms. Handling
  // and replying (8us in all) happen inside the windows and do not move their ends.
  Fixture f({compute_only_job("A", 2, 1 * kMs, pairwise())});
  f.node->add_process(0, 0);
  f.node->start();
  f.node->advance(1150 * kUs);
  f.node->deliver(1150 * kUs, request(0, 1, 0));
  f.node->advance(1200 * kUs);
  f.node->deliver(1200 * kUs, request(0, 1, 0));
  f.node->advance(1400 * kUs);
  EXPECT_EQ(f.node->next_timer(), 1700 * kUs) << "a second window after two messages";
  f.node->advance(1700 * kUs);
  EXPECT_FALSE(f.node->next_timer().has_value()) << "no message in the window: blocked at 1.7 ms";
}

}  // namespace
}  // namespace cosched::now
