#include "now/stream_jobs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include "barrier/tree.hpp"
#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "sched/now/local_scheduler_registry.hpp"
#include "util/normal.hpp"
#include "wait/now/now_wait.hpp"
#include "workload/now_program.hpp"

namespace cosched::now {
namespace {

constexpr double kNanosPerSecond = 1e9;

Nanos scaled_nanos(double seconds, double scale) {
  return static_cast<Nanos>(std::llround(seconds * scale * kNanosPerSecond));
}

// ---- a job's run time alone on dedicated workstations (docs/models/now-streams.md section 4.4) ----

// What the dedicated run time depends on, from the NOW model's rules (docs/models/now.md).
struct DedicatedCosts {
  Nanos latency = 0;          // L: shapes the skewed trees, as the barrier protocol does (now.md 4.4)
  Nanos overhead = 0;         // o: a send, a handling (now.md 2)
  Nanos delay = 0;            // d: a 1-byte message's latency plus its transfer time (now.md 2.1)
  Nanos read_round_trip = 0;  // 2L + 4o: the dedicated basis's step (workload/now_program.cpp)
  Nanos context_switch = 0;   // W: a process's dispatch (now.md 6)
};

DedicatedCosts dedicated_costs(const config::NowConfig& now) {
  DedicatedCosts costs;
  costs.latency = now.latency;
  costs.overhead = now.overhead;
  costs.delay = static_cast<Nanos>(
      std::llround(static_cast<double>(now.latency) + kNanosPerSecond / now.bandwidth_bytes_per_second));
  costs.read_round_trip = 2 * now.latency + 4 * now.overhead;
  costs.context_switch = now.context_switch();
  return costs;
}

// Of a phase's first `reads` reads, those that send a message: under NEWS a neighbour that is the process
// itself is read locally, with no message and no wait (now.md 4.1; a torus of one row has no north or
// south neighbour), so on such a torus only the east and west reads (read numbers 1 and 2 mod 4) go out.
std::int64_t remote_reads(const config::NowJobProfile& profile, std::int64_t reads) {
  if (profile.pattern != config::Pattern::News) return reads;
  const auto neighbours = workload::news_neighbours(0, profile.processes);
  std::int64_t remote = 0;
  for (int k = 0; k < 4; ++k) {
    if (neighbours[static_cast<std::size_t>(k)] == 0) continue;
    if (reads > k) remote += (reads - k + 3) / 4;
  }
  return remote;
}

// The time one process takes, alone and without interruption, to do a phase whose drawn length (budget)
// is `budget`: its computation plus its reads' round trips (2d + 4o each), by the same split into reads
// and residual computation as workload::ProcessProgram::next_phase. The requests it serves cost it
// nothing more: under NEWS every process issues its reads when its partners issue theirs, so a request
// arrives while its server spins for its own reply and is served within that wait (now-streams.md 4.4).
Nanos phase_time(const config::NowJobProfile& profile, const DedicatedCosts& costs, Nanos budget) {
  if (profile.pattern == config::Pattern::None || profile.processes < 2) return budget;
  const Nanos chunk = profile.comm_interval;
  const Nanos step =
      profile.interval_basis == config::IntervalBasis::Compute ? chunk : chunk + costs.read_round_trip;
  const std::int64_t reads = budget / step;
  const Nanos rest = budget - reads * step;
  const Nanos residual = profile.interval_basis == config::IntervalBasis::Compute
                             ? rest
                             : static_cast<Nanos>(std::llround(static_cast<double>(rest) * chunk / step));
  return reads * chunk + residual + remote_reads(profile, reads) * (2 * costs.delay + 4 * costs.overhead);
}

// When a workstation's CPU has done all it was given: `own` of its own work from `start`, and o for each
// message arriving at `arrivals`. A message interrupts computation for o, sends and handlings are not
// interrupted, and the CPU never idles while it has work (now.md 4.2, 6), so the end does not depend on
// the order the work is done in: it is the latest, over the instants t at which work is given, of t plus
// all the work given at t or later.
Nanos work_done(Nanos start, Nanos own, std::vector<Nanos> arrivals, Nanos o) {
  std::sort(arrivals.begin(), arrivals.end(), std::greater<>());  // latest first
  const auto after_start =
      std::count_if(arrivals.begin(), arrivals.end(), [&](Nanos t) { return t >= start; });
  Nanos done = start + own + o * after_start;
  for (std::size_t k = 0; k < arrivals.size(); ++k)
    done = std::max(done, arrivals[k] + o * static_cast<Nanos>(k + 1) + (start >= arrivals[k] ? own : 0));
  return done;
}

// Each rank's children in a tree, in the order it sends to them (barrier/tree.hpp).
std::vector<std::vector<int>> children_of(barrier::TreeKind kind, int processes, std::vector<int> order,
                                          const DedicatedCosts& costs) {
  const auto tree = barrier::build_tree({kind, processes, std::move(order), costs.latency, costs.overhead});
  std::vector<std::vector<int>> children(static_cast<std::size_t>(processes));
  for (int r = 0; r < processes; ++r) children[static_cast<std::size_t>(r)] = barrier::tree_children(tree, r);
  return children;
}

// A phase long enough that every arrival of a round comes after every process has started its phase: a
// round's times do not depend on the phase's length beyond it (now-streams.md 4.4).
constexpr Nanos kLongPhase = 1'000'000'000'000;

// One round of a root barrier on idle workstations (now.md 4.3, 4.5): each process starts its phase
// (`start`, from the round's origin), computes it, and sends its arrival to its parent in the registration
// tree once it has handled its children's (o to send, d on the wire, o to handle, each arrival
// interrupting computation). Returns when the root passes, beyond one phase; `order` gets the order in
// which the root handled its children's arrivals (by arrival, then by sending workstation, which is the
// rank's order on the lowest-numbered workstations the job schedulers give: now.md 3).
Nanos root_round(const std::vector<std::vector<int>>& arrive_children, const std::vector<Nanos>& start,
                 const DedicatedCosts& costs, std::vector<int>& order) {
  const Nanos o = costs.overhead;
  std::vector<int> top_down{0};
  for (std::size_t i = 0; i < top_down.size(); ++i)
    for (int child : arrive_children[static_cast<std::size_t>(top_down[i])]) top_down.push_back(child);
  std::vector<Nanos> done(start.size()), sent(start.size());  // when each has arrived, and its arrival lands
  for (auto r = top_down.rbegin(); r != top_down.rend(); ++r) {
    const auto rank = static_cast<std::size_t>(*r);
    std::vector<Nanos> arrivals;
    for (int child : arrive_children[rank]) arrivals.push_back(sent[static_cast<std::size_t>(child)]);
    done[rank] = work_done(start[rank], kLongPhase, arrivals, o);
    sent[rank] = done[rank] + o + costs.delay;
  }
  order = arrive_children[0];
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::pair(sent[static_cast<std::size_t>(a)], a) < std::pair(sent[static_cast<std::size_t>(b)], b);
  });
  return done[0] - kLongPhase;
}

