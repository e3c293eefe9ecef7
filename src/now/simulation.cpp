#include "now/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>
#include <simgrid/s4u.hpp>

#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "metrics/ssr.hpp"
#include "now/delivery.hpp"
#include "now/node.hpp"
#include "platform/engine.hpp"
#include "platform/now_platform.hpp"
#include "sched/local_scheduler_registry.hpp"
#include "workload/now_program.hpp"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(cosched_now, cosched, "The NOW model's workstation actors");

namespace cosched::now {

namespace sg4 = simgrid::s4u;

namespace {

double seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

sched::LocalSchedulerConfig scheduler_config(const config::NowConfig& now) {
  sched::LocalSchedulerConfig c;
  switch (now.policy) {
    case config::NowPolicy::Gang:
      c.policy = sched::LocalPolicy::Gang;
      break;
    case config::NowPolicy::TimeSharing:
      c.policy = sched::LocalPolicy::TimeSharing;
      break;
    case config::NowPolicy::Stride:
      c.policy = sched::LocalPolicy::Stride;
      break;
    case config::NowPolicy::StrideCredit:
      c.policy = sched::LocalPolicy::StrideCredit;
      break;
  }
  c.quantum = now.quantum;
  c.initial_level = now.initial_level;
  c.sleep_return = now.sleep_return == config::SleepReturn::Always ? sched::SleepReturn::Always
                                                                   : sched::SleepReturn::Maxwait;
  c.credit_cap = now.credit_cap;
  return c;
}

std::vector<JobLayout> job_layouts(const config::NowConfig& now, Nanos latency, int workstations) {
  std::vector<JobLayout> jobs;
  for (const auto& profile : now.jobs) {
    for (std::size_t rank = 0; rank < profile.placement.size(); ++rank) {
      if (profile.placement[rank] >= workstations)
        throw config::InputError(fmt::format(
            "{}: expected at most {} workstations (the hosts of {}), process {} "
            "would be on workstation {}",
            profile.placement_origin[rank], workstations, now.platform_file, rank, profile.placement[rank]));
    }
    wait::WaitPlatform wp{latency, now.overhead, now.context_switch,
                          static_cast<Nanos>(std::llround(workload::imbalance_spread(profile.imbalance) *
                                                          static_cast<double>(profile.sync_interval)))};
    std::shared_ptr<const wait::NowWaitAlgorithm> algorithm = wait::make_now_wait(profile.wait, wp);
    workload::ProgramSpec program{
        profile.comm_interval,  profile.sync_interval,          profile.imbalance, profile.pattern,
        profile.interval_basis, 2 * latency + 4 * now.overhead, profile.processes};
    for (int copy = 0; copy < profile.copies; ++copy) {
      jobs.push_back(JobLayout{profile.name, copy, profile.processes, profile.barriers, profile.tickets,
                               profile.placement, profile.barrier_kind, algorithm, program});
    }
  }
  return jobs;
}

// For each workstation, the workstations whose processes may send to it: read partners (both ways: request
// and reply) and barrier partners.
std::vector<std::vector<int>> correspondents(const std::vector<JobLayout>& jobs, int workstations) {
  std::vector<std::set<int>> talk(workstations);
  auto link = [&](int a, int b) {
    if (a == b) return;
    talk[a].insert(b);
    talk[b].insert(a);
  };
  for (const auto& job : jobs) {
    const auto& ws = job.workstation_of;
    for (int r = 0; r < job.processes; ++r) {
      if (job.program.pattern == config::Pattern::News) {
        for (int q : workload::news_neighbours(r, job.processes)) link(ws[r], ws[q]);
      }
      for (int q = 0; q < job.processes; ++q) {
        const bool random_reads = job.program.pattern == config::Pattern::Random;
        const bool barrier = job.barrier_kind == config::BarrierKind::AllToAll || r == 0;
        if (random_reads || barrier) link(ws[r], ws[q]);
      }
    }
  }
  std::vector<std::vector<int>> out(workstations);
  for (int w = 0; w < workstations; ++w) out[w].assign(talk[w].begin(), talk[w].end());
  return out;
}

// The engine, the platform and the jobs as every workstation will see them; throws InputError for what
// only the platform can tell.
struct Prepared {
  std::unique_ptr<sg4::Engine> engine;
  platform::NowPlatform platform;
  std::vector<JobLayout> jobs;
};

Prepared prepare(const config::NowConfig& now_config) {
  Prepared out;
  out.engine = platform::make_engine();
  platform::configure_network_model();
  out.platform = platform::build_now_platform(*out.engine, now_config);
  out.jobs =
      job_layouts(now_config, out.platform.latency, static_cast<int>(out.platform.workstations.size()));
  return out;
}

}  // namespace

void check_platform(const config::Scenario& scenario) {
  prepare(std::get<config::NowConfig>(scenario.model_config));
}

RunOutput run(const config::Scenario& scenario, const metrics::RunHooks& hooks) {
  const auto& progress = hooks.progress;
  const auto& now_config = std::get<config::NowConfig>(scenario.model_config);
  auto prepared = prepare(now_config);
  auto& engine = *prepared.engine;
  const auto& platform = prepared.platform;
  const int workstations = static_cast<int>(platform.workstations.size());
  const std::vector<JobLayout>& jobs = prepared.jobs;
  std::vector<int> sizes;
  std::int64_t total_barriers = 0;
  for (const auto& job : jobs) {
    sizes.push_back(job.processes);
    total_barriers += static_cast<std::int64_t>(job.processes) * job.barriers;
  }
  JobTracker tracker(sizes);
  std::shared_ptr<sched::GangMatrix> gang;
  if (now_config.policy == config::NowPolicy::Gang) {
    std::vector<sched::JobId> ids(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) ids[j] = static_cast<sched::JobId>(j);
    // The coordinator learns of a completion and tells every workstation: two messages (2L + o). It also
    // exceeds how far a workstation's events can be processed ahead of (L) or behind (o) the clock.
    gang = std::make_shared<sched::GangMatrix>(now_config.quantum, ids,
                                               2 * platform.min_latency + now_config.overhead);
    tracker.on_job_done([gang](int job, Nanos time) { gang->job_finished(job, time); });
  }
  const auto sched_config = scheduler_config(now_config);

  std::vector<std::unique_ptr<Node>> nodes;
  for (int w = 0; w < workstations; ++w) {
    NodeParams params{w, now_config.overhead, now_config.context_switch, scenario.seed};
    nodes.push_back(
        std::make_unique<Node>(params, sched::make_local_scheduler(sched_config, gang), &jobs, &tracker));
  }
  for (std::size_t j = 0; j < jobs.size(); ++j)
    for (int rank = 0; rank < jobs[j].processes; ++rank)
      nodes[jobs[j].workstation_of[rank]]->add_process(static_cast<int>(j), rank);

  if (hooks.started) hooks.started();
  // One mailbox per receiver is exact when messages cannot overtake each other: equal route latencies,
  // and a sender's messages spaced (by o) more than a transfer lasts. COSCHED_NOW_MAILBOX_PER_PAIR=1
  // forces a mailbox per pair (a diagnostic, tested to give identical results).
  const double transfer_ns = static_cast<double>(kMessageBytes) / now_config.bandwidth_bytes_per_second * 1e9;
  const bool in_send_order = platform.uniform_latency &&
                             static_cast<double>(now_config.overhead) > transfer_ns &&
                             std::getenv("COSCHED_NOW_MAILBOX_PER_PAIR") == nullptr;
  auto delivery =
      make_mailbox_delivery(correspondents(jobs, workstations), platform.min_latency, in_send_order);
  // COSCHED_NOW_NO_LOOKAHEAD=1 wakes the actors at every event of their node instead of running ahead to
  // the delivery horizon: slower, and giving identical results (a diagnostic, tested).
  const bool lookahead = std::getenv("COSCHED_NOW_NO_LOOKAHEAD") == nullptr;
  for (int w = 0; w < workstations; ++w) {
    Node* node = nodes[w].get();
    sg4::Actor::create(
        fmt::format("ws-{}", w), platform.workstations[w],
        platform::guarded([node, w, &delivery, &tracker, &progress, total_barriers, lookahead, &scenario] {
          delivery->open(w);
          node->start();
          std::uint64_t wakeups = 0;
          while (!node->finished()) {
            for (const auto& envelope : node->outbox()) delivery->send(w, envelope);
            node->outbox().clear();
            // Internal events before any message could arrive need no SimGrid wake-up; a
            // message leaving before then needs the clock, but no receive.
            const Nanos horizon = lookahead ? delivery->horizon(w) : simulated_now();
            node->advance_quietly(horizon);
            if (node->finished()) break;
            // Only a message leaving needs this actor awake at a given time; the node's other
            // events are processed when it next wakes, in time order, before any message that
            // arrives.
            const auto next = lookahead ? node->next_send_bound() : node->next_timer();
            if (next && *next <= horizon) {
              if (*next > simulated_now()) sg4::this_actor::sleep_until(static_cast<double>(*next) * 1e-9);
              node->advance(*next);
              continue;
            }
            const auto messages = delivery->receive(w, next);
            const Nanos at = simulated_now();
            config::limits::check_simulated_time(at, scenario.file, "ns");
            node->advance(at);
            for (const auto& message : messages) node->deliver(at, message);
            if (progress && w == 0 && (++wakeups & 0xfff) == 0) {
              progress(
                  {fmt::format("{:.3f} s", sg4::Engine::get_clock()),
                   static_cast<double>(tracker.barriers_passed()) / static_cast<double>(total_barriers)});
            }
          }
          for (const auto& envelope : node->outbox()) delivery->send(w, envelope);
          node->outbox().clear();
          delivery->close(w);
        }));
  }
  engine.run();
  platform::rethrow_actor_error();
  if (!tracker.all_done()) throw std::logic_error("NOW model: the simulation ended with unfinished jobs");

  // Results.
  RunOutput out;
  auto& s = out.summary;
  s["scenario"] = scenario.name;
  s["model"] = scenario.model;
  s["seed"] = scenario.seed;
  Nanos makespan = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) makespan = std::max(makespan, *tracker.completion(j));
  s["makespan"] = seconds(makespan);

