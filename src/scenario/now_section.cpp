#include "scenario/now_section.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <set>
#include <stdexcept>

#include "barrier/keepalive.hpp"
#include "config/keys.hpp"
#include "config/limits.hpp"
#include "metrics/summary_text.hpp"
#include "now/footprint.hpp"
#include "scenario/models.hpp"
#include "sched/jobs/job_scheduler_registry.hpp"
#include "sched/now/local_scheduler_registry.hpp"
#include "util/registry.hpp"
#include "wait/now/now_wait_registry.hpp"

namespace cosched::config {
namespace {

constexpr int kMaxWorkstations = 100'000;

int bounded_count(const Field& f, int max) {
  auto value = f.positive_integer();
  if (value > max) f.fail(fmt::format("a positive integer up to {}", max));
  return static_cast<int>(value);
}

const Names<Pattern> kPatternNames = {
    {"news", Pattern::News}, {"none", Pattern::None}, {"random", Pattern::Random}};
const Names<IntervalBasis> kBasisNames = {{"compute", IntervalBasis::Compute},
                                          {"dedicated", IntervalBasis::Dedicated}};
const Names<BarrierKind> kBarrierNames = {{"root", BarrierKind::Root}, {"all-to-all", BarrierKind::AllToAll}};
const Names<NowNetwork> kNetworkNames = {{"logp", NowNetwork::LogP}, {"shared", NowNetwork::Shared}};
constexpr const char* kFractionExpected =
    "a fraction of the job's processes in (0, 1], such as 1/4, 3/4, 9/10 or 0.75, or none";

std::optional<barrier::Fraction> read_fraction(const Field& f) {
  const std::string text = f.scalar(kFractionExpected);
  if (text == "none") return std::nullopt;
  barrier::Fraction out;
  if (const auto slash = text.find('/'); slash != std::string::npos) {
    const auto num = parse_integer(std::string_view(text).substr(0, slash));
    const auto den = parse_integer(std::string_view(text).substr(slash + 1));
    if (!num || !den || *num <= 0 || *den <= 0 || *num > *den || *den > 1'000'000) f.fail(kFractionExpected);
    out = {*num, *den};
  } else {
    const auto value = parse_number(text);
    if (!value || !(*value > 0) || *value > 1) f.fail(kFractionExpected);
    // Exact to a millionth: 0.3 is 3/10.
    out = {std::llround(*value * 1e6), 1'000'000};
    if (out.num <= 0) f.fail(kFractionExpected);
  }
  const std::int64_t g = std::gcd(out.num, out.den);
  return barrier::Fraction{out.num / g, out.den / g};
}

std::optional<std::int64_t> read_time(const Field& f, bool allow_zero) {
  if (f.is_scalar() && f.node().as<std::string>() == "none") return std::nullopt;
  return duration(f, allow_zero);
}

// barrier.keepalive of a job profile (`f`: its mapping): the rules it feeds are in barrier/keepalive.hpp.
barrier::KeepAliveSpec read_keepalive(const Field& f) {
  MapReader map(f, "a mapping with start, period, after and targets, such as {start: 3/4}");
  barrier::KeepAliveSpec spec;
  if (auto v = map.optional("start")) spec.start = read_fraction(*v);
  if (auto v = map.optional("period")) {
    spec.period = read_time(*v, false);
    // At least 1us: a round is a timer event at the root, and a barrier may stay open for seconds.
    if (spec.period && *spec.period < 1'000) v->fail("a duration of at least 1us, such as 1ms, or none");
  }
  if (auto v = map.optional("after")) spec.after = read_time(*v, true);
  if (auto v = map.optional("targets")) {
    const std::string text = v->scalar("one of all, not-arrived, arrived");
    if (text == "all") {
      spec.targets = barrier::KeepAliveSpec::Targets::All;
    } else if (text == "not-arrived") {
      spec.targets = barrier::KeepAliveSpec::Targets::NotArrived;
    } else if (text == "arrived") {
      spec.targets = barrier::KeepAliveSpec::Targets::Arrived;
    } else {
      v->fail("one of all, not-arrived, arrived");
    }
  }
  map.finish();
  return spec;
}

// The keys of a job profile after its name, processes and placement (a closed workload's job) or after its
// class keys (an open workload's class, docs/scenario-format.md "Open workloads": `barriers` comes from
// the stream).
void read_profile_keys(MapReader& map, NowJobProfile& job, bool closed);

NowJobProfile read_job(const Field& f, std::size_t index, int workstations, bool takes_nice) {
  MapReader map(f, "a job profile mapping with processes, barriers and wait");
  NowJobProfile job;
  job.name = fmt::format("job{}", index);
  if (auto v = map.optional("name")) job.name = v->string();
  auto processes = map.required("processes");
  job.processes = bounded_count(processes, kMaxWorkstations);
  if (auto v = map.optional("copies")) job.copies = bounded_count(*v, 1'000'000);
  if (auto v = map.optional("placement")) {
    std::set<int> seen;
    for (const auto& item : v->items("a list of workstation indices, one per process")) {
      auto ws = item.non_negative_integer();
      if (workstations > 0 && ws >= workstations)
        item.fail(fmt::format("a workstation index below {} (platform.workstations)", workstations));
      if (!seen.insert(static_cast<int>(ws)).second)
        item.error("two processes of one job on the same workstation");
      job.placement.push_back(static_cast<int>(ws));
      job.placement_origin.push_back(item.location() + ": " + item.path());
    }
    if (static_cast<int>(job.placement.size()) != job.processes)
      v->error(
          fmt::format("has {} entries, expected one per process ({})", job.placement.size(), job.processes));
  } else {
    if (workstations > 0 && job.processes > workstations)
      processes.error(fmt::format("{} processes do not fit on {} workstations (one process per workstation)",
                                  job.processes, workstations));
    for (int p = 0; p < job.processes; ++p) {
      job.placement.push_back(p);
      job.placement_origin.push_back(processes.location() + ": " + processes.path());
    }
  }
  read_profile_keys(map, job, true);
  if (auto v = map.optional("nice")) {
    if (!takes_nice) v->error("applies to scheduler.policy cfs and eevdf only (a Linux task's weight)");
    const auto nice = v->integer();
    if (nice < -20 || nice > 19) v->fail("a nice value from -20 to 19");
    job.nice = static_cast<int>(nice);
  }
  map.finish();
  return job;
}

void read_profile_keys(MapReader& map, NowJobProfile& job, bool closed) {
  if (auto v = map.optional("pattern")) job.pattern = choice(*v, kPatternNames);
  if (auto v = map.optional("comm_interval")) job.comm_interval = duration(*v);
  if (auto v = map.optional("sync_interval")) job.sync_interval = duration(*v);
  if (auto v = map.optional("imbalance")) {
    job.imbalance = v->number();
    if (job.imbalance < 1) v->fail("a load-imbalance factor v >= 1");
  }
  if (closed) job.barriers = bounded_count(map.required("barriers"), limits::kMaxBarriers);
  if (auto v = map.optional("interval_basis")) job.interval_basis = choice(*v, kBasisNames);
  if (auto v = map.optional("barrier")) {
    MapReader barrier(*v, "a mapping such as {kind: root}");
    if (auto kind = barrier.optional("kind")) job.barrier_kind = choice(*kind, kBarrierNames);
    if (auto notify = barrier.optional("notify")) {
      // One registry entry per tree kind (src/barrier/tree_kind.hpp).
      const std::string expected = "one of " + cosched::barrier::tree_kind_names();
      const auto tree = cosched::barrier::tree_kind_named(notify->scalar(expected));
      if (!tree) notify->fail(expected);
      if (job.barrier_kind != BarrierKind::Root)
        notify->error("only kind root sends completion notices; all-to-all takes no 'notify'");
      job.barrier_notify = *tree;
    }
    if (auto arrive = barrier.optional("arrive")) {
      // The registration tree (docs/models/now.md section 4.5): the notification kinds but order-aware.
      const std::string expected = "one of flat, binary, binomial, skewed";
      const auto tree = cosched::barrier::tree_kind_named(arrive->scalar(expected));
      if (!tree || *tree == cosched::barrier::TreeKind::OrderAwareSkewed) arrive->fail(expected);
      if (job.barrier_kind != BarrierKind::Root)
        arrive->error("only kind root gathers arrivals in a tree; all-to-all takes no 'arrive'");
      if (*tree != cosched::barrier::TreeKind::Flat &&
          job.barrier_notify == cosched::barrier::TreeKind::OrderAwareSkewed)
        arrive->error("notify: order-aware-skewed needs every arrival at the root (arrive: flat)");
      job.barrier_arrive = *tree;
    }
    if (auto keepalive = barrier.optional("keepalive")) {
      if (job.barrier_kind != BarrierKind::Root)
        keepalive->error("only kind root has a root to send keep-alives; all-to-all takes no 'keepalive'");
      // B&M 3.4 counts registrations as they reach the root; a registration tree brings it whole subtrees.
      if (job.barrier_arrive != cosched::barrier::TreeKind::Flat)
        keepalive->error(
            fmt::format("keep-alives count every arrival at the root: barrier arrive flat, not {}",
                        cosched::barrier::tree_kind_name(job.barrier_arrive)));
      job.keepalive = read_keepalive(*keepalive);
    }
    barrier.finish();
  }
  const auto wait_field = map.required("wait");
  job.wait = wait::read_now_wait(wait_field);
  // What the wait needs of the pattern and the barrier (docs/models/now.md sections 5.2 and 5.3).
  const bool root_replies = wait::now_waits().at(job.wait.name).root_replies;
  if (job.wait.as<NowWaitParams>().prefetch && job.pattern == Pattern::Random)
    wait_field.child(wait_field.node()["prefetch"], "prefetch")
        .error("a process can predict its next read's partner only under pattern news (pattern is random)");
  if (root_replies && job.barrier_kind != BarrierKind::Root)
    wait_field.child(wait_field.node()["algorithm"], "algorithm")
        .error(fmt::format("{} needs the root's replies to arrivals: barrier kind root, not all-to-all",
                           job.wait.name));
  if (root_replies && job.barrier_arrive != cosched::barrier::TreeKind::Flat)
    wait_field.child(wait_field.node()["algorithm"], "algorithm")
        .error(fmt::format("{} needs the root's replies to every arrival: barrier arrive flat, not {}",
                           job.wait.name, cosched::barrier::tree_kind_name(job.barrier_arrive)));
  if (auto v = map.optional("tickets")) job.tickets = bounded_count(*v, 1'000'000);
}

}  // namespace

NowJobClass read_now_job_class(const Field& f, std::size_t index) {
  MapReader map(f, "a job class mapping with name, pattern, intervals and wait");
  NowJobClass out;
  out.name = fmt::format("class{}", index);
  if (auto v = map.optional("name")) out.name = v->string();
  if (auto v = map.optional("weight")) {
    out.weight = v->number();
    if (!(out.weight > 0) || !std::isfinite(out.weight)) v->fail("a positive weight");
  }
  auto min = map.optional("min_processes");
  if (min) out.min_processes = bounded_count(*min, kMaxWorkstations);
  if (auto v = map.optional("max_processes")) {
    out.max_processes = bounded_count(*v, kMaxWorkstations);
    if (out.min_processes && *out.max_processes < *out.min_processes)
      v->fail(fmt::format("at least min_processes ({})", *out.min_processes));
  }
  // What the stream decides for each job, named so that a closed workload's habit gets a clear answer.
  for (const char* key : {"processes", "barriers", "placement", "copies"})
    if (auto v = map.optional(key))
      v->error(fmt::format("a job class takes no '{}': each job of the stream brings its own", key));
  out.profile.name = out.name;
  read_profile_keys(map, out.profile, false);
  map.finish();
  return out;
}

NowConfig read_now(MapReader& top, const std::string& scenario_dir, CalibratedCosts* calibration) {
  NowConfig now;
  {
    MapReader platform(top.required("platform"), "a mapping with 'workstations' or 'file'");
    auto workstations = platform.optional("workstations");
    auto file = platform.optional("file");
    auto latency = platform.optional("latency");
    auto bandwidth = platform.optional("bandwidth");
    // A positive overhead keeps every send strictly after the event that starts it (docs/models/now.md).
    if (auto v = platform.optional("overhead")) now.overhead = duration(*v);
    if (auto v = platform.optional("network")) now.network = choice(*v, kNetworkNames);
    if (workstations && file) file->error("give either 'workstations' or 'file', not both");
    if (!workstations && !file) platform.field().error("missing required key 'workstations' (or 'file')");
    if (file) {
      for (auto* key : {&latency, &bandwidth})
        if (*key) (*key)->error("comes from the platform file when 'file' is given");
      now.platform_file = resolve_platform_file(*file, scenario_dir);
    } else {
      now.workstations = bounded_count(*workstations, kMaxWorkstations);
      if (latency) now.latency = duration(*latency, true);
      if (bandwidth) {
        auto value = parse_bandwidth_bytes_per_second(bandwidth->scalar("a bandwidth such as 1Gbps"));
        // At least 1 kbps: slower links would take SimGrid's flow model longer than its precision allows.
        if (!value || *value < 125 || *value > 1e15)
          bandwidth->fail(
              "a bandwidth with a unit, such as 1Gbps, 100Mbps or 125MBps (from 1kbps to 1000000GBps)");
        now.bandwidth_bytes_per_second = *value;
      }
    }
    platform.finish();
  }
  {
    MapReader scheduler(top.required("scheduler"), "a mapping with 'policy'");
    auto read = sched::local_schedulers().read(scheduler);
    // Every policy takes context_switch (B&M 3.1's W); a calibration's kernel switch replaces the 100us
    // default, not a written value (docs/calibration.md, section 6).
    auto& params = static_cast<LocalSchedulerParams&>(*read.params);
    if (calibration)
      params.context_switch = calibration->resolve(
          "scheduler.context_switch",
          scheduler.has("context_switch") ? std::optional(params.context_switch) : std::nullopt,
          *calibration->now_context_switch);
    now.scheduler = std::move(read).choice();
    scheduler.finish();
  }
  const auto workload_field = top.required("workload");
  NowStreamSize stream_size;
  {
    MapReader workload(workload_field, "a mapping with 'jobs' or 'stream'");
    auto jobs = workload.optional("jobs");
    auto stream = workload.optional("stream");
    // A closed workload (jobs, all started at time 0) or an open one (a stream of batch jobs, issue 24).
    if (jobs && stream) stream->error("give either 'jobs' or 'stream', not both");
    if (!jobs && !stream) workload.field().error("missing required key 'jobs' (or 'stream')");
    if (jobs) {
      auto items = jobs->items("a list of parallel job profiles");
      if (items.empty()) jobs->error("at least one parallel job is needed");
      const bool takes_nice = sched::local_schedulers().at(now.scheduler.name).nice;
      for (std::size_t i = 0; i < items.size(); ++i)
        now.jobs.push_back(read_job(items[i], i, now.workstations, takes_nice));
    } else {
      now.stream = read_now_stream(*stream, scenario_dir, now.workstations, stream_size);
    }
    workload.finish();
  }
  if (auto f = top.optional("job_scheduler")) {
    if (!now.stream) f->error("applies to an open workload only (workload.stream), not to workload.jobs");
    now.job_scheduler = read_job_scheduler(*f);
    // Gang scheduling's slots come from the local scheduler gang and its matrix of the stream's rows, and
    // slurm-gang's suspensions from the same scheduler over the jobs it has running; the other job
    // schedulers leave the workstations to a time-sharing local scheduler.
    const auto& entry = sched::job_schedulers().at(now.job_scheduler->name);
    const Field scheduler = top.field().child(top.field().node()["scheduler"], "scheduler");
    if (entry.needs_gang() != sched::local_schedulers().at(now.scheduler.name).gang_matrix) {
      const Field at = scheduler.child(scheduler.node()["policy"], "policy");
      if (entry.needs_gang())
        at.error(fmt::format("job_scheduler.policy {} needs scheduler.policy gang ({}), got \"{}\"",
                             now.job_scheduler->name,
                             entry.gang_rows ? "its slots are scheduler.quantum"
                                             : "its workstations run the jobs it has not suspended",
                             now.scheduler.name));
      std::vector<std::string_view> gang_policies;
      for (const auto* e : sched::job_schedulers().entries())
        if (e->needs_gang()) gang_policies.push_back(e->spec.name);
      at.error(
          fmt::format("scheduler.policy gang needs job_scheduler.policy {} in an open workload, got \"{}\"",
                      util::join_list(gang_policies, " or "), now.job_scheduler->name));
    }
    // Paired gang's pairing uses reports a slot old: a slot must exceed the engines' lookahead L plus o
    // (docs/models/now-streams.md 3.8). A platform file's latencies are checked as the run is prepared.
    const Nanos slot = now.scheduler_params().quantum();
    if (entry.shares_slot_reports && now.platform_file.empty() && slot <= now.latency + now.overhead) {
      const auto quantum = scheduler.node()["quantum"];
      (quantum ? scheduler.child(quantum, "quantum") : scheduler)
          .error(fmt::format("job_scheduler.policy {} needs a gang slot (scheduler.quantum) longer than "
                             "platform.latency plus platform.overhead ({} ns), got {} ns",
                             now.job_scheduler->name, now.latency + now.overhead, slot));
    }
    // Buffered coscheduling: each strobe's total exchange ends before the next strobe (the exchanges would
    // overlap), the strobe interval being the gang slot unless job_scheduler.strobe says otherwise.
    if (entry.strobe) {
      const sched::MessageStrobe strobe = entry.strobe(*now.job_scheduler->params, slot);
      if (strobe.exchange >= strobe.interval)
        f->child(f->node()["exchange"], "exchange")
            .fail(fmt::format("a duration shorter than the strobe interval ({:g} s; each total exchange ends "
                              "before the next strobe)",
                              static_cast<double>(strobe.interval) * 1e-9));
    }
    // slurm-gang has no slots: its time slice is its own key, and a gang slot would do nothing.
    if (entry.suspends && scheduler.node()["quantum"])
      scheduler.child(scheduler.node()["quantum"], "quantum")
          .error(fmt::format("does not apply under job_scheduler.policy {} (its time slice is "
                             "job_scheduler.time_slice)",
                             now.job_scheduler->name));
  } else if (now.stream) {
    workload_field.child(workload_field.node()["stream"], "stream")
        .error("an open workload needs a top-level 'job_scheduler' (one of " +
               sched::job_schedulers().names() + ")");
  }
  if (auto f = top.optional("noise")) {
    if (now.stream) f->error("applies to a closed workload (workload.jobs) only, not to workload.stream");
    now.noise = read_now_noise(*f, scenario_dir, now.workstations);
  }
  now.output = read_output(top, WindowUnit::Duration);
  if (now.stream)
    now::check_stream_trace(now, stream_size.process_seconds, stream_size.run_seconds, top.field());
  return now;
}

nlohmann::ordered_json now_json(const NowConfig& now) {
  auto seconds = [](Nanos ns) { return static_cast<double>(ns) * 1e-9; };
  nlohmann::ordered_json out;
  auto& platform = out["platform"];
  platform["workstations"] = now.workstations;
  if (!now.platform_file.empty()) platform["file"] = now.platform_file;
  if (now.platform_file.empty()) {  // with a file, they are the file's (summary.json "platform")
    platform["latency_s"] = seconds(now.latency);
    platform["bandwidth_bytes_per_s"] = now.bandwidth_bytes_per_second;
  }
  platform["overhead_s"] = seconds(now.overhead);
  platform["network"] = name_of(kNetworkNames, now.network);
  auto& scheduler = out["scheduler"];
  sched::local_schedulers().to_json(now.scheduler, scheduler);
  if (now.stream) {
    out["workload"]["stream"] = now_stream_json(*now.stream);
    sched::job_schedulers().to_json(*now.job_scheduler, out["job_scheduler"]);
    return out;
  }
  auto& jobs = out["workload"]["jobs"] = nlohmann::ordered_json::array();
  const bool takes_nice = sched::local_schedulers().at(now.scheduler.name).nice;
  for (const auto& job : now.jobs) {
    jobs.push_back(now_profile_json(job));
    if (takes_nice) jobs.back()["nice"] = job.nice;
  }
  if (!now.noise.empty()) out["noise"] = now_noise_json(now.noise);
  return out;
}

nlohmann::ordered_json now_profile_json(const NowJobProfile& job) {
  auto seconds = [](Nanos ns) { return static_cast<double>(ns) * 1e-9; };
  {
    nlohmann::ordered_json j;
    j["name"] = job.name;
    j["processes"] = job.processes;
    j["copies"] = job.copies;
    j["placement"] = job.placement;
    j["pattern"] = name_of(kPatternNames, job.pattern);
    j["comm_interval_s"] = seconds(job.comm_interval);
    j["sync_interval_s"] = seconds(job.sync_interval);
    j["imbalance"] = job.imbalance;
    j["barriers"] = job.barriers;
    j["interval_basis"] = name_of(kBasisNames, job.interval_basis);
    j["barrier"]["kind"] = name_of(kBarrierNames, job.barrier_kind);
    if (job.barrier_kind == BarrierKind::Root)
      j["barrier"]["notify"] = barrier::tree_kind_name(job.barrier_notify);
    if (job.barrier_kind == BarrierKind::Root)
      j["barrier"]["arrive"] = barrier::tree_kind_name(job.barrier_arrive);
    if (job.keepalive.enabled()) j["barrier"]["keepalive"] = barrier::keepalive_json(job.keepalive);
    j["wait"] = wait::now_wait_json(job.wait);
    j["tickets"] = job.tickets;
    return j;
  }
}

const ModelEntry kNowModel{
    "now",
    "",
    [](MapReader& keys, CalibratedCosts& costs) {
      MapReader now(keys.required("now"), "a mapping with scheduler.context_switch");
      costs.now_context_switch = calibrated_duration(now, "scheduler.context_switch");
    },
    [](ModelInput& in) -> ModelConfig {
      if (in.end == EndCondition::FirstFinish)
        in.end_field->error("the now model supports end: all-jobs only");
      return read_now(in.top, in.dir, in.calibration);
    },
    [](const ModelConfig& config) { return now_json(std::get<NowConfig>(config)); },
    nullptr,
    [](const ModelConfig& config) { return now::trace_estimate(std::get<NowConfig>(config)); },
    [](const ModelConfig& config, const Field& root) {
      now::check_limits(std::get<NowConfig>(config), root);
    },
    metrics::now_summary_lines};

}  // namespace cosched::config