// Each process's pass, from the root's: the root sends its notices one after another (o each) and
// passes when they are sent; a process handles its notice d + o after its parent's send ends, forwards
// it to its children (o each) and passes (now.md 4.3, 4.4). It starts its next phase then.
std::vector<Nanos> passes_after_root(const std::vector<std::vector<int>>& notify_children,
                                     const DedicatedCosts& costs) {
  const Nanos o = costs.overhead;
  std::vector<Nanos> notified(notify_children.size(), 0), passed(notify_children.size(), 0);
  std::vector<int> top_down{0};
  for (std::size_t i = 0; i < top_down.size(); ++i) {
    const auto rank = static_cast<std::size_t>(top_down[i]);
    const auto& children = notify_children[rank];
    for (std::size_t j = 0; j < children.size(); ++j) {
      const auto child = static_cast<std::size_t>(children[j]);
      notified[child] = notified[rank] + static_cast<Nanos>(j + 1) * o + costs.delay + o;
      top_down.push_back(children[j]);
    }
    passed[rank] = notified[rank] + static_cast<Nanos>(children.size()) * o;
  }
  return passed;
}

// The time root barriers add to a job's `barriers` phases, alone on idle workstations: the rounds from
// the first phase's simultaneous start (every process is dispatched at once), each round's processes
// starting where the previous one's notices let them, and the last notices. A round depends only on where
// its processes start, so once the starts repeat every later round is the same (at the second round for
// every tree but order-aware-skewed, whose tree follows the arrival order).
Nanos root_barrier_time(const config::NowJobProfile& profile, const DedicatedCosts& costs,
                        std::int64_t barriers) {
  const int p = profile.processes;
  const auto arrive = children_of(profile.barrier_arrive, p, {}, costs);
  const bool order_aware = profile.barrier_notify == barrier::TreeKind::OrderAwareSkewed;
  auto notify = children_of(profile.barrier_notify, p, {}, costs);
  std::vector<Nanos> start(static_cast<std::size_t>(p), 0);
  std::vector<int> order;
  Nanos total = 0;
  constexpr std::int64_t kRoundsFollowed = 4096;  // then the rest repeat the mean round (a cycling order)
  Nanos followed = 0;
  for (std::int64_t b = 0; b < barriers; ++b) {
    const Nanos pass = root_round(arrive, start, costs, order);
    total += pass;
    if (order_aware) notify = children_of(profile.barrier_notify, p, order, costs);
    auto next = passes_after_root(notify, costs);
    const std::int64_t left = barriers - 1 - b;
    if (next == start) {
      total += pass * left;
      break;
    }
    start = std::move(next);
    if (b > 0) followed += pass;
    if (b + 1 == kRoundsFollowed && left > 0) {
      total += static_cast<Nanos>(
          std::llround(static_cast<double>(followed) / static_cast<double>(b) * static_cast<double>(left)));
      break;
    }
  }
  return total + *std::max_element(start.begin(), start.end());
}

