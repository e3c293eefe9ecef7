#include "now/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <simgrid/s4u.hpp>

#include "barrier/protocol.hpp"
#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "metrics/timeline.hpp"
#include "metrics/trace.hpp"
#include "now/prepared_run.hpp"
#include "now/sequential_engine.hpp"
#include "now/simgrid_engine.hpp"
#include "now/stream.hpp"
#include "platform/engine.hpp"
#include "platform/now_platform.hpp"
#include "sched/jobs/job_scheduler_registry.hpp"
#include "sched/now/gang.hpp"
#include "sched/now/local_scheduler_registry.hpp"
#include "wait/now/fixed_wait.hpp"
#include "workload/now_program.hpp"
#include "workload/swf.hpp"

namespace cosched::now {

namespace sg4 = simgrid::s4u;

namespace {

double seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

// The parts of a job's layout that come from its profile alone: the waiting algorithm, the program and the
// keep-alives (shared by the copies of a closed workload's profile), and a barrier protocol.
struct ProfileLayout {
  std::shared_ptr<const wait::NowWaitAlgorithm> algorithm;
  workload::ProgramSpec program;
  std::shared_ptr<const barrier::KeepAlive> keepalive;
  Nanos prefetch_lead = -1;
};

ProfileLayout profile_layout(const config::NowJobProfile& profile, const config::NowConfig& now,
                             Nanos latency) {
  wait::WaitPlatform wp{latency, now.overhead, now.context_switch(),
                        static_cast<Nanos>(std::llround(workload::imbalance_spread(profile.imbalance) *
                                                        static_cast<double>(profile.sync_interval)))};
  wp.sync_interval = profile.sync_interval;
  wp.imbalance = profile.imbalance;
  wp.processes = profile.processes;
  ProfileLayout out;
  out.algorithm = wait::make_now_wait(profile.wait, wp);
  out.program = {profile.comm_interval,  profile.sync_interval,          profile.imbalance, profile.pattern,
                 profile.interval_basis, 2 * latency + 4 * now.overhead, profile.processes};
  if (profile.keepalive.enabled())
    out.keepalive = std::make_shared<barrier::KeepAlive>(profile.keepalive, profile.processes);
  out.prefetch_lead = wait::prefetch_lead(profile.wait, wp);
  return out;
}

std::shared_ptr<const barrier::Protocol> make_job_protocol(const config::NowJobProfile& profile,
                                                           const config::NowConfig& now, Nanos latency,
                                                           const ProfileLayout& parts) {
  return barrier::make_protocol(
      profile.barrier_kind, profile.processes,
      {profile.barrier_notify, latency, now.overhead, parts.algorithm->needs_arrival_replies()},
      profile.barrier_arrive);
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
    const ProfileLayout parts = profile_layout(profile, now, latency);
    std::shared_ptr<const barrier::Protocol> protocol;
    for (int copy = 0; copy < profile.copies; ++copy) {
      // An order-aware tree is built during the run, so each job instance has its own (section 4.4).
      if (!protocol || profile.barrier_notify == barrier::TreeKind::OrderAwareSkewed)
        protocol = make_job_protocol(profile, now, latency, parts);
      jobs.push_back(JobLayout{profile.name, copy, profile.processes, profile.barriers, profile.tickets,
                               profile.nice, profile.placement, protocol, parts.keepalive, parts.algorithm,
                               parts.program, parts.prefetch_lead});
    }
  }
  return jobs;
}

// An open workload's jobs as every workstation will see them, their workstations left to the job
// scheduler (now/stream.hpp).
std::vector<JobLayout> stream_layouts(const StreamBuild& build, const config::NowConfig& now, Nanos latency) {
  std::vector<JobLayout> jobs;
  jobs.reserve(build.jobs.size());
  for (const auto& spec : build.jobs) {
    const auto& profile = spec.profile;
    const ProfileLayout parts = profile_layout(profile, now, latency);
    jobs.push_back(JobLayout{profile.name,
                             0,
                             profile.processes,
                             profile.barriers,
                             profile.tickets,
                             profile.nice,
                             {},
                             make_job_protocol(profile, now, latency, parts),
                             parts.keepalive,
                             parts.algorithm,
                             parts.program,
                             parts.prefetch_lead});
  }
  return jobs;
}

// The stream of an open workload: the SWF file (read again: the scenario's loader checked it) through
// build_stream, for the platform's workstations and the run's seed.
StreamBuild read_stream(const config::Scenario& scenario, int workstations) {
  const auto& now = std::get<config::NowConfig>(scenario.model_config);
  try {
    return build_stream(workload::read_swf(now.stream->swf), now, workstations, scenario.seed);
  } catch (const workload::SwfError& e) {
    throw config::InputError(e.what());
  }
}

// What of the noise sources only the platform can tell (a platform file's workstations): the workstations
// they name exist, and a phase file has a phase for each.
void check_noise(const config::NowConfig& now, int workstations) {
  for (const auto& source : now.noise) {
    if (!source.workstations.empty() && source.workstations.back() >= workstations)
      throw config::InputError(fmt::format("{}: expected workstations below {} (the hosts of {}), got {}",
                                           source.workstations_origin, workstations, now.platform_file,
                                           source.workstations.back()));
    const std::size_t needed =
        source.workstations.empty() ? static_cast<std::size_t>(workstations) : source.workstations.size();
    if (source.phase == workload::NoisePhase::File && source.phases.size() < needed)
      throw config::InputError(
          fmt::format("{}: the phase file {} has {} phases, expected one per workstation "
                      "the source applies to ({})",
                      source.workstations_origin, source.phase_file, source.phases.size(), needed));
  }
}

// The engine, the platform and the jobs as every workstation will see them; throws InputError for what
// only the platform can tell.
PreparedRun prepare_platform(const config::NowConfig& now_config) {
  PreparedRun out;
  out.config = &now_config;
  out.engine = platform::make_engine();
  platform::configure_network_model();
  out.platform = platform::build_now_platform(*out.engine, now_config);
  if (!now_config.stream) out.jobs = job_layouts(now_config, out.platform.latency, out.workstations());
  check_noise(now_config, out.workstations());
  return out;
}

// The completion bookkeeping of the run's jobs, and the process-barriers its progress counts.
void add_tracker(PreparedRun& run) {
  std::vector<int> sizes;
  for (const auto& job : run.jobs) {
    sizes.push_back(job.processes);
    run.total_barriers += static_cast<std::int64_t>(job.processes) * job.barriers;
  }
  run.tracker = std::make_unique<JobTracker>(sizes);
}

// The message recorder (when traced) and one node per workstation with the run's local scheduler (after
// the tracker and the gang matrix, which the nodes point to).
void add_nodes(PreparedRun& run, const config::Scenario& scenario, const sched::LocalSchedulerEntry& policy) {
  const auto& now_config = *run.config;
  // Section 8.2: a daemon computes its events' work and blocks; it has the default share of a process
  // (100 tickets, nice 0) and never waits for a message.
  if (std::any_of(now_config.noise.begin(), now_config.noise.end(), [](const auto& s) { return s.daemon; })) {
    run.daemon = std::make_unique<JobLayout>();
    run.daemon->name = "daemon";
    run.daemon->processes = 1;
    run.daemon->wait = std::make_shared<wait::FixedWait>(wait::FixedWait::block());
  }
  if (now_config.output.records_messages())
    run.messages = std::make_unique<metrics::MessageRecorder>(now_config.output.trace_window);
  for (int w = 0; w < run.workstations(); ++w) {
    NodeParams params{w,
                      now_config.overhead,
                      now_config.context_switch(),
                      scenario.seed,
                      now_config.output.records_timeline(),
                      run.messages.get(),
                      &now_config.noise,
                      run.daemon.get(),
                      run.strobe.interval,
                      run.strobe.exchange};
    run.nodes.push_back(std::make_unique<Node>(params, policy.make(*now_config.scheduler.params, run.gang),
                                               &run.jobs, run.tracker.get()));
  }
}

// An open workload's run (docs/models/now-streams.md section 5): the stream's jobs, its job scheduler at the
// coordinator, and one node per workstation with no process yet. Under the gang job scheduler every
// workstation runs the gang local scheduler over the matrix of the stream's rows, under slurm-gang over the
// jobs it has running (scheduler.policy gang, which the loader pairs with both); otherwise the scenario's
// local scheduler.
void prepare_stream(PreparedRun& run, const config::Scenario& scenario) {
  const auto& now_config = *run.config;
  const int workstations = run.workstations();
  StreamBuild build = read_stream(scenario, workstations);
  run.jobs = stream_layouts(build, now_config, run.platform.latency);
  add_tracker(run);
  const auto& js_config = *now_config.job_scheduler;
  const sched::JobSchedulerEntry& entry = sched::job_schedulers().at(js_config.name);
  const sched::LocalSchedulerEntry& policy = sched::local_schedulers().at(now_config.scheduler.name);
  if (entry.gang_rows)
    run.gang = std::make_shared<sched::GangMatrix>(now_config.scheduler_params().quantum(),
                                                   sched::GangMatrix::Rows{now_config.mpl()});
  if (entry.suspends) run.gang = std::make_shared<sched::GangMatrix>(sched::GangMatrix::Suspensions{});
  if (entry.configure_matrix) entry.configure_matrix(*js_config.params, *run.gang);
  // Paired gang's workstations share each slot's measurements as it ends, and the pairing of a slot uses
  // those of the slot before the last one: a slot must exceed how far one workstation's events may be
  // processed ahead of (L) or behind (o) another's (docs/models/now-streams.md 3.8).
  if (entry.shares_slot_reports && run.gang->quantum() <= run.platform.min_latency + now_config.overhead)
    throw config::InputError(fmt::format(
        "{}: scheduler.quantum: expected a gang slot longer than the platform's smallest latency plus the "
        "overhead ({} ns) under job_scheduler.policy paired-gang, got {} ns",
        run.scenario_file, run.platform.min_latency + now_config.overhead, run.gang->quantum()));
  if (entry.strobe) run.strobe = entry.strobe(*js_config.params, now_config.scheduler_params().quantum());
  // Section 5.3: the finish message to the coordinator (o + L + o) and the start message (L + o).
  const Nanos latency = run.platform.min_latency;
  const StreamTiming timing{latency + 2 * now_config.overhead, latency + now_config.overhead};
  run.stream =
      std::make_unique<Stream>(std::move(build), entry.make(*js_config.params, workstations), timing,
                               workstations, entry.dedicated ? 1 : now_config.mpl(), &run.jobs, run.gang);
  run.tracker->on_job_done(
      [stream = run.stream.get()](int job, Nanos time) { stream->job_finished(job, time); });
  add_nodes(run, scenario, policy);
}

void add_closed_workload(PreparedRun& run, const config::Scenario& scenario);

// Everything a run needs before it is driven: the platform, the bookkeeping shared by the workstations
// and one node per workstation with its processes.
PreparedRun prepare_run(const config::Scenario& scenario) {
  const auto& now_config = std::get<config::NowConfig>(scenario.model_config);
  PreparedRun run = prepare_platform(now_config);
  run.scenario_file = scenario.file;
  if (now_config.stream) {
    prepare_stream(run, scenario);
    return run;
  }
  add_closed_workload(run, scenario);
  return run;
}

// A closed workload's bookkeeping, gang matrix and nodes with their processes, on `run`'s platform and jobs.
void add_closed_workload(PreparedRun& run, const config::Scenario& scenario) {
  const auto& now_config = *run.config;
  add_tracker(run);
  const sched::LocalSchedulerEntry& policy = sched::local_schedulers().at(now_config.scheduler.name);
  if (policy.gang_matrix) {
    std::vector<sched::JobId> ids(run.jobs.size());
    for (std::size_t j = 0; j < run.jobs.size(); ++j) ids[j] = static_cast<sched::JobId>(j);
    // The coordinator learns of a completion and tells every workstation: two messages (2L + o). It also
    // exceeds how far a workstation's events can be processed ahead of (L) or behind (o) the clock.
    run.gang = std::make_shared<sched::GangMatrix>(now_config.scheduler_params().quantum(), ids,
                                                   2 * run.platform.min_latency + now_config.overhead);
    run.tracker->on_job_done([gang = run.gang](int job, Nanos time) { gang->job_finished(job, time); });
  }
  add_nodes(run, scenario, policy);
  for (std::size_t j = 0; j < run.jobs.size(); ++j)
    for (int rank = 0; rank < run.jobs[j].processes; ++rank)
      run.nodes[run.jobs[j].workstation_of[rank]]->add_process(static_cast<int>(j), rank);
}

Nanos makespan_of(const PreparedRun& run) {
  Nanos makespan = 0;
  for (std::size_t j = 0; j < run.jobs.size(); ++j)
    makespan = std::max(makespan, *run.tracker->completion(j));
  return makespan;
}

// The makespan of `scenario` without its noise (docs/models/now.md section 8.4): the same jobs, seeds and
// platform, stepped by the sequential engine outside SimGrid (whose engine has run). Under the shared
// network, which only the simgrid engine computes, there is none.
std::optional<Nanos> baseline_makespan(const config::Scenario& scenario, const PreparedRun& noisy) {
  const auto& now_config = std::get<config::NowConfig>(scenario.model_config);
  if (now_config.network != config::NowNetwork::LogP) return std::nullopt;
  config::Scenario quiet = scenario;
  auto& quiet_now = std::get<config::NowConfig>(quiet.model_config);
  quiet_now.noise.clear();
  quiet_now.output = {};
  PreparedRun run;
  run.config = &quiet_now;
  run.scenario_file = scenario.file;
  run.platform = noisy.platform;
  run.jobs = job_layouts(quiet_now, run.platform.latency, run.workstations());
  add_closed_workload(run, quiet);
  drive_without_clock(run);
  if (!run.tracker->all_done()) throw std::logic_error("NOW model: the baseline ended with unfinished jobs");
  return makespan_of(run);
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

const config::NowConfig& scenario_now(const config::Scenario& scenario) {
  return std::get<config::NowConfig>(scenario.model_config);
}

// The nearest-rank percentile (the smallest value with at least p% of the values at or below it) of
// sorted values.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// An open workload's per-job and per-run figures (docs/models/now-streams.md section 6). Bounded slowdown
// after Feitelson, Rudolph, Schwiegelshohn, Sevcik and Wong 1997 ("Theory and practice in parallel job
// scheduling", section 6.2): response / max(run time, threshold), at least 1, the threshold scaled with the
// run times so that it keeps its meaning (10 s of a trace stays 10 s x time_scale).
void stream_record(metrics::NowRunRecord& out, const PreparedRun& run, const config::NowStream& config) {
  const Stream& stream = *run.stream;
  const StreamBuild& build = stream.build();
  const double threshold = config.bounded_slowdown_threshold * config.time_scale;
  metrics::NowStreamRecord summary;
  std::vector<double> responses, slowdowns;
  double busy = 0, waits = 0;
  for (std::size_t j = 0; j < build.jobs.size(); ++j) {
    const StreamJobSpec& spec = build.jobs[j];
    metrics::NowStreamJobRecord job;
    job.submit = seconds(spec.job.submit);
    job.start = seconds(stream.start_time(static_cast<int>(j)));
    job.end = seconds(*run.tracker->completion(j));
    job.wait = job.start - job.submit;
    job.response = job.end - job.submit;
    job.run_time = seconds(spec.run_time);
    job.slowdown = job.run_time > 0 ? job.response / job.run_time : 0;
    job.bounded_slowdown = std::max(1.0, job.response / std::max(job.run_time, threshold));
    job.processors = spec.job.processes;
    job.job_class = spec.job_class;
    job.workstations = stream.workstations_of(static_cast<int>(j));
    job.swf_number = spec.swf_number;
    busy += job.run_time * job.processors;
    waits += job.wait;
    responses.push_back(job.response);
    slowdowns.push_back(job.bounded_slowdown);
    out.jobs[j].stream = std::move(job);
  }
  const double n = static_cast<double>(build.jobs.size());
  summary.jobs = static_cast<std::int64_t>(build.jobs.size());
  summary.skipped_unusable = build.skipped_unusable;
  summary.skipped_too_large = build.skipped_too_large;
  summary.utilization = out.makespan > 0 ? busy / (run.workstations() * out.makespan) : 0;
  summary.throughput = out.makespan > 0 ? n / out.makespan : 0;
  summary.mean_wait = waits / n;
  for (double r : responses) summary.mean_response += r / n;
  for (double b : slowdowns) summary.mean_bounded_slowdown += b / n;
  std::sort(responses.begin(), responses.end());
  std::sort(slowdowns.begin(), slowdowns.end());
  const double ps[] = {50, 90, 99};
  for (int i = 0; i < 3; ++i) {
    summary.response_percentiles[i] = percentile(responses, ps[i]);
    summary.bounded_slowdown_percentiles[i] = percentile(slowdowns, ps[i]);
  }
  summary.offered_load = build.offered_load;
  summary.arrival_scale = build.arrival_scale;
  summary.time_scale = config.time_scale;
  summary.bounded_slowdown_threshold_s = threshold;
  summary.job_scheduler = run.config->job_scheduler->name;
  summary.mpl = run.config->mpl();
  out.stream = std::move(summary);
}

const char* fcs_class_name(sched::FcsClass cls) {
  switch (cls) {
    case sched::FcsClass::CS:
      return "CS";
    case sched::FcsClass::F:
      return "F";
    case sched::FcsClass::DC:
      return "DC";
  }
  return "?";
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
  const Nanos makespan = makespan_of(run);
  out.makespan = seconds(makespan);

  struct JobSums {
    TimeBreakdown time;
    WaitCounts waits;
    Diagnostics diagnostics;
    std::array<int, 3> classes{};  // fcs: processes ending in CS, F, DC
    std::int64_t reclassifications = 0;
  };
  std::vector<JobSums> sums(jobs.size());
  const bool fcs = run.gang && run.gang->flexible();
  if (fcs) out.class_changes.emplace();
  for (const auto& node : run.nodes) {
    for (const auto& report : node->reports()) {
      auto& sum = sums[report.job];
      sum.time += report.time;
      sum.waits += report.waits;
      sum.diagnostics += report.diagnostics;
      if (report.fcs) {
        ++sum.classes[static_cast<std::size_t>(report.fcs->cls)];
        sum.reclassifications += report.fcs->reclassifications;
      }
    }
    if (fcs)
      for (const auto& change : node->class_changes())
        out.class_changes->push_back({seconds(change.time), jobs[change.job].name, change.rank,
                                      node->workstation(), fcs_class_name(change.cls)});
    out.messages += node->messages_sent();
    out.events += node->events();
    out.workstations.push_back(
        {node->workstation(), platform.workstations[node->workstation()]->get_name(),
         seconds(node->cpu_busy()), makespan > 0 ? static_cast<double>(node->cpu_busy()) / makespan : 0.0,
         seconds(node->cpu_spinning()), node->messages_sent(), node->messages_received(), std::nullopt});
    if (!scenario_now(scenario).noise.empty()) out.workstations.back().noise_s = seconds(node->noise_time());
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
    const auto& book = tracker.barriers(static_cast<int>(j));
    for (int b = 0; b < jobs[j].barriers; ++b) {
      const BarrierSummary rec = static_cast<std::size_t>(b) < book.size() ? book[b] : BarrierSummary{};
      lengths += rec.last_pass - rec.first_arrival;
      barrier_blocks += rec.blocks;
      out.barriers.push_back({jobs[j].name, jobs[j].copy, b, seconds(rec.first_arrival),
                              seconds(rec.last_arrival), seconds(rec.last_pass),
                              seconds(rec.last_pass - rec.first_arrival), static_cast<int>(rec.blocks)});
    }
    const auto count = static_cast<std::int64_t>(jobs[j].barriers);
    job.barrier_mean_length_s = mean(lengths, count);
    if (count > 0) job.blocks_per_barrier = static_cast<double>(barrier_blocks) / count;
    out.jobs.push_back(std::move(job));
  }
  out.platform = {workstations, seconds(platform.latency)};
  if (run.stream) stream_record(out, run, *scenario_now(scenario).stream);
  if (fcs) {
    // A job's class is the one most of its processes ended in (ties: CS, then F, then DC).
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const auto& classes = sums[j].classes;
      const auto most = std::max_element(classes.begin(), classes.end()) - classes.begin();
      out.jobs[j].stream->fcs_class = fcs_class_name(static_cast<sched::FcsClass>(most));
      out.jobs[j].stream->fcs_reclassifications = sums[j].reclassifications;
    }
    // In time order, then by workstation (each node's changes are in time order).
    std::stable_sort(out.class_changes->begin(), out.class_changes->end(),
                     [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  }
  if (run.gang && run.gang->by_suspensions())
    for (std::size_t j = 0; j < jobs.size(); ++j)
      out.jobs[j].stream->suspensions = run.stream->suspensions(static_cast<int>(j));
  if (run.gang && run.gang->paired()) {
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      out.jobs[j].stream->cpu_utilization = run.gang->utilization(static_cast<sched::JobId>(j));
      out.jobs[j].stream->paired_slots = run.gang->paired_slots(static_cast<sched::JobId>(j));
      out.jobs[j].stream->matrix_row = run.gang->row_of(static_cast<sched::JobId>(j));
    }
    out.pair_changes.emplace();
    for (const auto& change : run.gang->pair_changes())
      out.pair_changes->push_back({seconds(change.time), change.row,
                                   change.partner >= 0 ? std::optional<int>(change.partner) : std::nullopt,
                                   change.utilization, change.partner_utilization});
  }
  return out;
}

// Section 8.4: what the noise took of each workstation (its cost against the baseline comes after,
// add_baseline).
metrics::NowNoiseRecord noise_record(const config::NowConfig& now, const PreparedRun& run) {
  metrics::NowNoiseRecord out;
  out.sources = static_cast<int>(now.noise.size());
  for (const auto& source : now.noise) out.net_configured += source.net_fraction();
  const Nanos makespan = makespan_of(run);
  double detours = 0;
  for (const auto& node : run.nodes) {
    const double share =
        makespan > 0 ? static_cast<double>(node->noise_time()) / static_cast<double>(makespan) : 0;
    out.net_injected_mean += share;
    out.net_injected_max = std::max(out.net_injected_max, share);
    detours += static_cast<double>(node->detours());
  }
  out.net_injected_mean /= static_cast<double>(run.nodes.size());
  if (run.daemon) {
    double work = 0, ran = 0;
    for (const auto& node : run.nodes) {
      work += seconds(node->daemon_work());
      ran += seconds(node->daemon_ran());
    }
    out.daemon_work_s = work / static_cast<double>(run.nodes.size());
    out.daemon_ran_s = ran / static_cast<double>(run.nodes.size());
  }
  out.detours_per_workstation = detours / static_cast<double>(run.nodes.size());
  for (const auto& job : run.jobs) out.iterations = std::max<std::int64_t>(out.iterations, job.barriers);
  return out;
}

// The noise's cost against the run without it (section 8.4), `makespan` being the noisy run's.
void add_baseline(metrics::NowNoiseRecord& out, Nanos makespan, std::optional<Nanos> baseline) {
  if (!baseline) return;
  out.baseline_makespan = seconds(*baseline);
  out.slowdown = *baseline > 0 ? static_cast<double>(makespan) / static_cast<double>(*baseline) : 1.0;
  out.lost_per_iteration =
      seconds(makespan - *baseline) / static_cast<double>(std::max<std::int64_t>(out.iterations, 1));
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
  auto record = make_record(scenario, prepared, engine);
  if (const auto& now = *prepared.config; !now.noise.empty()) {
    record.noise = noise_record(now, prepared);
    // The noisy run's workstations have told all they had to: freed before the baseline builds its own, the
    // run's peak memory is one run's rather than two.
    prepared.nodes.clear();
    add_baseline(*record.noise, makespan_of(prepared), baseline_makespan(scenario, prepared));
  }
  return record;
}

}  // namespace cosched::now