  struct JobSums {
    TimeBreakdown time;
    WaitCounts waits;
  };
  std::vector<JobSums> sums(jobs.size());
  std::int64_t messages = 0;
  std::uint64_t events = 0;
  std::string workstation_csv =
      "workstation,host,busy_s,utilisation,spinning_s,messages_sent,messages_received\n";
  for (const auto& node : nodes) {
    for (const auto& report : node->reports()) {
      sums[report.job].time += report.time;
      sums[report.job].waits += report.waits;
    }
    messages += node->messages_sent();
    events += node->events();
    workstation_csv +=
        fmt::format("{},{},{:.9f},{:.6f},{:.9f},{},{}\n", node->workstation(),
                    platform.workstations[node->workstation()]->get_name(), seconds(node->cpu_busy()),
                    makespan > 0 ? static_cast<double>(node->cpu_busy()) / makespan : 0.0,
                    seconds(node->cpu_spinning()), node->messages_sent(), node->messages_received());
  }
  std::int64_t successful = 0, total = 0;
  auto job_array = nlohmann::ordered_json::array();
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto& sum = sums[j];
    const double n = jobs[j].processes;
    nlohmann::ordered_json job;
    job["name"] = jobs[j].name;
    job["copy"] = jobs[j].copy;
    job["completion_time"] = seconds(*tracker.completion(j));
    auto rate = metrics::ssr(sum.waits.barrier_spins_successful, sum.waits.barrier_spins);
    job["ssr"] = rate ? nlohmann::ordered_json(*rate) : nullptr;
    job["spins"] = {{"successful", sum.waits.barrier_spins_successful}, {"total", sum.waits.barrier_spins}};
    job["time"] = {{"compute", seconds(sum.time.compute) / n},
                   {"communicate", seconds(sum.time.communicate) / n},
                   {"synchronize", seconds(sum.time.synchronize) / n},
                   {"idle", seconds(sum.time.idle()) / n},
                   {"switch", seconds(sum.time.switching) / n}};
    job["idle_detail"] = {{"ready", seconds(sum.time.ready) / n},
                          {"blocked_read", seconds(sum.time.blocked_read) / n},
                          {"blocked_barrier", seconds(sum.time.blocked_barrier) / n},
                          {"finished", seconds(sum.time.finished) / n}};
    job["read_spins"] = {{"successful", sum.waits.read_spins_successful}, {"total", sum.waits.read_spins}};
    job["blocks"] = sum.waits.blocks;
    successful += sum.waits.barrier_spins_successful;
    total += sum.waits.barrier_spins;
    job_array.push_back(job);
  }
  auto rate = metrics::ssr(successful, total);
  s["ssr"] = rate ? nlohmann::ordered_json(*rate) : nullptr;
  s["spins"] = {{"successful", successful}, {"total", total}};
  s["jobs"] = job_array;
  s["messages"] = messages;
  s["events"] = events;
  s["time_unit"] = "s";
  s["platform"] = {{"workstations", workstations}, {"latency_s", seconds(platform.latency)}};
  out.extra_files["workstations.csv"] = workstation_csv;
  return out;
}

}  // namespace cosched::now