// The time barriers add to a job's phases on dedicated workstations (now-streams.md 4.4).
Nanos barrier_time(const config::NowJobProfile& profile, const DedicatedCosts& costs, std::int64_t barriers) {
  const int p = profile.processes;
  if (p < 2) return 0;  // a process alone passes its barriers at once
  if (profile.barrier_kind == config::BarrierKind::AllToAll) {
    // Approximation: each process sends P-1 arrivals and handles P-1, all on its own CPU, the last one
    // arriving d after it was sent.
    return barriers * (2 * (p - 1) * costs.overhead + costs.delay);
  }
  return root_barrier_time(profile, costs, barriers);
}

// The expected longest of P phase-length factors (now.md 4.1: each uniform on [2/(1+v), 2v/(1+v)],
// drawn per process): a barrier waits for the slowest process, a + (b - a) P / (P + 1).
double expected_slowest_factor(double imbalance, int processes) {
  if (imbalance <= 1.0 || processes < 2) return 1.0;
  const double low = 2.0 / (1.0 + imbalance);
  const double high = imbalance * low;
  return low + (high - low) * processes / (processes + 1.0);
}

// How long a process spins at a barrier before it blocks, for a process whose phase took its dedicated
// length, by the job's waiting algorithm (wait/now/now_wait_registry.cpp); none when it never blocks there
// (`spin`, or a gang local scheduler, under which processes own their slot and spin: now.md 5).
std::optional<Nanos> barrier_spin(const config::NowJobProfile& profile, const config::NowConfig& now,
                                  Nanos sync_interval) {
  if (sched::local_schedulers().at(now.scheduler.name).gang_matrix) return std::nullopt;
  wait::WaitPlatform platform{now.latency, now.overhead, now.context_switch(),
                              static_cast<Nanos>(std::llround(workload::imbalance_spread(profile.imbalance) *
                                                              static_cast<double>(sync_interval)))};
  platform.sync_interval = sync_interval;
  platform.imbalance = profile.imbalance;
  platform.processes = profile.processes;
  const auto algorithm = wait::make_now_wait(profile.wait, platform);
  if (algorithm->spins_forever(wait::WaitKind::Barrier)) return std::nullopt;
  wait::Observation seen;
  seen.kind = wait::WaitKind::Barrier;
  seen.phase_elapsed = sync_interval;
  seen.phase_dedicated = sync_interval;
  return algorithm->first_spin(seen);
}

