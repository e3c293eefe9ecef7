#include "now/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <simgrid/s4u.hpp>

#include "barrier/protocol.hpp"
#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "metrics/timeline.hpp"
#include "metrics/trace.hpp"
#include "now/prepared_run.hpp"
#include "now/sequential_engine.hpp"
#include "now/simgrid_engine.hpp"
#include "platform/engine.hpp"
#include "platform/now_platform.hpp"
#include "sched/local_scheduler_registry.hpp"
#include "workload/now_program.hpp"

namespace cosched::now {

namespace sg4 = simgrid::s4u;

namespace {

double seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
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
    wp.sync_interval = profile.sync_interval;
    wp.imbalance = profile.imbalance;
    wp.processes = profile.processes;
    std::shared_ptr<const wait::NowWaitAlgorithm> algorithm = wait::make_now_wait(profile.wait, wp);
    workload::ProgramSpec program{
        profile.comm_interval,  profile.sync_interval,          profile.imbalance, profile.pattern,
        profile.interval_basis, 2 * latency + 4 * now.overhead, profile.processes};
    std::shared_ptr<const barrier::Protocol> protocol;
    std::shared_ptr<const barrier::KeepAlive> keepalive;
    if (profile.keepalive.enabled())
      keepalive = std::make_shared<barrier::KeepAlive>(profile.keepalive, profile.processes);
    for (int copy = 0; copy < profile.copies; ++copy) {
      // An order-aware tree is built during the run, so each job instance has its own (section 4.4).
      if (!protocol || profile.barrier_notify == barrier::TreeKind::OrderAwareSkewed)
        protocol = barrier::make_protocol(
            profile.barrier_kind, profile.processes,
            {profile.barrier_notify, latency, now.overhead, algorithm->needs_arrival_replies()},
            profile.barrier_arrive);
      jobs.push_back(JobLayout{profile.name, copy, profile.processes, profile.barriers, profile.tickets,
                               profile.placement, protocol, keepalive, algorithm, program,
                               wait::prefetch_lead(profile.wait, wp)});
    }
  }
  return jobs;
}

// The engine, the platform and the jobs as every workstation will see them; throws InputError for what
// only the platform can tell.
PreparedRun prepare_platform(const config::NowConfig& now_config) {
  PreparedRun out;
  out.config = &now_config;
  out.engine = platform::make_engine();
  platform::configure_network_model();
  out.platform = platform::build_now_platform(*out.engine, now_config);
  out.jobs = job_layouts(now_config, out.platform.latency, out.workstations());
  return out;
}

// Everything a run needs before it is driven: the platform, the bookkeeping shared by the workstations
// and one node per workstation with its processes.
PreparedRun prepare_run(const config::Scenario& scenario) {
  const auto& now_config = std::get<config::NowConfig>(scenario.model_config);
  PreparedRun run = prepare_platform(now_config);
  run.scenario_file = scenario.file;
  std::vector<int> sizes;
  for (const auto& job : run.jobs) {
    sizes.push_back(job.processes);
    run.total_barriers += static_cast<std::int64_t>(job.processes) * job.barriers;
  }
  run.tracker = std::make_unique<JobTracker>(sizes);
  const sched::LocalPolicyEntry& policy = sched::local_policy(now_config.policy);
  if (policy.gang_matrix) {
    std::vector<sched::JobId> ids(run.jobs.size());
    for (std::size_t j = 0; j < run.jobs.size(); ++j) ids[j] = static_cast<sched::JobId>(j);
    // The coordinator learns of a completion and tells every workstation: two messages (2L + o). It also
    // exceeds how far a workstation's events can be processed ahead of (L) or behind (o) the clock.
    run.gang = std::make_shared<sched::GangMatrix>(now_config.quantum, ids,
                                                   2 * run.platform.min_latency + now_config.overhead);
    run.tracker->on_job_done([gang = run.gang](int job, Nanos time) { gang->job_finished(job, time); });
  }
  if (now_config.output.records_messages())
    run.messages = std::make_unique<metrics::MessageRecorder>(now_config.output.trace_window);
  for (int w = 0; w < run.workstations(); ++w) {
    NodeParams params{w,
                      now_config.overhead,
                      now_config.context_switch,
                      scenario.seed,
                      now_config.output.records_timeline(),
                      run.messages.get()};
    run.nodes.push_back(
        std::make_unique<Node>(params, policy.make(now_config, run.gang), &run.jobs, run.tracker.get()));
  }
  for (std::size_t j = 0; j < run.jobs.size(); ++j)
    for (int rank = 0; rank < run.jobs[j].processes; ++rank)
      run.nodes[run.jobs[j].workstation_of[rank]]->add_process(static_cast<int>(j), rank);
  return run;
}

