#include "now/stream_jobs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "now/dedicated_time.hpp"
#include "util/normal.hpp"

namespace cosched::now {
namespace {

constexpr double kNanosPerSecond = 1e9;

Nanos scaled_nanos(double seconds, double scale) {
  return static_cast<Nanos>(std::llround(seconds * scale * kNanosPerSecond));
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
  if (!candidates.empty() && (stream.class_rule != config::NowClassRule::Random || weights > 0))
    return candidates;
  std::vector<std::string> ranges;
  for (const auto& c : stream.classes) ranges.push_back(range_text(c));
  throw config::InputError(fmt::format(
      "{}:{}: workload.stream.classes: expected a class{} for job {} of {} processes, got none (classes {})",
      stream.swf_given, record.line,
      stream.class_rule == config::NowClassRule::Random ? " of positive weight" : "", record.number,
      record.processors, fmt::join(ranges, ", ")));
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
  if (stream.class_rule == config::NowClassRule::Random) {
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
        if (stream.class_rule != config::NowClassRule::Random) break;  // size: the first class that holds it
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