// Under load imbalance, the expected number of context switches on a job's critical path from processes
// woken at barriers (now-streams.md 4.4). A process that waits at a barrier longer than its spin s blocks
// and pays W when the barrier's message wakes it (now.md 5, 6). With phases S x f, f uniform over a width
// w = (b - a) S, the wait of the process k-th from the last to arrive is the gap between the largest and
// the k-th largest of P uniform draws, Beta(k - 1, P - k + 2), so it exceeds s with probability
// P(Binomial(P, s / w) <= k - 2). Per barrier: the root blocked when the last arrival comes (its spin
// restarts with every arrival, so: the last gap exceeds s, and the root is not the last): W before it
// passes; per barrier but the last: the next phase's slowest process (any process but the root, whose W
// is counted already) blocked and starts W late; at the last barrier, a blocked process passes W after
// its notice.
double expected_barrier_wakes(int processes, double imbalance, Nanos spin, Nanos sync_interval,
                              std::int64_t barriers) {
  if (imbalance <= 1.0 || processes < 2) return 0;
  const double p = processes;
  const double low = 2.0 / (1.0 + imbalance);
  const double width = (imbalance * low - low) * static_cast<double>(sync_interval);
  const double x = static_cast<double>(spin) / width;
  if (x >= 1.0) return 0;
  // pmf(j) of Binomial(P, x); sum over k = 2..P of P(gap_k > s) = sum over j = 0..P-2 of pmf(j) (P - 1 - j).
  double last_gap = 0, gaps = 0;
  for (int j = 0; j <= processes - 2; ++j) {
    const double pmf = x <= 0 ? (j == 0 ? 1.0 : 0.0)
                              : std::exp(std::lgamma(p + 1) - std::lgamma(j + 1.0) - std::lgamma(p - j + 1) +
                                         j * std::log(x) + (p - j) * std::log1p(-x));
    if (j == 0) last_gap = pmf;
    gaps += pmf * (p - 1 - j);
  }
  const double blocks = gaps / p;  // a process drawn at random blocks
  const double root = (p - 1) / p * last_gap;
  const double late_start = (p - 1) / p * blocks;
  const double last = 1 - std::pow(1 - blocks, p - 1);
  return static_cast<double>(barriers) * root + static_cast<double>(barriers - 1) * late_start + last;
}

// The largest budget whose phase takes at most `target` (phase_time is nondecreasing in the budget), or
// the next one when that is nearer.
Nanos budget_for(const config::NowJobProfile& profile, const DedicatedCosts& costs, Nanos target) {
  if (target <= 0) return 0;
  Nanos low = 0,
        high =
            target;  // phase_time(b) >= b's computation share, so the budget is at most target x step / chunk
  while (phase_time(profile, costs, high) <= target) high *= 2;
  while (high - low > 1) {
    const Nanos mid = low + (high - low) / 2;
    (phase_time(profile, costs, mid) <= target ? low : high) = mid;
  }
  return target - phase_time(profile, costs, low) <= phase_time(profile, costs, high) - target ? low : high;
}

// Fills in the job's barriers and phase length so that its dedicated run time is `run_time`
// (now-streams.md 4.4).
// A job's barriers: one per class sync_interval of its run time, at least one (now-streams.md 4.4).
std::int64_t barriers_of(Nanos class_sync_interval, Nanos run_time) {
  return std::max<std::int64_t>(
      1, std::llround(static_cast<double>(run_time) / static_cast<double>(class_sync_interval)));
}

void size_phases(config::NowJobProfile& profile, const config::NowConfig& now, Nanos class_sync_interval,
                 Nanos run_time) {
  const DedicatedCosts costs = dedicated_costs(now);
  const auto barriers = barriers_of(class_sync_interval, run_time);
  profile.barriers = static_cast<int>(barriers);
  const Nanos fixed = costs.context_switch + barrier_time(profile, costs, barriers);
  const double slowest = expected_slowest_factor(profile.imbalance, profile.processes);
  // The wake-ups' expectation depends on the phase length it helps size: a few rounds reach its fixed
  // point (each changes the phase by W x the change in expected wakes / B, far below a nanosecond by then).
  double wakes = 0;
  for (int round = 0; round < 4; ++round) {
    const Nanos wake_time =
        static_cast<Nanos>(std::llround(wakes * static_cast<double>(costs.context_switch)));
    const Nanos per_phase = (run_time - fixed - wake_time) / barriers;  // the slowest process's phase
    const Nanos slowest_budget = budget_for(profile, costs, per_phase);
    // At least 1 ns: a run time shorter than the barriers' own cost cannot be matched (the job then takes
    // that cost).
    profile.sync_interval = std::max<Nanos>(1, std::llround(static_cast<double>(slowest_budget) / slowest));
    if (profile.imbalance <= 1.0) break;
    const auto spin = barrier_spin(profile, now, profile.sync_interval);
    if (!spin) break;
    wakes =
        expected_barrier_wakes(profile.processes, profile.imbalance, *spin, profile.sync_interval, barriers);
  }
}

