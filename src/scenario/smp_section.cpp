#include "scenario/smp_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "config/cycles.hpp"
#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "metrics/summary_text.hpp"
#include "scenario/models.hpp"
#include "sched/smp/smp_policy_registry.hpp"
#include "smp/footprint.hpp"
#include "util/normal.hpp"
#include "wait/smp/smp_wait_registry.hpp"
#include "workload/distribution.hpp"
#include "workload/userlevel_kinds.hpp"

namespace cosched::config {
namespace {

constexpr int kMaxCount = 1'000'000;  // a sanity bound on counts, far above any SMP the thesis studies

int count(const Field& f) {
  auto value = f.positive_integer();
  if (value > kMaxCount) f.fail(fmt::format("a positive integer up to {}", kMaxCount));
  return static_cast<int>(value);
}

// Thesis 2.2.1-2.2.2: a symbolic sigma's interval (a percentage of mu follows mu) and its direct value.
void finish_sigma(Sigma& sigma, double mu) {
  if (!sigma.density) return;
  if (sigma.interval_percent) sigma.interval = *sigma.interval_percent / 100.0 * mu;
  sigma.cycles = sigma_from_symbolic(*sigma.density, *sigma.interval);
}

// `mu` is the smallest mu the job can have (its only one unless compute is a distribution): the lower
// bound of [mu - INTERVAL, mu + INTERVAL] is checked against it.
Sigma read_sigma(const Field& f, double mu) {
  const std::string expected = "a positive standard deviation or DENSITY/INTERVAL such as 90/15%";
  auto text = f.scalar(expected);
  Sigma sigma;
  sigma.given = text;
  auto slash = text.find('/');
  if (slash == std::string::npos) {
    auto value = parse_number(text);
    if (!value || *value <= 0 || *value > kMaxCycles) f.fail(expected);  // thesis 2.2.1: "must be positive"
    sigma.cycles = *value;
    return sigma;
  }
  // Symbolic format DENSITY/INTERVAL[%], thesis 2.2.1.
  auto density = parse_number(std::string_view(text).substr(0, slash));
  std::string interval_text = text.substr(slash + 1);
  bool percent = !interval_text.empty() && interval_text.back() == '%';
  if (percent) interval_text.pop_back();
  auto interval = parse_number(interval_text);
  if (!density || !interval) f.fail("DENSITY/INTERVAL such as 90/15%");
  if (*density <= 0 || *density >= 100) f.fail("a DENSITY in the open interval (0, 100), as in 90/15%");
  if (*interval <= 0 || *interval > kMaxCycles) f.fail("a positive INTERVAL, as in 90/15%");
  if (percent && *interval >= 100) f.fail("an INTERVAL% in the open interval (0, 100), as in 90/15%");
  double interval_cycles = percent ? *interval / 100.0 * mu : *interval;
  if (mu - interval_cycles <= 0)
    f.error(fmt::format(
        "the lower bound of [mu - INTERVAL, mu + INTERVAL] = {} - {} is not positive (thesis 2.2.1)", mu,
        interval_cycles));
  sigma.density = *density;
  if (percent) sigma.interval_percent = *interval;
  sigma.interval = interval_cycles;
  finish_sigma(sigma, mu);
  return sigma;
}

// A key written in the distribution notation of thesis 5.1.3 ("value:weight, begin-end:weight, ...");
// nothing when it is a plain value.
std::optional<workload::Distribution> read_notation(const Field& f, workload::Distribution::Syntax syntax,
                                                    const std::string& expected) {
  if (!f.node().IsScalar() || !workload::Distribution::is_notation(f.node().Scalar())) return std::nullopt;
  std::string why;
  auto distribution = workload::Distribution::parse(f.node().Scalar(), &why, syntax);
  if (!distribution) f.fail(fmt::format("{} ({})", expected, why));
  return distribution;
}

double entry_cycles(const workload::Distribution::Entry& entry, double value, Cycles quantum) {
  return entry.percent ? value / 100.0 * static_cast<double>(quantum) : value;
}

// threads: a distribution of whole thread counts, at least 1.
workload::Distribution read_threads_distribution(const Field& f, const workload::Distribution& d) {
  const std::string expected =
      "a distribution of whole thread counts of at least 1, such as \"2-8:2, 9-16:1\"";
  for (const auto& e : d.entries())
    if (e.begin < 1 || e.end > kMaxCount || e.begin != std::floor(e.begin) || e.end != std::floor(e.end))
      f.fail(expected);
  return d;
}

// compute: a distribution of positive mu values in cycles or % of the quantum ("1-20%:1, 21-30%:1").
void check_compute_distribution(const Field& f, const workload::Distribution& d, Cycles quantum) {
  const std::string expected =
      "a distribution of positive computation intervals in cycles or % of the quantum, such as "
      "\"1-20%:1, 21-30%:1\"";
  for (const auto& e : d.entries()) {
    if (!(e.begin > 0)) f.fail(expected);
    if (e.percent && e.end > 1e9) f.fail(expected + " (percentages up to 1e9)");
    if (entry_cycles(e, e.end, quantum) > kMaxCycles)
      f.fail(fmt::format("{} (at most {:g} cycles)", expected, kMaxCycles));
  }
}

// sigma: entries DENSITY/INTERVAL[%] (the interval drawn) or direct standard deviations in cycles.
void check_sigma_distribution(const Field& f, const workload::Distribution& d, double mu_min) {
  const std::string expected =
      "a distribution of sigmas, DENSITY/INTERVAL[%] or direct values, such as \"80/1-15:3, 90/16-30:1\"";
  for (const auto& e : d.entries()) {
    if (!(e.begin > 0) || e.end > kMaxCycles) f.fail(expected + " with positive values");
    if (!e.density) {
      if (e.percent) f.fail(expected + " ('%' only after an INTERVAL, as in 90/1-15%)");
      continue;
    }
    if (*e.density <= 0 || *e.density >= 100) f.fail(expected + " with each DENSITY in (0, 100)");
    if (e.percent && e.end >= 100) f.fail(expected + " with each INTERVAL% in (0, 100)");
    if (!e.percent && mu_min - e.end <= 0)
      f.error(fmt::format(
          "the lower bound of [mu - INTERVAL, mu + INTERVAL] can be {} - {}, not positive (thesis 2.2.1: "
          "\"in any case the lower bound of Λ must be positive\")",
          mu_min, e.end));
  }
}

// loop.cost: one value in cycles or % of the quantum, a distribution (thesis 5.1.3 notation, percentages
// converted to cycles here), or a mapping {value: <either>, except: {INDEX: CYCLES, ...}} whose exceptional
// iterations (the seed's one slow iteration) cost what they say in every phase.
void read_loop_cost(const Field& f, Cycles quantum, SmpLoop& loop) {
  const std::string expected_value =
      "a positive iteration cost in cycles or % of the quantum, or a distribution such as \"100-200:1\"";
  auto read_value = [&](const Field& v) {
    if (auto d = read_notation(v, {true, false}, "a distribution of iteration costs such as \"100-200:1\"")) {
      std::string cycles_notation;
      for (std::size_t i = 0; i < d->entries().size(); ++i) {
        const auto& e = d->entries()[i];
        if (!(e.begin > 0)) v.fail("a distribution of positive iteration costs such as \"100-200:1\"");
        const double begin = entry_cycles(e, e.begin, quantum), end = entry_cycles(e, e.end, quantum);
        if (end > kMaxCycles) v.fail(fmt::format("iteration costs of at most {:g} cycles", kMaxCycles));
        cycles_notation += fmt::format("{}{}-{}:{}", i ? "," : "", begin, end, e.weight);
      }
      loop.cost = *workload::Distribution::parse(cycles_notation);
      loop.cost_given = d->notation();
      return;
    }
    loop.cost_given = v.scalar(expected_value);
    const double cycles = cycles_or_percent(v, quantum, expected_value, 1e9);
    if (!(cycles > 0)) v.fail(expected_value);
    loop.cost = workload::Distribution::constant(cycles);
  };
  if (!f.is_map()) {
    read_value(f);
    return;
  }
  MapReader map(f, "an iteration cost, or a mapping with value and except");
  read_value(map.required("value"));
  if (auto except = map.optional("except")) {
    if (!except->is_map()) except->fail("a mapping of iteration indices to costs, such as {1: 1e10}");
    for (const auto& item : except->node()) {
      const auto key = item.first.as<std::string>("");
      const Field value = except->child(item.second, key);
      const auto index = parse_integer(key);
      if (!index || *index < 0 || *index >= loop.iterations)
        value.error(fmt::format("expected an iteration index in [0, {}) as the key, got {}", loop.iterations,
                                key.empty() ? "nothing" : key));
      const double cycles = cycles_or_percent(
          value, quantum, "a positive cost of that iteration in cycles or % of the quantum", 1e9);
      if (!(cycles > 0)) value.fail("a positive cost of that iteration in cycles or % of the quantum");
      loop.exceptions.emplace_back(*index, cycles);
    }
  }
  map.finish();
}

// Every sum of cycles stays far from overflowing: a phase's work (`phase_work`, all its threads' at most),
// and the job alone on dedicated CPUs (at least its phase's work spread over its threads, times its
// barriers). `fewer` says what to change.
void check_phase_work(const Field& f, double phase_work, int barriers, int threads, const char* fewer) {
  if (phase_work > kMaxCycles)
    f.error(fmt::format("a phase's work is up to {:g} cycles, more than {:g}; expected {}", phase_work,
                        kMaxCycles, fewer));
  const double dedicated = static_cast<double>(barriers) * phase_work / threads;
  if (dedicated > static_cast<double>(limits::kMaxSimulatedTime))
    f.error(
        fmt::format("barriers x a phase's work per thread = {:g} cycles, more than the largest simulated "
                    "time ({:g} cycles); expected fewer barriers or {}",
                    dedicated, static_cast<double>(limits::kMaxSimulatedTime), fewer));
}

// loop: a phase run as a parallel loop (issue 23; OpenMP 5.2, 11.5.3).
SmpLoop read_loop(const Field& f, const SmpConfig& smp, int threads, int barriers,
                  CalibratedCosts* calibration) {
  MapReader map(f, "a mapping with iterations, cost, schedule, chunk and dispatch");
  SmpLoop loop;
  constexpr std::int64_t kMaxIterations = 1'000'000'000;
  auto iterations = map.required("iterations");
  loop.iterations = iterations.positive_integer();
  if (loop.iterations > kMaxIterations)
    iterations.fail(fmt::format("a positive number of iterations up to {}", kMaxIterations));
  read_loop_cost(map.required("cost"), smp.quantum, loop);
  if (auto v = map.optional("schedule")) {
    const std::string expected = workload::loop_schedule_names();
    const auto schedule = workload::loop_schedule_named(v->scalar(expected));
    if (!schedule) v->fail(expected);
    loop.schedule = *schedule;
  }
  if (auto v = map.optional("chunk")) {
    loop.chunk = v->non_negative_integer();
    if (loop.chunk > kMaxIterations)
      v->fail(fmt::format("a chunk size from 0 (the schedule's default) to {}", kMaxIterations));
  }
  std::optional<Cycles> dispatch;
  if (auto v = map.optional("dispatch"))
    dispatch = smp_cycles(*v, smp.quantum, "a dispatch cost in cycles or % of the quantum");
  // A calibration's uncontended dispatch replaces the default 0, not a written value (docs/calibration.md,
  // section 6).
  loop.dispatch = calibration
                      ? calibration->resolve(f.path() + ".dispatch", dispatch, *calibration->loop_dispatch)
                      : dispatch.value_or(loop.dispatch);
  map.finish();
  double phase_work = static_cast<double>(loop.iterations) * (loop.cost.max() + loop.dispatch);
  for (const auto& e : loop.exceptions) phase_work += e.second;
  check_phase_work(f, phase_work, barriers, threads, "fewer or cheaper iterations");
  return loop;
}

// tasks: a phase run as a fork-join task tree (issue 23; the seed's task library).
SmpTasks read_tasks(const Field& f, const SmpConfig& smp, int threads, int barriers,
                    CalibratedCosts* calibration) {
  MapReader map(f, "a mapping with tree, leaf, spawn, switch and policy");
  SmpTasks tasks;
  {
    const std::string expected = workload::task_tree_forms();
    auto tree = map.required("tree");
    tasks.tree_given = tree.scalar(expected);
    const auto open = tasks.tree_given.find('(');
    if (open == std::string::npos || tasks.tree_given.back() != ')') tree.fail(expected);
    const auto shape = workload::task_tree_named(std::string_view(tasks.tree_given).substr(0, open));
    const auto size = parse_integer(
        std::string_view(tasks.tree_given).substr(open + 1, tasks.tree_given.size() - open - 2));
    if (!shape || !size || *size < 0 || *size > workload::task_tree_entry(*shape).max_size)
      tree.fail(expected);
    tasks.tree = *shape;
    tasks.size = static_cast<int>(*size);
  }
  {
    const std::string expected = "a positive leaf task's work in cycles or % of the quantum";
    auto leaf = map.required("leaf");
    tasks.leaf = smp_cycles(leaf, smp.quantum, expected);
    if (tasks.leaf <= 0) leaf.fail(expected);
  }
  if (auto v = map.optional("spawn"))
    tasks.spawn = smp_cycles(*v, smp.quantum, "a spawn cost in cycles or % of the quantum");
  std::optional<Cycles> switch_cost;
  if (auto v = map.optional("switch"))
    switch_cost = smp_cycles(*v, smp.quantum, "a user-level switch cost in cycles or % of the quantum");
  // A calibration's ucontext switch replaces the default 0, not a written value (docs/calibration.md,
  // section 6).
  tasks.switch_cost = calibration
                          ? calibration->resolve(f.path() + ".switch", switch_cost, *calibration->task_switch)
                          : switch_cost.value_or(tasks.switch_cost);
  if (auto v = map.optional("policy")) {
    const std::string expected = workload::task_policy_names();
    const auto policy = workload::task_policy_named(v->scalar(expected));
    if (!policy) v->fail(expected);
    tasks.policy = *policy;
  }
  map.finish();
  // A tree's work (docs/models/smp.md 21.3): its leaves' work and its spawns, every task switched in and
  // out at least once; a full binary tree has (size + 1) / 2 leaves.
  const auto size = static_cast<double>(workload::task_tree_size(tasks.tree, tasks.size));
  const double phase_work = (size + 1) / 2 * static_cast<double>(tasks.leaf) +
                            (size - 1) * static_cast<double>(tasks.spawn) +
                            2 * size * static_cast<double>(tasks.switch_cost);
  check_phase_work(f, phase_work, barriers, threads, "a smaller tree or cheaper tasks");
  return tasks;
}

// A Linux nice value, for the policies that weigh threads by it.
int read_nice(const Field& f, const SmpConfig& smp) {
  if (!sched::smp_schedulers().at(smp.scheduler.name).nice)
    f.error("applies to scheduler.policy cfs and eevdf only (a Linux task's weight)");
  const auto nice = f.integer();
  if (nice < -20 || nice > 19) f.fail("a nice value from -20 to 19");
  return static_cast<int>(nice);
}

// The job's `wait`, refused when it calls sched_yield() under a policy that does not model it.
PolicyChoice read_wait(MapReader& map, const SmpConfig& smp) {
  const auto field = map.required("wait");
  auto wait = wait::read_smp_wait(field, smp.quantum, smp.cs_in + smp.cs_out);
  if (wait::smp_waits().at(wait.name).yields && !sched::smp_schedulers().at(smp.scheduler.name).yields)
    field.child(field.node()["algorithm"], "algorithm")
        .error(fmt::format(
            "{} calls sched_yield(), which scheduler.policy {} does not model (rr, cfs or eevdf do)",
            wait.name, smp.scheduler.name));
  return wait;
}

SmpJobProfile read_job(const Field& f, const SmpConfig& smp, std::size_t index,
                       CalibratedCosts* calibration) {
  MapReader map(f, "a job profile mapping with threads, barriers, compute and wait");
  SmpJobProfile job;
  job.name = fmt::format("job{}", index);
  if (auto v = map.optional("name")) job.name = v->string();
  if (auto v = map.optional("nice")) job.nice = read_nice(*v, smp);
  auto threads = map.required("threads");
  if (auto d = read_notation(threads, {}, "a distribution of thread counts such as \"2-8:2, 9-16:1\"")) {
    job.threads_from = read_threads_distribution(threads, *d);
    job.threads = static_cast<int>(d->max());  // until drawn: the largest, which the limits check
  } else {
    job.threads = count(threads);
  }
  job.barriers = count(map.required("barriers"));
  // A phase is a parallel loop, a task tree, or the thesis's computation interval (compute +- sigma).
  auto loop = map.optional("loop");
  auto tasks = map.optional("tasks");
  if (loop && tasks) tasks->error("give either 'loop' or 'tasks', not both: a phase is one or the other");
  if (loop || tasks) {
    const Field& user_level = loop ? *loop : *tasks;
    const char* key = loop ? "loop" : "tasks";
    for (const char* other : {"compute", "sigma"})
      if (auto v = map.optional(other))
        v->error(fmt::format("a job with '{}' has no '{}': its {} gives its work", key, other,
                             loop ? "loop" : "task tree"));
    if (job.threads_from)
      threads.error(fmt::format("a job with '{}' has a fixed number of threads, not a distribution", key));
    if (loop) job.loop = read_loop(user_level, smp, job.threads, job.barriers, calibration);
    if (tasks) job.tasks = read_tasks(user_level, smp, job.threads, job.barriers, calibration);
    if (auto v = map.optional("copies")) job.copies = count(*v);
    job.wait = read_wait(map, smp);
    map.finish();
    return job;
  }
  auto compute = map.required("compute");
  double mu_min = 0;
  if (auto d = read_notation(compute, {true, false},
                             "a distribution of computation intervals such as \"1-20%:1\"")) {
    check_compute_distribution(compute, *d, smp.quantum);
    job.compute_from = d;
    job.compute_given = d->notation();
    mu_min = std::numeric_limits<double>::max();
    for (const auto& e : d->entries()) mu_min = std::min(mu_min, entry_cycles(e, e.begin, smp.quantum));
    job.compute_cycles = mu_min;  // until drawn
  } else {
    job.compute_given = compute.scalar("a computation interval in cycles or a percentage of the quantum");
    job.compute_cycles = cycles_or_percent(
        compute, smp.quantum, "a positive computation interval in cycles or % of the quantum", 1e9);
    if (job.compute_cycles <= 0)
      compute.fail("a positive computation interval in cycles or % of the quantum");
    mu_min = job.compute_cycles;
  }
  if (auto v = map.optional("sigma")) {
    if (auto d =
            read_notation(*v, {true, true}, "a distribution of sigmas such as \"80/1-15:3, 90/16-30:1\"")) {
      check_sigma_distribution(*v, *d, mu_min);
      job.sigma_from = d;
      job.sigma.given = d->notation();
    } else {
      job.sigma = read_sigma(*v, mu_min);
      finish_sigma(job.sigma, job.compute_cycles);
    }
  }
  if (auto v = map.optional("copies")) job.copies = count(*v);
  job.wait = read_wait(map, smp);
  map.finish();
  return job;
}

// Streams of the draws: one per job profile, apart from the machine's (seed, job + 1, thread) streams.
constexpr std::uint64_t kDrawStream = 0x5EED'D157'0000'0001ULL;

}  // namespace

DrawnJob draw_job_values(SmpJobProfile& job, Cycles quantum, std::mt19937_64& engine) {
  DrawnJob drawn;
  if (job.threads_from) {
    const auto d = job.threads_from->draw(engine);
    job.threads = static_cast<int>(d.value);
    drawn.threads_entry = d.entry;
  }
  if (job.compute_from) {
    const auto d = job.compute_from->draw(engine);
    const auto& e = job.compute_from->entries()[d.entry];
    job.compute_cycles = entry_cycles(e, d.value, quantum);
    job.compute_given = fmt::format("{}{}", d.value, e.percent ? "%" : "");
    drawn.compute_entry = d.entry;
  }
  if (job.sigma_from) {
    const auto d = job.sigma_from->draw(engine);
    const auto& e = job.sigma_from->entries()[d.entry];
    Sigma sigma;
    if (e.density) {
      sigma.density = *e.density;
      if (e.percent) {
        sigma.interval_percent = d.value;
      } else {
        sigma.interval = d.value;
      }
      sigma.given = fmt::format("{}/{}{}", *e.density, d.value, e.percent ? "%" : "");
    } else {
      sigma.cycles = d.value;
      sigma.given = fmt::format("{}", d.value);
    }
    job.sigma = sigma;
    drawn.sigma_entry = d.entry;
  }
  finish_sigma(job.sigma, job.compute_cycles);  // a sigma interval in % of mu follows a drawn mu
  return drawn;
}

void draw_distributions(SmpConfig& smp, std::uint64_t seed) {
  for (std::size_t j = 0; j < smp.jobs.size(); ++j) {
    auto& job = smp.jobs[j];
    if (!job.threads_from && !job.compute_from && !job.sigma_from) continue;
    std::mt19937_64 engine(util::mix_seed(seed, kDrawStream, j));
    draw_job_values(job, smp.quantum, engine);
  }
}

double sigma_from_symbolic(double density_percent, double interval_cycles) {
  // P(mu - I <= X <= mu + I) = p  =>  I / sigma = z((1 + p) / 2).
  double p = density_percent / 100.0;
  return interval_cycles / util::normal_quantile((1 + p) / 2);
}

SmpConfig read_smp(MapReader& top, const std::string& scenario_dir, EndCondition end,
                   CalibratedCosts* calibration) {
  SmpConfig smp;
  {
    MapReader platform(top.required("platform"), "a mapping with 'cpus' or 'file'");
    auto cpus = platform.optional("cpus");
    auto file = platform.optional("file");
    if (cpus && file) file->error("give either 'cpus' or 'file', not both");
    if (!cpus && !file) platform.field().error("missing required key 'cpus' (or 'file')");
    if (cpus) smp.cpus = count(*cpus);
    if (file) smp.platform_file = resolve_platform_file(*file, scenario_dir);
    platform.finish();
  }
  {
    MapReader scheduler(top.required("scheduler"), "a mapping with policy, quantum, cs_in and cs_out");
    const auto& policy = sched::smp_schedulers().choose(scheduler);
    auto quantum = scheduler.required("quantum");
    smp.quantum = quantum.positive_integer();
    if (static_cast<double>(smp.quantum) > kMaxCycles)
      quantum.fail(fmt::format("a positive integer up to {:g} cycles", kMaxCycles));
    // Required, unless a calibration gives their defaults: half its kernel switch each (docs/calibration.md,
    // section 6).
    const auto written = [&](const std::string& key, const char* expected) -> std::optional<Cycles> {
      const auto field = calibration ? scheduler.optional(key) : std::optional(scheduler.required(key));
      if (!field) return std::nullopt;
      return whole_cycles(*field, smp.quantum, expected, 100);
    };
    const auto cs_in = written("cs_in", "a context-switch-in cost in cycles or % of the quantum");
    const auto cs_out = written("cs_out", "a context-switch-out cost in cycles or % of the quantum");
    smp.cs_in =
        calibration ? calibration->resolve("scheduler.cs_in", cs_in, *calibration->smp_cs_in) : *cs_in;
    smp.cs_out =
        calibration ? calibration->resolve("scheduler.cs_out", cs_out, *calibration->smp_cs_out) : *cs_out;
    // Optional: 0 unless given, or a calibration file gives it.
    std::optional<Cycles> idle_wakeup;
    if (auto v = scheduler.optional("idle_wakeup"))
      idle_wakeup =
          whole_cycles(*v, smp.quantum, "an idle CPU's wake-up cost in cycles or % of the quantum", 100);
    smp.idle_wakeup =
        calibration && calibration->smp_idle_wakeup
            ? calibration->resolve("scheduler.idle_wakeup", idle_wakeup, *calibration->smp_idle_wakeup)
            : idle_wakeup.value_or(0);
    if (auto v = scheduler.optional("shuffle")) smp.shuffle = v->boolean();
    smp.scheduler = sched::smp_schedulers()
                        .read_keys(scheduler, policy,
                                   [&](PolicyParams& params) {
                                     static_cast<SmpSchedulerParams&>(params).derive(smp.quantum, smp.cpus);
                                   })
                        .choice();
    scheduler.finish();
  }
  {
    MapReader workload(top.required("workload"), "a mapping with nosync and jobs");
    if (auto v = workload.optional("nosync")) {
      auto n = v->non_negative_integer();
      if (n > kMaxCount) v->fail(fmt::format("a non-negative integer up to {}", kMaxCount));
      smp.nosync = static_cast<int>(n);
    }
    if (auto v = workload.optional("nosync_nice")) smp.nosync_nice = read_nice(*v, smp);
    auto jobs = workload.optional("jobs");
    if (jobs) {
      auto items = jobs->items("a list of synchronizing job profiles");
      for (std::size_t i = 0; i < items.size(); ++i)
        smp.jobs.push_back(read_job(items[i], smp, i, calibration));
    }
    if (smp.jobs.empty()) {
      const char* why = end == EndCondition::AllJobs ? "end: all-jobs" : "end: first-finish";
      (jobs ? *jobs : workload.field())
          .error(fmt::format(
              "at least one synchronizing job is needed: {} ends the run on synchronizing jobs", why));
    }
    workload.finish();
  }
  if (const auto& policy = sched::smp_schedulers().at(smp.scheduler.name); policy.check)
    policy.check(top.field(), *smp.scheduler.params, smp);
  smp.output = read_output(top);
  return smp;
}

nlohmann::ordered_json smp_json(const SmpConfig& smp) {
  nlohmann::ordered_json out;
  out["platform"]["cpus"] = smp.cpus;
  if (!smp.platform_file.empty()) out["platform"]["file"] = smp.platform_file;
  out["scheduler"] = {{"policy", smp.scheduler.name},
                      {"quantum", smp.quantum},
                      {"cs_in", smp.cs_in},
                      {"cs_out", smp.cs_out},
                      {"shuffle", smp.shuffle}};
  if (smp.idle_wakeup > 0) out["scheduler"]["idle_wakeup"] = smp.idle_wakeup;
  sched::smp_schedulers().at(smp.scheduler.name).spec.to_json(*smp.scheduler.params, out["scheduler"]);
  out["workload"]["nosync"] = smp.nosync;
  const bool takes_nice = sched::smp_schedulers().at(smp.scheduler.name).nice;
  if (takes_nice) out["workload"]["nosync_nice"] = smp.nosync_nice;
  auto& jobs = out["workload"]["jobs"] = nlohmann::ordered_json::array();
  for (const auto& job : smp.jobs) {
    nlohmann::ordered_json j;
    j["name"] = job.name;
    j["threads"] = job.threads;
    j["barriers"] = job.barriers;
    j["compute"] = job.compute_cycles;
    j["sigma"] = job.sigma.cycles;
    if (job.sigma.density) {
      j["sigma_symbolic"] = {{"density", *job.sigma.density}, {"interval", *job.sigma.interval}};
    }
    j["copies"] = job.copies;
    if (job.threads_from || job.compute_from || job.sigma_from) {
      // The distributions the values above were drawn from (thesis 5.1.3 notation).
      auto& from = j["drawn_from"] = nlohmann::ordered_json::object();
      if (job.threads_from) from["threads"] = job.threads_from->notation();
      if (job.compute_from) from["compute"] = job.compute_from->notation();
      if (job.sigma_from) from["sigma"] = job.sigma_from->notation();
    }
    if (job.loop) {
      auto& loop = j["loop"];
      loop["iterations"] = job.loop->iterations;
      loop["cost"] = job.loop->cost_given;
      loop["cost_cycles"] = job.loop->cost.notation();
      if (!job.loop->exceptions.empty()) {
        auto& except = loop["except"] = nlohmann::ordered_json::object();
        for (const auto& [index, cycles] : job.loop->exceptions) except[std::to_string(index)] = cycles;
      }
      loop["schedule"] = workload::loop_schedule_name(job.loop->schedule);
      loop["chunk"] = job.loop->chunk;
      loop["dispatch"] = job.loop->dispatch;
    }
    if (job.tasks) {
      j["tasks"] = {{"tree", job.tasks->tree_given},
                    {"leaf", job.tasks->leaf},
                    {"spawn", job.tasks->spawn},
                    {"switch", job.tasks->switch_cost},
                    {"policy", workload::task_policy_name(job.tasks->policy)}};
    }
    if (takes_nice) j["nice"] = job.nice;
    j["wait"] = wait::smp_wait_json(job.wait);
    jobs.push_back(j);
  }
  return out;
}

const ModelEntry kSmpModel{
    "smp",
    "",
    [](MapReader& keys, CalibratedCosts& costs) {
      MapReader smp(keys.required("smp"), "a mapping with scheduler.cs_in and scheduler.cs_out");
      costs.smp_cs_in = calibrated_cycles(smp, "scheduler.cs_in");
      costs.smp_cs_out = calibrated_cycles(smp, "scheduler.cs_out");
      costs.smp_idle_wakeup = optional_calibrated_cycles(smp, "scheduler.idle_wakeup");
      MapReader job(keys.required("smp_job"), "a mapping with loop.dispatch and tasks.switch");
      costs.loop_dispatch = calibrated_cycles(job, "loop.dispatch");
      costs.task_switch = calibrated_cycles(job, "tasks.switch");
    },
    [](ModelInput& in) -> ModelConfig { return read_smp(in.top, in.dir, in.end, in.calibration); },
    [](const ModelConfig& config) { return smp_json(std::get<SmpConfig>(config)); },
    [](ModelConfig& config, std::uint64_t seed) { draw_distributions(std::get<SmpConfig>(config), seed); },
    [](const ModelConfig& config) { return smp::trace_estimate(std::get<SmpConfig>(config)); },
    [](const ModelConfig& config, const Field& root) {
      smp::check_limits(std::get<SmpConfig>(config), root);
    },
    metrics::smp_summary_lines};

}  // namespace cosched::config
