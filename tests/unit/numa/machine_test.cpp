// The NUMA machine on hand-built trees (no SimGrid): the geometric skipping against clock-by-clock
// stepping, the update protocol's messages and stalls, the accounting identities of chapter 5, and the checks
// on the counters of issue 32 section 3 (docs/models/numa.md 6.8).

#include "numa/machine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "numa/reference_table.hpp"
#include "numa_test_support.hpp"
#include "sched/numa/allocation_registry.hpp"
#include "sched/numa/replacement_registry.hpp"

namespace cosched::numa {
namespace {

config::NumaTable entries(std::vector<config::NumaTableEntry> list) {
  config::NumaTable t;
  t.shape = "entries";
  t.entries = std::move(list);
  return t;
}

config::NumaProcessProfile process(const std::string& name, int threads, int local_pages, int shared_pages,
                                   double shared_rate) {
  config::NumaProcessProfile p;
  p.name = name;
  p.threads = threads;
  p.local_pages = local_pages;
  p.shared_pages = shared_pages;
  p.shared_rate = shared_rate;
  p.sync_min = p.sync_max = 1'000'000'000;  // no sync point within these runs
  return p;
}

// Hot-cold tables as the section reader resolves them (their runs).
void resolve(config::NumaProcessProfile& p) {
  for (auto [table, pages] :
       {std::pair{&p.local_table, p.local_pages}, std::pair{&p.shared_table, p.shared_pages}})
    if (table->shape == "hot-cold") table->entries = hot_cold_runs(*table, pages);
}

// A configuration with the allocation policy and replacement strategy a scenario gets when it names none.
config::NumaConfig defaults() {
  config::NumaConfig numa;
  numa.policy = sched::numa_allocation_policies().defaults("policy4");
  numa.replacement = sched::numa_replacements().defaults("strategy1");
  return numa;
}

struct Run {
  metrics::NumaRunRecord record;
  std::int64_t access_events = 0;
};

Run run(const config::NumaConfig& numa, const platform::NumaTopology& topology, std::uint64_t seed,
        Execution execution = Execution::Skipping, metrics::MessageRecorder* messages = nullptr) {
  auto network = make_hop_network(topology, numa);
  MachineSetup setup;
  setup.numa = &numa;
  setup.topology = &topology;
  setup.network = network.get();
  setup.seed = seed;
  setup.execution = execution;
  setup.messages = messages;
  Machine machine(setup);
  while (machine.run_slice()) {
  }
  return {machine.record(), machine.access_events()};
}

// The two-sample comparison used below: means within 4 standard errors (a z-test) and the Kolmogorov-Smirnov
// statistic under its critical value at alpha = 0.001, 1.95 sqrt(2/n).
void expect_same_distribution(std::vector<double> a, std::vector<double> b, const char* what) {
  const double n = static_cast<double>(a.size());
  auto mean = [&](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / n; };
  auto var = [&](const std::vector<double>& v) {
    const double m = mean(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return s / (n - 1);
  };
  const double se = std::sqrt(var(a) / n + var(b) / n);
  EXPECT_LT(std::abs(mean(a) - mean(b)), 4 * se)
      << what << ": skipping " << mean(a) << ", stepped " << mean(b);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  double d = 0;
  for (const auto* sample : {&a, &b})
    for (double x : *sample) {
      const double fa = static_cast<double>(std::upper_bound(a.begin(), a.end(), x) - a.begin()) / n;
      const double fb = static_cast<double>(std::upper_bound(b.begin(), b.end(), x) - b.begin()) / n;
      d = std::max(d, std::abs(fa - fb));
    }
  EXPECT_LT(d, 1.95 * std::sqrt(2.0 / n)) << what;
}

// docs/models/numa.md section 6.2: drawing the clocks to the next event from the geometric distribution
// gives the same distribution as drawing every clock. A small machine (4 clusters, 2 processes of 2 threads,
// hot-cold tables with reads and writes, disk loads, copies fetched, updates, page migrations as threads
// move between slices), frames enough that nothing is evicted. Over 300 seeds in each mode, two statistics
// per run: the number of access events, and the effective clocks per access event (what the geometric draw
// decides most directly: a 10% error in the event probability moves it by about 10%).
TEST(NumaMachine, SkippingGivesTheSteppedDistributionOfEvents) {
  const auto topology = testing::hand_built_tree({2, 2});
  auto numa = defaults();
  numa.policy = sched::numa_allocation_policies().defaults(
      "policy0");  // random clusters: threads move, local pages migrate
  numa.time_slice = 3000;
  numa.slices = 3;
  numa.disk = 30;
  numa.pages_per_cluster = 200;
  auto a = process("a", 2, 8, 12, 0.1);
  auto b = process("b", 2, 6, 10, 0.2);
  for (auto* p : {&a, &b}) {
    p->local_table.hot_pages = 0.25;
    p->local_table.hot_refs = 0.9;
    p->shared_table.compute = 0.6;
    p->shared_table.read = 0.35;
    p->shared_table.write = 0.05;
    // Every page both read and written, so that the few pages of this machine give events of every kind.
    p->local_table.types = p->shared_table.types = config::NumaTypes::PerReference;
    resolve(*p);
  }
  numa.processes = {a, b};
  const int n = 300;
  std::vector<double> events[2], per_event[2];
  for (int seed = 1; seed <= n; ++seed)
    for (int mode = 0; mode < 2; ++mode) {
      const auto r = run(numa, topology, seed, mode == 0 ? Execution::Skipping : Execution::Stepped);
      events[mode].push_back(static_cast<double>(r.access_events));
      per_event[mode].push_back(static_cast<double>(r.record.processor_clocks.effective) /
                                static_cast<double>(std::max<std::int64_t>(1, r.access_events)));
    }
  EXPECT_GT(std::accumulate(events[1].begin(), events[1].end(), 0.0) / n,
            100);  // there are events to compare
  expect_same_distribution(events[0], events[1], "access events");
  expect_same_distribution(per_event[0], per_event[1], "effective clocks per access event");
}

// Thesis 4.2.4, the update protocol, on two clusters under one switch. One shared page, written at every
// clock (shared_rate 1, a write-only table), local space pure computation. Both threads load the page from
// disk at clock 0 (two copies at clock 200). From then on every write sends one update (to the other copy)
// and waits for one acknowledgement: 2 hops of 1 clock each way, so a stall of exactly 4 clocks, then the
// write's own effective clock. Hence updates = acknowledgements = writes, and comm = 4 clocks per write
// (give or take the writes cut by the end of the slice).
TEST(NumaMachine, UpdateProtocolSendsOneUpdatePerOtherCopyAndStallsForTheAcks) {
  const auto topology = testing::hand_built_tree({2});
  auto numa = defaults();
  numa.time_slice = 2200;
  numa.slices = 1;
  numa.disk = 200;
  auto p = process("w", 2, 1, 1, 1.0);
  p.local_table = entries({{1, 1, config::NumaAccess::Compute}});
  p.shared_table = entries({{1, 1, config::NumaAccess::Write}});
  numa.processes = {p};
  const auto r = run(numa, topology, 7).record;
  const auto& job = r.jobs.at(0);
  EXPECT_EQ(r.disk_accesses, 2);
  EXPECT_EQ(r.messages[static_cast<int>(MessageKind::Update)], job.writes);
  EXPECT_GT(job.writes, 2 * (2200 - 200) / 5 - 4);
  // Every write's stall is 4 clocks; a write cut by the slice end leaves a shorter one.
  EXPECT_LE(job.clocks.comm, 4 * job.writes);
  EXPECT_GE(job.clocks.comm, 4 * (job.writes - 2));
  EXPECT_EQ(job.clocks.disk, 2 * 200);
  EXPECT_EQ(job.clocks.effective + job.clocks.comm + job.clocks.disk, 2 * 2200);
  // Release consistency (future work, 5.3): the writer does not wait, so no comm time at all.
  numa.consistency = config::NumaConsistency::Release;
  const auto rc = run(numa, topology, 7).record;
  EXPECT_EQ(rc.jobs.at(0).clocks.comm, 0);
  EXPECT_GT(rc.jobs.at(0).writes, 4 * job.writes);
}

// Chapter 5's definitions: E + S + M + D + I = clusters x C_end; net <= calibrated <= maximum; calibrated =
// net (1 + idle rate); a process that finishes ends the run (end first-finish) at its finishing clock.
TEST(NumaMachine, AccountingAddsUpAndTheFirstFinishEndsTheRun) {
  const auto topology = testing::hand_built_tree({2, 2});
  auto numa = defaults();
  numa.policy = sched::numa_allocation_policies().defaults("policy1");
  numa.time_slice = 1000;
  numa.slices = 50;
  numa.disk = 100;
  numa.work = 2000;
  auto a = process("a", 3, 4, 4, 0.2);  // 3 of 4 clusters: one idle while it runs
  a.sync_min = a.sync_max = 100;
  auto b = process("b", 2, 4, 4, 0.2);
  b.sync_min = b.sync_max = 150;
  resolve(a);
  resolve(b);
  numa.processes = {a, b};
  const auto r = run(numa, topology, 3).record;
  const auto& c = r.processor_clocks;
  EXPECT_EQ(c.effective + c.sync + c.comm + c.disk + c.idle, 4 * r.clocks);
  EXPECT_GT(c.idle, 0);
  EXPECT_LE(r.rates.net, r.rates.calibrated);
  EXPECT_LE(r.rates.calibrated, r.rates.maximum);
  const double t_prime = static_cast<double>(c.effective + c.sync + c.comm + c.idle);
  EXPECT_DOUBLE_EQ(r.rates.calibrated, r.rates.net * (1 + c.idle / t_prime));
  EXPECT_DOUBLE_EQ(r.rates_with_disk.maximum, (c.effective + c.idle) / (t_prime + c.disk));
  EXPECT_LT(r.rates_with_disk.net, r.rates.net);  // the run did go to the disk
  EXPECT_EQ(r.ended_by, "first-finish");
  const auto finished = std::count_if(r.jobs.begin(), r.jobs.end(), [](const auto& j) { return j.finished; });
  EXPECT_EQ(finished, 1);
  for (const auto& j : r.jobs)
    if (j.finished) {  // the sum passes the target at the clock it finishes, by less than a clock per thread
      EXPECT_GE(j.effective_per_thread * j.threads, j.threads * 2000.0);
      EXPECT_LT(j.effective_per_thread * j.threads, j.threads * 2001.0);
    }
  EXPECT_GT(r.jobs[0].barriers, 0);
}

// ---- Issue 32, section 3: the counters show nothing a DSM of the thesis would not (docs/models/numa.md 6.8)
// ----

// A process whose every clock touches one page of one space: `local` and `shared` are each a one-entry
// table (compute, read or write), references to the shared space with probability `shared_rate`.
config::NumaProcessProfile one_page(const std::string& name, int threads, config::NumaAccess local,
                                    config::NumaAccess shared, double shared_rate) {
  auto p = process(name, threads, 1, 1, shared_rate);
  p.local_table = entries({{1, 1, local}});
  p.shared_table = entries({{1, 1, shared}});
  return p;
}

// Check 1: within a slice a page is fetched to a cluster once; only an eviction or a copy dropped at a
// rescheduling (A11) makes a second fetch. One process of 3 threads on clusters 0-2 of 4 (policy1 gives it
// the same clusters every slice), frames enough that nothing is evicted, 2 local and 4 shared pages read by
// each thread, slices of 300 clocks and page hops of 100 clocks so that fetches run across slice boundaries:
// each thread fetches each of its pages once in the whole run, from the disk or (a shared page) as a copy.
TEST(NumaMachine, APageIsFetchedToAClusterOnceWithoutEvictionOrDrop) {
  const auto topology = testing::hand_built_tree({4});
  auto numa = defaults();
  numa.policy = sched::numa_allocation_policies().defaults("policy1");
  numa.time_slice = 300;
  numa.slices = 10;
  numa.disk = 100;
  numa.page_transfer_base = 100;
  auto p = process("r", 3, 2, 4, 0.5);
  p.local_table = entries({{2, 1, config::NumaAccess::Read}});
  p.shared_table = entries({{4, 1, config::NumaAccess::Read}});
  numa.processes = {p};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto r = run(numa, topology, seed).record;
    const auto& job = r.jobs.at(0);
    EXPECT_EQ(job.slices_run, 10);
    EXPECT_EQ(job.page_transfers.copies + job.disk_accesses, 3 * (2 + 4)) << "seed " << seed;
    EXPECT_GT(job.page_transfers.copies, 0) << "seed " << seed << ": copies were fetched";
    EXPECT_EQ(job.page_transfers.migrations, 0);
    EXPECT_EQ(job.copies_dropped, 0);
    for (auto n : job.pages_replaced) EXPECT_EQ(n, 0);
  }
}

// A13 (docs/models/numa.md sections 1.3 and 6.1): one process of two threads on clusters 0 and 1, half of
// whose clocks write its one shared page (the other half compute). The first write loads the page from the
// disk on its thread's cluster (a disk of 1 clock; with this seed the two threads' first writes do not race
// to the disk, A17). Under write_miss remote the other thread, with no copy, updates the page's one copy at
// each write and never fetches one, while the holder writes its only copy with no update. Under fetch the
// other thread fetches a copy first, and from then on every write of either thread updates the other's copy.
// Waiting for acknowledgements is comm_updates; waiting for the fetch is comm only.
TEST(NumaMachine, AWriteWithoutACopyUpdatesEveryCopyUnderRemoteAndFetchesOneUnderFetch) {
  const auto topology = testing::hand_built_tree({2});
  auto numa = defaults();
  numa.policy = sched::numa_allocation_policies().defaults("policy1");
  numa.time_slice = 5000;
  numa.slices = 1;
  numa.disk = 1;
  numa.processes = {one_page("w", 2, config::NumaAccess::Compute, config::NumaAccess::Write, 0.5)};
  numa.write_miss = config::NumaWriteMiss::Remote;
  const auto remote = run(numa, topology, 3).record;
  const auto& rw = remote.jobs.at(0);
  ASSERT_EQ(rw.disk_accesses, 1) << "the page is loaded once (the two first writes do not race)";
  EXPECT_EQ(rw.page_transfers.copies, 0) << "remote: no copy fetched for a write";
  EXPECT_GT(rw.writes, 100) << "the thread without a copy writes remotely";
  EXPECT_EQ(remote.messages[static_cast<int>(MessageKind::Update)], rw.writes)
      << "one copy: one update a write";
  EXPECT_GT(rw.clocks.comm_updates, 0);
  EXPECT_EQ(rw.clocks.comm_updates, rw.clocks.comm) << "it waits only for acknowledgements";

  numa.write_miss = config::NumaWriteMiss::Fetch;
  const auto fetch = run(numa, topology, 3).record;
  const auto& fw = fetch.jobs.at(0);
  ASSERT_EQ(fw.disk_accesses, 1);
  EXPECT_EQ(fw.page_transfers.copies, 1) << "fetch: the other thread copies the page once";
  EXPECT_GT(fw.writes, rw.writes) << "both threads now update the other's copy";
  EXPECT_EQ(fetch.messages[static_cast<int>(MessageKind::Update)], fw.writes) << "one other copy each";
  EXPECT_GT(fw.clocks.comm_updates, 0);
  EXPECT_LT(fw.clocks.comm_updates, fw.clocks.comm) << "the fetch's wait is comm, not comm_updates";

  // Release consistency (section 6.7): the writer goes on, and waits for its acknowledgements at its next
  // sync point (every 200 effective clocks, both threads): that wait, and nothing else, is comm here.
  numa.write_miss = config::NumaWriteMiss::Remote;
  numa.consistency = config::NumaConsistency::Release;
  numa.barrier = config::NumaSyncMembers::All;
  numa.processes[0].sync_min = numa.processes[0].sync_max = 200;
  const auto release = run(numa, topology, 3).record.jobs.at(0);
  EXPECT_GT(release.writes, 100);
  EXPECT_GT(release.clocks.comm_updates, 0);
  EXPECT_EQ(release.clocks.comm_updates, release.clocks.comm) << "draining is waiting for acknowledgements";
}

// Three clusters under one switch, policy1 (the first free clusters from cluster 0), processes a and b of one
// thread and c of two. The aging formula (section 4.3) moves them: slice 0 a on 0, b on 1, c waits; slice 1 c
// on 0-1, a on 2, b waits; slice 2 b on 0, c on 1-2, a waits; slice 3 a on 0, b on 1, c waits. A write
// with no copy here fetches one first (write_miss fetch, A13), so that every writer holds a copy of its page.
config::NumaConfig rotation(config::NumaAccess shared) {
  auto numa = defaults();
  numa.write_miss = config::NumaWriteMiss::Fetch;
  numa.policy = sched::numa_allocation_policies().defaults("policy1");
  numa.time_slice = 2000;
  numa.disk = 100;
  using config::NumaAccess;
  numa.processes = {one_page("a", 1, NumaAccess::Compute, shared, 1.0),
                    one_page("b", 1, NumaAccess::Compute, shared, 1.0),
                    one_page("c", 2, NumaAccess::Compute, shared, 1.0)};
  return numa;
}

// Check 2: an update goes only to a copy that the process may still use. Every process writes its one shared
// page at every clock. A process placed on new clusters keeps the last copy of a page on its old cluster
// (A11), but once the page has a copy on its own clusters the old one is removed without cost: a and b, each
// alone on its cluster, never send an update (a's copy left on cluster 0 in slice 1, b's on cluster 1 in
// slice 2, would otherwise take one at every write); c's writes each update exactly one copy, its other
// thread's, even after a slice boundary that catches a write round in flight (the writer's copy, pinned at
// the rescheduling, goes when its round ends).
TEST(NumaMachine, UpdatesGoOnlyToCopiesOnTheProcessesOwnClusters) {
  const auto topology = testing::hand_built_tree({3});
  auto numa = rotation(config::NumaAccess::Write);
  numa.slices = 3;
  const auto r = run(numa, topology, 5).record;
  const auto& a = r.jobs.at(0);
  const auto& b = r.jobs.at(1);
  const auto& c = r.jobs.at(2);
  EXPECT_EQ(a.slices_run, 2);
  EXPECT_EQ(b.slices_run, 2);
  EXPECT_EQ(c.slices_run, 2);
  EXPECT_EQ(a.page_transfers.copies, 1) << "a fetched its page to cluster 2 in slice 1";
  EXPECT_EQ(b.page_transfers.copies, 1) << "b fetched its page to cluster 0 in slice 2";
  EXPECT_EQ(a.writes, 0);
  EXPECT_EQ(b.writes, 0);
  EXPECT_GT(c.writes, 100);
  EXPECT_EQ(r.messages[static_cast<int>(MessageKind::Update)], c.writes) << "one update per write";
  EXPECT_GE(a.copies_dropped + b.copies_dropped, 2);
}

// Check 2, the copy kept under coherency processing: the rotation with updates and acknowledgements at 50
// clocks a hop. c's thread on cluster 0 is in a write round when slice 1 ends and moves to cluster 2; its
// copy on cluster 0, pinned, stays at the rescheduling. When the round's last acknowledgement reaches cluster
// 0 the copy goes at once, before the thread fetches a copy to cluster 2: no update is sent to cluster 0
// after that in slice 2 (c's other thread, on cluster 1, writes on without one until cluster 2 has its copy).
TEST(NumaMachine, ACopyKeptUnderCoherencyProcessingGoesWhenItsRoundEnds) {
  const auto topology = testing::hand_built_tree({3});
  auto numa = rotation(config::NumaAccess::Write);
  numa.slices = 3;
  numa.update_bytes = numa.communication_bytes = numa.page_size;
  metrics::MessageRecorder messages;
  const auto r = run(numa, topology, 5, Execution::Skipping, &messages).record;
  const Clock start = 2 * numa.time_slice, end = 3 * numa.time_slice;  // slice 2: b on 0, c on 1 and 2
  const auto trace = messages.messages();
  const auto in_slice = [&](const metrics::TraceMessage& m) { return m.sent >= start && m.sent < end; };
  // In slice 2 the only communication messages from cluster 1 to cluster 0 are the acknowledgements of c's
  // round.
  Clock round_end = -1;
  for (const auto& m : trace)
    if (in_slice(m) && m.from == 1 && m.to == 0 && m.kind == static_cast<int>(MessageKind::Communication))
      round_end = std::max(round_end, m.arrived);
  ASSERT_GE(round_end, start) << "c's write round on cluster 0 runs into slice 2";
  for (const auto& m : trace) {
    if (in_slice(m) && m.to == 0 && m.kind == static_cast<int>(MessageKind::Update)) {
      EXPECT_LE(m.sent, round_end) << "an update to cluster 0's copy after its round ended";
    }
  }
  EXPECT_GT(r.jobs.at(2).writes, 0);
  EXPECT_EQ(r.jobs.at(1).writes, 0) << "b, alone on cluster 0, sent no update";
}

// Check 3: a thread waits (comm, sync or disk) only while it holds a processor. The rotation with every
// write's updates and acknowledgements slowed to 50 clocks a hop (a round of 200 clocks): c's threads are in
// a round at almost every clock, and one is when slice 2 ends, after which c waits through slices 3 and 4
// and runs again in slice 5. Each process's clocks add up to exactly threads x slice length x slices run.
TEST(NumaMachine, AWriteStallIsChargedOnlyWhileTheThreadHoldsAProcessor) {
  const auto topology = testing::hand_built_tree({3});
  auto numa = rotation(config::NumaAccess::Write);
  numa.slices = 6;
  numa.update_bytes = numa.communication_bytes = numa.page_size;
  metrics::MessageRecorder messages;
  const auto r = run(numa, topology, 5, Execution::Skipping, &messages).record;
  const Clock boundary = 3 * numa.time_slice;  // the end of slice 2
  const auto trace = messages.messages();
  EXPECT_TRUE(std::any_of(trace.begin(), trace.end(), [&](const metrics::TraceMessage& m) {
    return m.kind == static_cast<int>(MessageKind::Update) && m.sent < boundary && m.arrived + 100 > boundary;
  })) << "a write round was in flight when slice 2 ended (its acknowledgement arrives after)";
  EXPECT_EQ(r.jobs.at(2).slices_run, 3) << "c waits in slices 3 and 4";
  EXPECT_GT(r.jobs.at(2).clocks.comm, 0);
  for (const auto& job : r.jobs) {
    const auto& k = job.clocks;
    EXPECT_EQ(k.effective + k.sync + k.comm + k.disk,
              static_cast<std::int64_t>(job.threads) * numa.time_slice * job.slices_run)
        << job.name;
  }
}

// Check 4: a local page moves only on demand, to the cluster its thread runs on. Four processes of one thread
// on three clusters (policy1): p0 runs on cluster 0 in slice 0, on 1 in slice 1, on 2 in slice 2, waits in
// slice 3, and is back on 0 in slice 4. p0 reads its one local page at every clock; the others only compute.
// Hops of 600 clocks (slices of 1000): the request p0 sends from cluster 1 at the start of slice 1 reaches
// cluster 0 in slice 2, when p0 runs on cluster 2; the page is not sent to cluster 1, where no thread of p0
// runs (it would take a frame of the process there and move again at p0's next access). p0 finds it on
// cluster 0 in slice 4: no migration in the whole run.
TEST(NumaMachine, ALocalPageIsNotSentToAClusterItsThreadHasLeft) {
  const auto topology = testing::hand_built_tree({3});
  auto numa = defaults();
  numa.policy = sched::numa_allocation_policies().defaults("policy1");
  numa.time_slice = 1000;
  numa.slices = 5;
  numa.disk = 100;
  numa.page_transfer_base = 600;
  numa.communication_bytes = numa.page_size;
  using config::NumaAccess;
  numa.processes = {one_page("p0", 1, NumaAccess::Read, NumaAccess::Compute, 0.0)};
  for (int k = 1; k <= 3; ++k)
    numa.processes.push_back(
        one_page("p" + std::to_string(k), 1, NumaAccess::Compute, NumaAccess::Compute, 0.0));
  const auto r = run(numa, topology, 1).record;
  const auto& p0 = r.jobs.at(0);
  EXPECT_EQ(p0.slices_run, 4);
  EXPECT_EQ(p0.placements.stayed, 0) << "a new cluster at each run";
  EXPECT_EQ(p0.disk_accesses, 1);
  EXPECT_EQ(p0.page_transfers.migrations, 0);
  EXPECT_GT(p0.clocks.effective, 0);
}

}  // namespace
}  // namespace cosched::numa