// The engine a run uses: the one asked for, or the network's default; throws InputError for one that
// cannot compute the scenario's network.
EngineKind choose_engine(const config::NowConfig& now_config, const RunOptions& options) {
  const bool logp = now_config.network == config::NowNetwork::LogP;
  const EngineKind engine = options.engine.value_or(logp ? EngineKind::Sequential : EngineKind::SimGrid);
  if (engine == EngineKind::Sequential && !logp)
    throw config::InputError(
        "--engine sequential: expected --engine simgrid with platform.network shared (the sequential "
        "engine computes the logp network only)");
  return engine;
}

void drive(PreparedRun& run, EngineKind engine, const RunOptions& options,
           const metrics::ProgressSink& progress) {
  if (engine == EngineKind::Sequential) {
    drive_sequentially(run, progress);
  } else {
    drive_with_actors(run, SimgridEngineOptions{options.lookahead, options.mailbox_per_pair}, progress);
  }
  if (!run.tracker->all_done())
    throw std::logic_error("NOW model: the simulation ended with unfinished jobs");
}

metrics::NowRunRecord make_record(const config::Scenario& scenario, const PreparedRun& run,
                                  EngineKind engine) {
  const auto& jobs = run.jobs;
  const auto& tracker = *run.tracker;
  const auto& platform = run.platform;
  const int workstations = run.workstations();
  metrics::NowRunRecord out;
  out.scenario = scenario.name;
  out.model = scenario.model;
  out.seed = scenario.seed;
  out.engine = engine_name(engine);
  Nanos makespan = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) makespan = std::max(makespan, *tracker.completion(j));
  out.makespan = seconds(makespan);

  struct JobSums {
    TimeBreakdown time;
    WaitCounts waits;
    Diagnostics diagnostics;
    std::vector<BarrierRecord> barriers;  // first arrival, last pass, blocks summed over processes
    std::vector<Nanos> last_arrival;
  };
  std::vector<JobSums> sums(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    sums[j].barriers.assign(jobs[j].barriers, BarrierRecord{});
    sums[j].last_arrival.assign(jobs[j].barriers, -1);
  }
  for (const auto& node : run.nodes) {
    for (const auto& report : node->reports()) {
      auto& sum = sums[report.job];
      sum.time += report.time;
      sum.waits += report.waits;
      sum.diagnostics += report.diagnostics;
      for (std::size_t b = 0; b < report.barriers.size(); ++b) {
        const auto& mine = report.barriers[b];
        auto& all = sum.barriers[b];
        if (all.arrived < 0 || mine.arrived < all.arrived) all.arrived = mine.arrived;
        all.passed = std::max(all.passed, mine.passed);
        sum.last_arrival[b] = std::max(sum.last_arrival[b], mine.arrived);
        all.blocks += mine.blocks;
      }
    }
    out.messages += node->messages_sent();
    out.events += node->events();
    out.workstations.push_back(
        {node->workstation(), platform.workstations[node->workstation()]->get_name(),
         seconds(node->cpu_busy()), makespan > 0 ? static_cast<double>(node->cpu_busy()) / makespan : 0.0,
         seconds(node->cpu_spinning()), node->messages_sent(), node->messages_received()});
  }
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto& sum = sums[j];
    const double n = jobs[j].processes;
    metrics::NowJobRecord job;
    job.name = jobs[j].name;
    job.copy = jobs[j].copy;
    job.completion_time = seconds(*tracker.completion(j));
    job.spins = {sum.waits.barrier_spins_successful, sum.waits.barrier_spins};
    job.time = {seconds(sum.time.compute) / n, seconds(sum.time.communicate) / n,
                seconds(sum.time.synchronize) / n, seconds(sum.time.idle()) / n,
                seconds(sum.time.switching) / n};
    job.idle_detail = {seconds(sum.time.ready) / n, seconds(sum.time.blocked_read) / n,
                       seconds(sum.time.blocked_barrier) / n, seconds(sum.time.finished) / n};
    job.read_spins = {sum.waits.read_spins_successful, sum.waits.read_spins};
    job.blocks = sum.waits.blocks;
    // Diagnostics (docs/models/now.md section 7).
    auto mean = [](Nanos total, std::int64_t count) {
      return count > 0 ? std::optional<double>(seconds(total) / static_cast<double>(count)) : std::nullopt;
    };
    static_assert(kPartnerStates == std::tuple_size_v<decltype(job.reads)>);
    for (int st = 0; st < kPartnerStates; ++st) {
      const auto& r = sum.diagnostics.reads[st];
      job.reads[st] = {r.count, mean(r.time, r.count)};
    }
    job.wake_to_dispatch = {sum.diagnostics.wakes,
                            mean(sum.diagnostics.wake_to_dispatch, sum.diagnostics.wakes)};
    job.wakeups_sent = sum.diagnostics.wakeups_sent;
    for (int st = 0; st < kPartnerStates; ++st)
      job.wakeups_received[st] = sum.diagnostics.wakeups_received[st];
    job.arrival_replies = sum.diagnostics.arrival_replies;
    job.keepalives = {sum.diagnostics.keepalive_rounds, sum.diagnostics.keepalives_sent,
                      sum.diagnostics.keepalives_handled};
    Nanos lengths = 0;
    std::int64_t barrier_blocks = 0;
    for (std::size_t b = 0; b < sum.barriers.size(); ++b) {
      const auto& rec = sum.barriers[b];
      lengths += rec.passed - rec.arrived;
      barrier_blocks += rec.blocks;
      out.barriers.push_back({jobs[j].name, jobs[j].copy, static_cast<int>(b), seconds(rec.arrived),
                              seconds(sum.last_arrival[b]), seconds(rec.passed),
                              seconds(rec.passed - rec.arrived), rec.blocks});
    }
    const auto count = static_cast<std::int64_t>(sum.barriers.size());
    job.barrier_mean_length_s = mean(lengths, count);
    if (count > 0) job.blocks_per_barrier = static_cast<double>(barrier_blocks) / count;
    out.jobs.push_back(std::move(job));
  }
  out.platform = {workstations, seconds(platform.latency)};
  return out;
}

}  // namespace

