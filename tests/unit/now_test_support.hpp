#pragma once
// NOW workstations without SimGrid, for the node and barrier-protocol tests: one node fed by hand, or a
// few single-process workstations joined by an idle LogP network. Times in nanoseconds.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "barrier/protocol.hpp"
#include "now/node.hpp"
#include "sched/now/stride.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::now::test_support {

constexpr Nanos kUs = 1'000;
constexpr Nanos kMs = 1'000'000;

// A job of `processes` ranks, rank r on workstation r, that computes one phase of `compute` and meets
// at one barrier of the root kind with flat notices and arrivals; no reads.
inline JobLayout compute_only_job(const std::string& name, int processes, Nanos compute,
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

// Pairwise waiting with the new defaults' rules (docs/models/now.md section 5.1): read baseline 128us,
// barrier baseline and window 300us, each message extends the spin (`extend`), an interrupted spin
// blocks (`resume: block`); after a wake-up one window (`after_wake: window`) or the first phase again.
inline std::shared_ptr<wait::Pairwise> pairwise_extend(bool window_after_wake) {
  auto algorithm = std::make_shared<wait::Pairwise>(
      wait::Pairwise::Timings{128 * kUs, 300 * kUs, 300 * kUs, -1, true, window_after_wake});
  algorithm->set_resume(wait::Resume::Block);
  return algorithm;
}

// Workstation 0 under stride (quantum 10 ms; o = 2us, context switch W = 100us) running `jobs`.
struct NodeFixture {
  explicit NodeFixture(std::vector<JobLayout> job_list, bool wake_preempt = true)
      : jobs(std::move(job_list)), tracker(sizes(jobs)) {
    node = std::make_unique<Node>(NodeParams{0, 2 * kUs, 100 * kUs, 1},
                                  std::make_unique<sched::Stride>(10 * kMs, wake_preempt), &jobs, &tracker);
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

// One job whose rank r runs alone on workstation r (stride, quantum 10 ms, o = `overhead`, W = 100us),
// joined by an idle LogP network: a message put on the network at t reaches its workstation at
// t + `latency`. `layout_of(r)` gives the job as workstation r sees it (its own rank's computation).
class IdleNetwork {
 public:
  IdleNetwork(int processes, Nanos latency, Nanos overhead, const std::function<JobLayout(int)>& layout_of)
      : latency_(latency), tracker_({processes}), layouts_(processes) {
    for (int r = 0; r < processes; ++r) {
      layouts_[r].push_back(layout_of(r));
      nodes_.push_back(std::make_unique<Node>(NodeParams{r, overhead, 100 * kUs, 1},
                                              std::make_unique<sched::Stride>(10 * kMs, true), &layouts_[r],
                                              &tracker_));
      nodes_.back()->add_process(0, r);
    }
  }

  IdleNetwork(const IdleNetwork&) = delete;
  IdleNetwork& operator=(const IdleNetwork&) = delete;

  // Runs every workstation to its end; `on_delivery(t, envelope)` sees each message as it is delivered.
  void run(const std::function<void(Nanos, const Envelope&)>& on_delivery = {}) {
    for (auto& n : nodes_) n->start();
    std::multimap<Nanos, Envelope> in_flight;
    for (;;) {
      Nanos t = -1;
      for (const auto& n : nodes_)
        if (auto next = n->next_timer(); next && (t < 0 || *next < t)) t = *next;
      if (!in_flight.empty() && (t < 0 || in_flight.begin()->first < t)) t = in_flight.begin()->first;
      if (t < 0) break;
      for (auto& n : nodes_) n->advance(t);
      while (!in_flight.empty() && in_flight.begin()->first == t) {
        const auto envelope = in_flight.begin()->second;
        in_flight.erase(in_flight.begin());
        if (on_delivery) on_delivery(t, envelope);
        nodes_[envelope.workstation]->deliver(t, envelope.message);
      }
      for (auto& n : nodes_) {
        for (const auto& e : n->outbox()) in_flight.emplace(t + latency_, e);
        n->outbox().clear();
      }
    }
  }

  // The time, in us, each rank passed the job's last barrier (its first for a job of one); every workstation
  // must have finished.
  std::vector<Nanos> pass_times_us() const {
    std::vector<Nanos> passed(nodes_.size(), -1);
    for (const auto& n : nodes_) {
      EXPECT_TRUE(n->finished()) << "workstation " << n->workstation();
      for (const auto& report : n->reports()) passed[report.rank] = report.barrier.passed / kUs;
    }
    return passed;
  }

 private:
  Nanos latency_;
  JobTracker tracker_;
  std::vector<std::vector<JobLayout>> layouts_;  // one per workstation; nodes hold pointers into it
  std::vector<std::unique_ptr<Node>> nodes_;
};

}  // namespace cosched::now::test_support
