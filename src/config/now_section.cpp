#include "config/now_section.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

#include "config/now_fields.hpp"
#include "sched/local_scheduler_registry.hpp"

namespace cosched::config {
namespace {

constexpr int kMaxWorkstations = 100'000;

int bounded_count(const Field& f, int max) {
  auto value = f.positive_integer();
  if (value > max) f.fail(fmt::format("a positive integer up to {}", max));
  return static_cast<int>(value);
}

using A = NowWait::Algorithm;
const Names<A> kWaitNames = {{"block", A::Block},       {"spin-fixed", A::SpinFixed},
                             {"pairwise", A::Pairwise}, {"block-immediately", A::BlockImmediately},
                             {"spin", A::Spin},         {"large-initial-spin", A::LargeInitialSpin}};
const Names<Pattern> kPatternNames = {
    {"news", Pattern::News}, {"none", Pattern::None}, {"random", Pattern::Random}};
const Names<IntervalBasis> kBasisNames = {{"compute", IntervalBasis::Compute},
                                          {"dedicated", IntervalBasis::Dedicated}};
const Names<BarrierKind> kBarrierNames = {{"root", BarrierKind::Root}, {"all-to-all", BarrierKind::AllToAll}};
const Names<NowNetwork> kNetworkNames = {{"logp", NowNetwork::LogP}, {"shared", NowNetwork::Shared}};
const Names<NowWait::Resume> kResumeNames = {{"restart", NowWait::Resume::Restart},
                                             {"keep", NowWait::Resume::Keep},
                                             {"block", NowWait::Resume::Block}};
const Names<NowWait::Conditional> kConditionalNames = {{"count", NowWait::Conditional::Count},
                                                       {"extend", NowWait::Conditional::Extend}};
const Names<NowWait::ReadWindow> kReadWindowNames = {{"pairwise", NowWait::ReadWindow::Pairwise},
                                                     {"read-baseline", NowWait::ReadWindow::ReadBaseline},
                                                     {"none", NowWait::ReadWindow::None}};
const Names<NowWait::AfterWake> kAfterWakeNames = {{"first-phase", NowWait::AfterWake::FirstPhase},
                                                   {"window", NowWait::AfterWake::Window}};

NowWait read_wait(const Field& f) {
  MapReader map(f, "a mapping such as {algorithm: pairwise}");
  NowWait wait;
  auto algorithm = map.required("algorithm");
  wait.algorithm = choice(algorithm, kWaitNames);
  auto spin = map.optional("spin");
  auto initial = map.optional("initial_spin");
  auto read_spin = map.optional("read_spin");
  auto barrier_spin = map.optional("barrier_spin");
  auto window = map.optional("window");
  auto resume = map.optional("resume");
  auto conditional = map.optional("conditional");
  auto read_window = map.optional("read_window");
  auto after_wake = map.optional("after_wake");
  const bool two_phase = wait.algorithm == A::Pairwise || wait.algorithm == A::BlockImmediately ||
                         wait.algorithm == A::LargeInitialSpin;
  const std::string name = algorithm.scalar("");
  if (wait.algorithm == A::SpinFixed) {
    if (!spin) f.error("missing required key 'spin' for algorithm spin-fixed");
    wait.spin = duration(*spin, true);
  } else if (spin) {
    spin->error(fmt::format("only spin-fixed takes 'spin' (algorithm is {})", name));
  }
  if (wait.algorithm == A::LargeInitialSpin) {
    if (!initial)
      f.error("missing required key 'initial_spin' for algorithm large-initial-spin (e.g. 600us or V+L+2o)");
    if (initial->scalar("a duration or V+L+2o") == "V+L+2o") {
      wait.initial_spin_v_l_2o = true;
    } else {
      wait.initial_spin = duration(*initial);
    }
  } else if (initial) {
    initial->error(fmt::format("only large-initial-spin takes 'initial_spin' (algorithm is {})", name));
  }
  for (auto [key, target] :
       {std::pair{&read_spin, &wait.read_spin}, std::pair{&barrier_spin, &wait.barrier_spin},
        std::pair{&window, &wait.window}}) {
    if (!*key) continue;
    if (!two_phase)
      (*key)->error(fmt::format("only the two-phase algorithms take this key (algorithm is {})", name));
    *target = duration(**key);
  }
  if (resume) {
    if (wait.algorithm == A::Block)
      resume->error("block never spins, so no spin is interrupted; remove 'resume'");
    wait.resume = choice(*resume, kResumeNames);
  }
  if (conditional) {
    if (!two_phase)
      conditional->error(fmt::format("only the two-phase algorithms take this key (algorithm is {})", name));
    wait.conditional = choice(*conditional, kConditionalNames);
  }
  if (after_wake) {
    if (!two_phase)
      after_wake->error(fmt::format("only the two-phase algorithms take this key (algorithm is {})", name));
    wait.after_wake = choice(*after_wake, kAfterWakeNames);
  }
  if (read_window) {
    if (wait.algorithm != A::BlockImmediately)
      read_window->error(fmt::format("only block-immediately takes 'read_window' (algorithm is {})", name));
    wait.read_window = choice(*read_window, kReadWindowNames);
  }
  if (barrier_spin && wait.algorithm != A::Pairwise)
    barrier_spin->error(
        fmt::format("{} sets the barrier spin itself; only pairwise takes barrier_spin", name));
  map.finish();
  return wait;
}

NowJobProfile read_job(const Field& f, std::size_t index, int workstations) {
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
  if (auto v = map.optional("pattern")) job.pattern = choice(*v, kPatternNames);
  if (auto v = map.optional("comm_interval")) job.comm_interval = duration(*v);
  if (auto v = map.optional("sync_interval")) job.sync_interval = duration(*v);
  if (auto v = map.optional("imbalance")) {
    job.imbalance = v->number();
    if (job.imbalance < 1) v->fail("a load-imbalance factor v >= 1");
  }
  job.barriers = bounded_count(map.required("barriers"), 10'000'000);
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
    barrier.finish();
  }
  job.wait = read_wait(map.required("wait"));
  if (auto v = map.optional("tickets")) job.tickets = bounded_count(*v, 1'000'000);
  map.finish();
  return job;
}

}  // namespace

