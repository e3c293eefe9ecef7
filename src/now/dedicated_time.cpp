#include "now/dedicated_time.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "barrier/tree.hpp"
#include "sched/now/local_scheduler_registry.hpp"
#include "wait/now/now_wait.hpp"
#include "workload/now_program.hpp"

namespace cosched::now {
namespace {

constexpr double kNanosPerSecond = 1e9;

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

}  // namespace

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

}  // namespace cosched::now