void check_platform(const config::Scenario& scenario) {
  prepare_platform(std::get<config::NowConfig>(scenario.model_config));
}

const char* engine_name(EngineKind engine) {
  return engine == EngineKind::Sequential ? "sequential" : "simgrid";
}

metrics::NowRunRecord run(const config::Scenario& scenario, const metrics::RunHooks& hooks,
                          const RunOptions& options) {
  const EngineKind engine = choose_engine(std::get<config::NowConfig>(scenario.model_config), options);
  PreparedRun prepared = prepare_run(scenario);
  if (hooks.started) hooks.started();
  drive(prepared, engine, options, hooks.progress);
  const auto& output = prepared.config->output;
  if (output.timeline && hooks.extra_file)
    hooks.extra_file(metrics::kTimelineFile, timeline_csv(prepared.nodes));
  if (output.traces() && hooks.extra_file) {
    metrics::TraceMessages messages;
    if (prepared.messages) messages = {prepared.messages->messages(), Node::message_kinds()};
    for (auto& [name, content] :
         metrics::trace_files(output, timeline_lanes(prepared.nodes), Node::timeline_states(),
                              {"workstation", 1e9, "ns"}, messages))
      hooks.extra_file(name, std::move(content));
  }
  return make_record(scenario, prepared, engine);
}

}  // namespace cosched::now
