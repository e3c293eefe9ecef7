#include "now/stream_jobs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "barrier/tree.hpp"
#include "config/input_error.hpp"
#include "util/normal.hpp"
#include "workload/now_program.hpp"

namespace cosched::now {
namespace {

constexpr double kNanosPerSecond = 1e9;

// A record's size: its allocated processors (SWF field 5), or what it requested (field 8) when the log
// has no allocation, as the archive's cleaning rules and the parser do (docs/models/now-streams.md 4.1).
std::int64_t processors_of(const workload::SwfRecord& record) {
  return record.allocated_processors > 0 ? record.allocated_processors : record.requested_processors;
}

Nanos scaled_nanos(double seconds, double scale) {
  return static_cast<Nanos>(std::llround(seconds * scale * kNanosPerSecond));
}

// ---- a job's run time alone on dedicated workstations (docs/models/now-streams.md section 4.4) ----

// What the dedicated run time depends on, from the NOW model's rules (docs/models/now.md).
struct DedicatedCosts {
  Nanos overhead = 0;         // o: a send, a handling (now.md 2)
  Nanos delay = 0;            // d: a 1-byte message's latency plus its transfer time (now.md 2.1)
  Nanos read_round_trip = 0;  // 2L + 4o: the dedicated basis's step (workload/now_program.cpp)
  Nanos context_switch = 0;   // W: the first dispatch of each process (now.md 6)
};

DedicatedCosts dedicated_costs(const config::NowConfig& now) {
  DedicatedCosts costs;
  costs.overhead = now.overhead;
  costs.delay = static_cast<Nanos>(
      std::llround(static_cast<double>(now.latency) + kNanosPerSecond / now.bandwidth_bytes_per_second));
  costs.read_round_trip = 2 * now.latency + 4 * now.overhead;
  costs.context_switch = now.context_switch;
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
// and residual computation as workload::ProcessProgram::next_phase.
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

// The latest notification time of a tree of `processes` on an idle network (barrier/tree.hpp: the j-th
// send of a holder notified at t ends at t + j o, and its child handles the notice d + o later).
Nanos tree_time(barrier::TreeKind kind, int processes, const DedicatedCosts& costs) {
  const auto tree = barrier::build_tree({kind, processes, {}, costs.delay, costs.overhead});
  Nanos latest = 0;
  for (auto v : boost::make_iterator_range(boost::vertices(tree)))
    latest = std::max(latest, tree[v].notified);
  return latest;
}

// Barrier costs on dedicated workstations, beyond the phases' own time (now-streams.md 4.4):
// `first`: from the simultaneous end of the first phase until the root passes the first barrier;
// `between`: between two passes of the root, beyond one phase; `last`: from the root's last pass until
// the last process has passed.
struct BarrierCosts {
  Nanos first = 0;
  Nanos between = 0;
  Nanos last = 0;
};

BarrierCosts barrier_costs(const config::NowJobProfile& profile, const DedicatedCosts& costs) {
  const int p = profile.processes;
  const Nanos o = costs.overhead, d = costs.delay;
  if (p < 2) return {};  // a process alone passes its barriers at once
  if (profile.barrier_kind == config::BarrierKind::AllToAll) {
    // Approximation: each process sends P-1 arrivals and handles P-1, all on its own CPU, the last one
    // arriving d after it was sent.
    const Nanos each = 2 * (p - 1) * o + d;
    return {each, each, 0};
  }
  // Root barriers. Gathering the arrivals takes as long as notifying through the same tree reversed (the
  // flat tree's: o + d + (P-1) o, P-1 arrivals handled one after another at the root).
  const Nanos gather = tree_time(profile.barrier_arrive, p, costs);
  const Nanos notify = tree_time(profile.barrier_notify, p, costs);
  if (profile.barrier_arrive == barrier::TreeKind::Flat &&
      profile.barrier_notify == barrier::TreeKind::Flat) {
    // Exact (derived in now-streams.md 4.4): after a pass at R the root sends P-1 notices (o each) and
    // computes; rank j starts its phase at R + (j+1) o + d, and its arrival reaches the root at
    // R + T + 2d + (j+2) o, one every o, each handled in o. The root passes at R + T + 2d + (P+2) o, or,
    // when the arrivals come while it still computes (P-1) o > 2d + 3o, after its computation, prolonged
    // by the P-1 handlings: R + T + (2P-2) o.
    return {gather, std::max(2 * d + (p + 2) * o, (2 * p - 2) * o), notify};
  }
  // Approximation for the trees: a gathering and a notification per barrier.
  return {gather, gather + notify, notify};
}

// The expected longest of P phase-length factors (now.md 4.1: each uniform on [2/(1+v), 2v/(1+v)],
// drawn per process): a barrier waits for the slowest process, a + (b - a) P / (P + 1).
double expected_slowest_factor(double imbalance, int processes) {
  if (imbalance <= 1.0 || processes < 2) return 1.0;
  const double low = 2.0 / (1.0 + imbalance);
  const double high = imbalance * low;
  return low + (high - low) * processes / (processes + 1.0);
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
void size_phases(config::NowJobProfile& profile, const config::NowConfig& now, Nanos class_sync_interval,
                 Nanos run_time) {
  const DedicatedCosts costs = dedicated_costs(now);
  const auto barriers = std::max<std::int64_t>(
      1, std::llround(static_cast<double>(run_time) / static_cast<double>(class_sync_interval)));
  const BarrierCosts barrier = barrier_costs(profile, costs);
  const Nanos fixed = costs.context_switch + barrier.first + (barriers - 1) * barrier.between + barrier.last;
  const Nanos per_phase = (run_time - fixed) / barriers;  // the slowest process's phase
  const Nanos slowest_budget = budget_for(profile, costs, per_phase);
  profile.barriers = static_cast<int>(barriers);
  // At least 1 ns: a run time shorter than the barriers' own cost cannot be matched (the job then takes
  // that cost).
  profile.sync_interval =
      std::max<Nanos>(1, std::llround(static_cast<double>(slowest_budget) /
                                      expected_slowest_factor(profile.imbalance, profile.processes)));
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

const config::NowJobClass& class_for(const config::NowStream& stream, const workload::SwfRecord& record,
                                     std::int64_t processes, std::mt19937_64& draws) {
  std::vector<const config::NowJobClass*> candidates;
  double weights = 0;
  for (const auto& c : stream.classes) {
    if (!holds(c, processes)) continue;
    candidates.push_back(&c);
    weights += c.weight;
  }
  if (stream.class_rule == "random") {
    // By weight among the classes whose range holds the job (a choice: ranges left out hold every job,
    // so without them this is the plain weighted draw). One draw per job, in submit order.
    if (!candidates.empty() && weights > 0) {
      const double u = util::uniform_open01(draws) * weights;
      double cumulative = 0;
      for (const auto* c : candidates) {
        cumulative += c->weight;
        if (u < cumulative) return *c;
      }
      return *candidates.back();  // u within rounding of the total
    }
  } else if (!candidates.empty()) {
    return *candidates.front();  // size: the first class, in the order written, whose range holds the job
  }
  std::vector<std::string> ranges;
  for (const auto& c : stream.classes) ranges.push_back(range_text(c));
  throw config::InputError(fmt::format(
      "{}:{}: workload.stream.classes: expected a class{} for job {} of {} processes, got none (classes {})",
      stream.swf_given, record.line, stream.class_rule == "random" ? " of positive weight" : "",
      record.number, processes, fmt::join(ranges, ", ")));
}

}  // namespace

StreamBuild build_stream(const workload::SwfTrace& trace, const config::NowConfig& now, int workstations,
                         std::uint64_t seed) {
  if (!now.stream) throw std::invalid_argument("build_stream: the scenario has no workload.stream");
  const config::NowStream& stream = *now.stream;
  StreamBuild out;

  // The window (now-streams.md 4.1): usable records first+1 .. first+jobs of the file, whatever the
  // platform; those larger than the platform are then skipped and counted.
  struct Taken {
    const workload::SwfRecord* record;
    std::int64_t processors;
  };
  std::vector<Taken> taken;
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
    const std::int64_t processors = processors_of(record);
    if (processors < 1 || record.run_time <= 0) {
      ++out.skipped_unusable;  // the parser skips these; a trace built by hand may hold them
    } else if (processors > workstations) {
      ++out.skipped_too_large;
    } else {
      taken.push_back({&record, processors});
    }
  }
  for (const auto& skipped : trace.skipped)
    if (skipped.line > window_begin && skipped.line < window_end) ++out.skipped_unusable;
  if (taken.empty())
    throw config::InputError(fmt::format(
        "{}: workload.stream: expected at least one job of 1 to {} processes after the first {} usable "
        "records, got none ({} larger than the platform, {} unusable)",
        stream.swf_given, workstations, stream.first, out.skipped_too_large, out.skipped_unusable));
  if (stream.classes.empty())
    throw config::InputError("workload.stream.classes: expected at least one job class, got none");

  // Submit order (SWF files are sorted by submit time; a file that is not is put in that order, ties in
  // file order).
  std::stable_sort(taken.begin(), taken.end(),
                   [](const Taken& a, const Taken& b) { return a.record->submit < b.record->submit; });
  const double origin = taken.front().record->submit;
  const double span = taken.back().record->submit - origin;  // seconds, before arrival_scale

  // Offered load (now-streams.md 4.2): sum(run x processes) / (workstations x submit span), run times
  // after time_scale, submit span after arrival_scale. `load` gives the arrival_scale that reaches it.
  double work = 0;  // processor-nanoseconds
  for (const auto& t : taken)
    work += static_cast<double>(scaled_nanos(t.record->run_time, stream.time_scale)) *
            static_cast<double>(t.processors);
  out.arrival_scale = stream.arrival_scale;
  if (stream.load) {
    if (span <= 0)
      throw config::InputError(fmt::format(
          "{}: workload.stream.load: expected a stream whose jobs are not all submitted at the same time "
          "(the offered load of one instant is undefined), got {} job(s) submitted at {} s; give "
          "arrival_scale instead",
          stream.swf_given, taken.size(), origin));
    out.arrival_scale = work / (static_cast<double>(workstations) * span * kNanosPerSecond * *stream.load);
  }

  std::mt19937_64 class_draws(util::mix_seed(seed, 0, 0));
  Nanos last_submit = 0;
  for (std::size_t i = 0; i < taken.size(); ++i) {
    const workload::SwfRecord& record = *taken[i].record;
    StreamJobSpec spec;
    spec.swf_number = record.number;
    spec.swf_line = record.line;
    spec.run_time = std::max<Nanos>(1, scaled_nanos(record.run_time, stream.time_scale));
    spec.job.id = static_cast<int>(i);
    spec.job.submit = scaled_nanos(record.submit - origin, out.arrival_scale);
    spec.job.processes = static_cast<int>(taken[i].processors);
    // EASY's estimate (now-streams.md 4.2): the requested time, or the run time when the log has none;
    // never below the run time, so that a job never outlives its estimate on dedicated workstations.
    const Nanos requested =
        record.requested_time > 0 ? scaled_nanos(record.requested_time, stream.time_scale) : spec.run_time;
    spec.job.estimate = std::max(requested, spec.run_time);
    const config::NowJobClass& job_class = class_for(stream, record, taken[i].processors, class_draws);
    spec.job_class = job_class.name;
    spec.profile = job_class.profile;
    spec.profile.name = job_class.name;
    spec.profile.processes = spec.job.processes;
    spec.profile.copies = 1;
    spec.profile.placement.clear();
    spec.profile.placement_origin.clear();
    size_phases(spec.profile, now, job_class.profile.sync_interval, spec.run_time);
    last_submit = spec.job.submit;
    out.jobs.push_back(std::move(spec));
  }
  out.offered_load =
      last_submit > 0 ? work / (static_cast<double>(workstations) * static_cast<double>(last_submit)) : 0.0;
  return out;
}

}  // namespace cosched::now