NowConfig read_now(MapReader& top, const std::string& scenario_dir) {
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
    sched::read_local_policy(scheduler, now);
    scheduler.finish();
  }
  {
    MapReader workload(top.required("workload"), "a mapping with 'jobs'");
    auto jobs = workload.required("jobs");
    auto items = jobs.items("a list of parallel job profiles");
    if (items.empty()) jobs.error("at least one parallel job is needed");
    for (std::size_t i = 0; i < items.size(); ++i)
      now.jobs.push_back(read_job(items[i], i, now.workstations));
    workload.finish();
  }
  now.output = read_output(top);
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
  scheduler["policy"] = now.policy;
  sched::local_policy(now.policy).to_json(now, scheduler);
  auto& jobs = out["workload"]["jobs"] = nlohmann::ordered_json::array();
  for (const auto& job : now.jobs) {
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
    auto& wait = j["wait"];
    wait["algorithm"] = name_of(kWaitNames, job.wait.algorithm);
    if (job.wait.algorithm == NowWait::Algorithm::SpinFixed) wait["spin_s"] = seconds(job.wait.spin);
    if (job.wait.read_spin) wait["read_spin_s"] = seconds(*job.wait.read_spin);
    if (job.wait.barrier_spin) wait["barrier_spin_s"] = seconds(*job.wait.barrier_spin);
    if (job.wait.window) wait["window_s"] = seconds(*job.wait.window);
    if (job.wait.initial_spin) wait["initial_spin_s"] = seconds(*job.wait.initial_spin);
    if (job.wait.initial_spin_v_l_2o) wait["initial_spin"] = "V+L+2o";
    if (job.wait.algorithm != NowWait::Algorithm::Block)
      wait["resume"] = name_of(kResumeNames, job.wait.resume);
    const bool two_phase = job.wait.algorithm == NowWait::Algorithm::Pairwise ||
                           job.wait.algorithm == NowWait::Algorithm::BlockImmediately ||
                           job.wait.algorithm == NowWait::Algorithm::LargeInitialSpin;
    if (two_phase) {
      wait["conditional"] = name_of(kConditionalNames, job.wait.conditional);
      wait["after_wake"] = name_of(kAfterWakeNames, job.wait.after_wake);
    }
    if (job.wait.algorithm == NowWait::Algorithm::BlockImmediately)
      wait["read_window"] = name_of(kReadWindowNames, job.wait.read_window);
    j["tickets"] = job.tickets;
    jobs.push_back(j);
  }
  return out;
}

}  // namespace cosched::config