// ---- classes (now-streams.md 4.3) ----

bool holds(const config::NowJobClass& c, std::int64_t processes) {
  return (!c.min_processes || processes >= *c.min_processes) &&
         (!c.max_processes || processes <= *c.max_processes);
}

std::string range_text(const config::NowJobClass& c) {
  return fmt::format("{}: {}..{}", c.name, c.min_processes ? std::to_string(*c.min_processes) : "1",
                     c.max_processes ? std::to_string(*c.max_processes) : "any");
}

// The classes whose range holds the job, in the order written (now-streams.md 4.3); throws when none may
// take it (under `random`, none of positive weight: the reader refuses weights <= 0, a trace built by hand
// may hold them).
std::vector<const config::NowJobClass*> classes_holding(const config::NowStream& stream,
                                                        const workload::SwfRecord& record) {
  std::vector<const config::NowJobClass*> candidates;
  double weights = 0;
  for (const auto& c : stream.classes) {
    if (!holds(c, record.processors)) continue;
    candidates.push_back(&c);
    weights += c.weight;
  }
  if (!candidates.empty() && (stream.class_rule != "random" || weights > 0)) return candidates;
  std::vector<std::string> ranges;
  for (const auto& c : stream.classes) ranges.push_back(range_text(c));
  throw config::InputError(fmt::format(
      "{}:{}: workload.stream.classes: expected a class{} for job {} of {} processes, got none (classes {})",
      stream.swf_given, record.line, stream.class_rule == "random" ? " of positive weight" : "",
      record.number, record.processors, fmt::join(ranges, ", ")));
}

// A job's run time after time_scale (at least 1 ns).
Nanos run_time_of(const config::NowStream& stream, const workload::SwfRecord& record) {
  return std::max<Nanos>(1, scaled_nanos(record.run_time, stream.time_scale));
}

// A job's barriers stay within config::limits::kMaxBarriers, as a closed workload's do.
void check_barriers(const config::NowStream& stream, const config::NowJobClass& job_class,
                    const workload::SwfRecord& record) {
  const Nanos run_time = run_time_of(stream, record);
  const std::int64_t barriers = barriers_of(job_class.profile.sync_interval, run_time);
  if (barriers <= config::limits::kMaxBarriers) return;
  throw config::InputError(fmt::format(
      "{}:{}: workload.stream.classes[{}].sync_interval: expected at most {} barriers per job (run time x "
      "time_scale / sync_interval; a longer sync_interval or a smaller workload.stream.time_scale), got {} "
      "for job {} ({:g} s / {:g} s)",
      stream.swf_given, record.line, &job_class - stream.classes.data(), config::limits::kMaxBarriers,
      barriers, record.number, static_cast<double>(run_time) / kNanosPerSecond,
      static_cast<double>(job_class.profile.sync_interval) / kNanosPerSecond));
}

const config::NowJobClass& class_for(const config::NowStream& stream, const workload::SwfRecord& record,
                                     std::mt19937_64& draws) {
  const auto candidates = classes_holding(stream, record);
  if (stream.class_rule == "random") {
    // By weight among the classes whose range holds the job (a choice: ranges left out hold every job,
    // so without them this is the plain weighted draw). One draw per job, in submit order.
    double weights = 0;
    for (const auto* c : candidates) weights += c->weight;
    const double u = util::uniform_open01(draws) * weights;
    double cumulative = 0;
    for (const auto* c : candidates) {
      cumulative += c->weight;
      if (u < cumulative) return *c;
    }
    return *candidates.back();  // u within rounding of the total
  }
  return *candidates.front();  // size: the first class, in the order written, whose range holds the job
}

// The records a stream takes (now-streams.md 4.1), in submit order, and those it skips.
struct Window {
  std::vector<const workload::SwfRecord*> taken;
  std::int64_t skipped_unusable = 0;   // records the parser skipped, within the window
  std::int64_t skipped_too_large = 0;  // records needing more processors than `workstations`
};

// The window: usable records first+1 .. first+jobs of the file, whatever the platform; those larger than
// the platform are then skipped and counted. A job's size is the parser's (SwfRecord::processors,
// workload/swf.cpp), which also skipped every record without a size or a run time and refused a file out
// of submit order. Throws when no job is left.
Window take_window(const workload::SwfTrace& trace, const config::NowStream& stream, int workstations) {
  Window out;
  int window_begin = 0;                              // the window lies after this line ...
  int window_end = std::numeric_limits<int>::max();  // ... and before this one
  int last_in_window = 0;
  std::int64_t usable = 0;
  for (const auto& record : trace.jobs) {
    if (usable < stream.first) {
      ++usable;
      window_begin = record.line;
      continue;
    }
    if (stream.jobs && usable >= stream.first + *stream.jobs) {
      window_end = last_in_window + 1;
      break;
    }
    ++usable;
    last_in_window = record.line;
    if (record.processors > workstations) {
      ++out.skipped_too_large;
    } else {
      out.taken.push_back(&record);
    }
  }
  for (const auto& skipped : trace.skipped)
    if (skipped.line > window_begin && skipped.line < window_end) ++out.skipped_unusable;
  if (out.taken.empty())
    throw config::InputError(fmt::format(
        "{}: workload.stream: expected at least one job of 1 to {} processes after the first {} usable "
        "records, got none ({} larger than the platform, {} unusable)",
        stream.swf_given, workstations, stream.first, out.skipped_too_large, out.skipped_unusable));
  return out;
}

// The submit span in seconds, before arrival_scale; `load` needs one above 0 (now-streams.md 4.2).
double submit_span(const config::NowStream& stream, const Window& window) {
  const double origin = window.taken.front()->submit;
  const double span = window.taken.back()->submit - origin;
  if (stream.load && span <= 0)
    throw config::InputError(fmt::format(
        "{}: workload.stream.load: expected a stream whose jobs are not all submitted at the same time "
        "(the offered load of one instant is undefined), got {} job(s) submitted at {} s; give "
        "arrival_scale instead",
        stream.swf_given, window.taken.size(), origin));
  return span;
}

// The stream's dedicated processor-nanoseconds, run times after time_scale (now-streams.md 4.2).
double stream_work(const config::NowStream& stream, const Window& window) {
  double work = 0;
  for (const auto* record : window.taken)
    work += static_cast<double>(scaled_nanos(record->run_time, stream.time_scale)) *
            static_cast<double>(record->processors);
  return work;
}

// The arrival_scale as applied: given, or derived from `load` (now-streams.md 4.2): the load is
// sum(run x processes) / (workstations x submit span after arrival_scale).
double applied_arrival_scale(const config::NowStream& stream, double work, double span, int workstations) {
  if (!stream.load) return stream.arrival_scale;
  return work / (static_cast<double>(workstations) * span * kNanosPerSecond * *stream.load);
}

// The last submit after arrival_scale plus the longest run after time_scale, the least simulated time the
// stream takes, must stay within config::limits::kMaxSimulatedTime: every scaled time (a submit, a run,
// an estimate) is then a 64-bit count of nanoseconds. Names the key whose term is the larger: time_scale
// for the runs, else load or arrival_scale, whichever set the submits' scale. `arrival_scale` 0: the
// runs alone (before `load` gives the scale, which needs the runs scaled).
void check_simulated_time(const config::NowStream& stream, const Window& window, double span,
                          double arrival_scale) {
  double longest = 0;  // seconds, before time_scale
  for (const auto* record : window.taken) longest = std::max(longest, record->run_time);
  const double arrivals = span * arrival_scale * kNanosPerSecond;
  const double runs = longest * stream.time_scale * kNanosPerSecond;
  const auto limit = static_cast<double>(config::limits::kMaxSimulatedTime);
  if (arrivals + runs <= limit) return;
  const char* key = runs >= arrivals ? "time_scale" : stream.load ? "load" : "arrival_scale";
  throw config::InputError(fmt::format(
      "{}: workload.stream.{}: expected a stream whose submit span x arrival_scale plus longest run x "
      "time_scale is at most {:g} s of simulated time (config/limits.hpp), got {:g} s x {:g} + {:g} s x {:g} "
      "= {:g} s",
      stream.swf_given, key, limit / kNanosPerSecond, span, arrival_scale, longest, stream.time_scale,
      (arrivals + runs) / kNanosPerSecond));
}

}  // namespace

void check_stream(const workload::SwfTrace& trace, const config::NowStream& stream, int workstations) {
  const Window window =
      take_window(trace, stream, workstations > 0 ? workstations : std::numeric_limits<int>::max());
  const double span = submit_span(stream, window);
  check_simulated_time(stream, window, span, stream.load ? 0.0 : stream.arrival_scale);
  // `load` scales the submits by the platform's size, known here only with platform.workstations.
  if (stream.load && workstations > 0)
    check_simulated_time(stream, window, span,
                         applied_arrival_scale(stream, stream_work(stream, window), span, workstations));
  // A job too large for a platform not yet known would be skipped whatever its class. Under `random`, every
  // class that may be drawn for a job is checked.
  if (workstations > 0)
    for (const auto* record : window.taken)
      for (const auto* job_class : classes_holding(stream, *record)) {
        check_barriers(stream, *job_class, *record);
        if (stream.class_rule != "random") break;  // size: the first class that holds it
      }
}

StreamBuild build_stream(const workload::SwfTrace& trace, const config::NowConfig& now, int workstations,
                         std::uint64_t seed) {
  if (!now.stream) throw std::invalid_argument("build_stream: the scenario has no workload.stream");
  const config::NowStream& stream = *now.stream;
  StreamBuild out;

  const Window window = take_window(trace, stream, workstations);
  out.skipped_unusable = window.skipped_unusable;
  out.skipped_too_large = window.skipped_too_large;
  const auto& taken = window.taken;
  if (stream.classes.empty())
    throw config::InputError("workload.stream.classes: expected at least one job class, got none");

  // Submit order is file order: the parser refuses a file whose submit times go down (workload/swf.cpp,
  // swf.html field 2).
  const double origin = taken.front()->submit;
  const double span = submit_span(stream, window);  // seconds, before arrival_scale

  // Offered load (now-streams.md 4.2): sum(run x processes) / (workstations x submit span), run times
  // after time_scale, submit span after arrival_scale. `load` gives the arrival_scale that reaches it.
  check_simulated_time(stream, window, span, stream.load ? 0.0 : stream.arrival_scale);
  const double work = stream_work(stream, window);  // processor-nanoseconds
  out.arrival_scale = applied_arrival_scale(stream, work, span, workstations);
  if (stream.load) check_simulated_time(stream, window, span, out.arrival_scale);

  std::mt19937_64 class_draws(util::mix_seed(seed, 0, 0));
  Nanos last_submit = 0;
  for (std::size_t i = 0; i < taken.size(); ++i) {
    const workload::SwfRecord& record = *taken[i];
    StreamJobSpec spec;
    spec.swf_number = record.number;
    spec.swf_line = record.line;
    spec.run_time = run_time_of(stream, record);
    spec.job.id = static_cast<int>(i);
    spec.job.submit = scaled_nanos(record.submit - origin, out.arrival_scale);
    spec.job.processes = static_cast<int>(record.processors);
    // EASY's estimate (now-streams.md 4.2): the requested time, or the run time when the log has none;
    // never below the run time, so that a job never outlives its estimate on dedicated workstations.
    // A requested time past the longest simulated time is as good as none: capped there, before rounding.
    const Nanos requested = record.requested_time > 0
                                ? scaled_nanos(std::min(record.requested_time * stream.time_scale,
                                                        config::limits::kMaxSimulatedTime / kNanosPerSecond),
                                               1.0)
                                : spec.run_time;
    spec.job.estimate = std::max(requested, spec.run_time);
    const config::NowJobClass& job_class = class_for(stream, record, class_draws);
    spec.job_class = job_class.name;
    spec.profile = job_class.profile;
    spec.profile.name = fmt::format("{}-{}", job_class.name, record.number);  // unique: class and SWF number
    spec.profile.processes = spec.job.processes;
    spec.profile.copies = 1;
    spec.profile.placement.clear();
    spec.profile.placement_origin.clear();
    check_barriers(stream, job_class, record);
    size_phases(spec.profile, now, job_class.profile.sync_interval, spec.run_time);
    last_submit = spec.job.submit;
    out.jobs.push_back(std::move(spec));
  }
  out.offered_load =
      last_submit > 0 ? work / (static_cast<double>(workstations) * static_cast<double>(last_submit)) : 0.0;
  return out;
}

}  // namespace cosched::now
