// An open workload's keys (issue 24; docs/scenario-format.md "Open workloads", docs/models/now-streams.md):
// workload.stream and the top-level job_scheduler.

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "config/input_error.hpp"
#include "config/keys.hpp"
#include "config/limits.hpp"
#include "now/footprint.hpp"
#include "now/stream_jobs.hpp"
#include "scenario/now_section.hpp"
#include "sched/jobs/job_scheduler_registry.hpp"
#include "util/json.hpp"
#include "workload/swf.hpp"

namespace cosched::config {
namespace {

const Names<NowClassRule> kClassRules = {{"size", NowClassRule::Size}, {"random", NowClassRule::Random}};

// A positive, finite factor.
double positive_scale(const Field& f) {
  const double value = f.number();
  // Bounded so that a scaled time stays far below the largest simulated time (config/limits.hpp).
  if (!(value > 0) || value > 1e6) f.fail("a positive factor up to 1000000, such as 0.5 or 2");
  return value;
}

}  // namespace

NowStream read_now_stream(const Field& f, const std::string& scenario_dir, int workstations,
                          NowStreamSize& size) {
  MapReader map(f,
                "a mapping with swf, classes and optionally first, jobs, load or arrival_scale, time_scale");
  NowStream stream;
  const auto swf = map.required("swf");
  stream.swf_given = swf.string();
  stream.swf = std::filesystem::path(resolve_input_file(swf, scenario_dir, "a Standard Workload Format file"))
                   .lexically_normal()
                   .string();
  const auto first = map.optional("first");
  if (first) stream.first = first->non_negative_integer();
  const auto jobs = map.optional("jobs");
  if (jobs) stream.jobs = jobs->positive_integer();
  const auto load = map.optional("load");
  const auto arrival_scale = map.optional("arrival_scale");
  if (load && arrival_scale)
    arrival_scale->error(
        "give either 'load' (arrival_scale is derived from it) or 'arrival_scale', not both");
  if (load) {
    stream.load = load->number();
    if (!(*stream.load > 0) || *stream.load > 1) load->fail("an offered load in (0, 1], such as 0.7");
  }
  if (arrival_scale) stream.arrival_scale = positive_scale(*arrival_scale);
  if (auto v = map.optional("time_scale")) stream.time_scale = positive_scale(*v);
  if (auto v = map.optional("bounded_slowdown_threshold"))
    stream.bounded_slowdown_threshold = static_cast<double>(duration(*v)) * 1e-9;
  if (auto v = map.optional("class_rule")) stream.class_rule = choice(*v, kClassRules);
  const auto classes = map.required("classes");
  const auto items = classes.items("a list of job classes");
  if (items.empty()) classes.error("at least one job class is needed");
  for (std::size_t i = 0; i < items.size(); ++i) stream.classes.push_back(read_now_job_class(items[i], i));
  map.finish();

  // The trace is read now, so that a malformed or unreadable file is refused before any run: its own
  // located line "FILE:LINE: field N (name): expected ..., got ..." (workload/swf.hpp).
  workload::SwfTrace trace;
  try {
    trace = workload::read_swf(stream.swf);
  } catch (const workload::SwfError& e) {
    throw InputError(e.what());
  } catch (const std::exception& e) {
    swf.fail(fmt::format("a readable Standard Workload Format file ({})", e.what()));
  }
  const auto usable = static_cast<std::int64_t>(trace.jobs.size());
  if (stream.first >= usable)
    (first ? *first : swf)
        .error(fmt::format("the SWF file has {} usable jobs; expected 'first' ({}) below that", usable,
                           stream.first));
  std::int64_t taken = 0, processes = 0;
  double first_submit = 0, last_submit = 0, longest = 0;
  for (std::int64_t j = stream.first; j < usable && (!stream.jobs || taken < *stream.jobs); ++j, ++taken) {
    const auto& r = trace.jobs[static_cast<std::size_t>(j)];
    const auto p = r.processors;  // the job's size as the parser set it (workload/swf.cpp)
    processes += p;
    size.process_seconds += static_cast<double>(p) * std::max(0.0, r.run_time) * stream.time_scale;
    if (taken == 0) first_submit = r.submit;
    last_submit = std::max(last_submit, r.submit);
    longest = std::max(longest, r.run_time * stream.time_scale);
  }
  if (!stream.load) size.run_seconds = (last_submit - first_submit) * stream.arrival_scale + longest;
  now::check_stream(taken, processes, swf);
  // What the run's build_stream would refuse and needs no run (an empty window, `load` over one instant, a
  // job no class takes): refused here by the same checks, so that validate and run agree.
  now::check_stream(trace, stream, workstations);
  return stream;
}

PolicyChoice read_job_scheduler(const Field& f) {
  MapReader map(f, "a mapping with 'policy' and optionally 'mpl'");
  auto choice = sched::job_schedulers().read(map).choice();
  map.finish();
  return choice;
}

nlohmann::ordered_json now_stream_json(const NowStream& stream) {
  nlohmann::ordered_json out;
  out["swf"] = stream.swf;
  out["first"] = stream.first;
  out["jobs"] = util::or_null(stream.jobs);
  out["load"] = util::or_null(stream.load);
  out["arrival_scale"] = stream.arrival_scale;
  out["time_scale"] = stream.time_scale;
  out["bounded_slowdown_threshold_s"] = stream.bounded_slowdown_threshold;
  out["class_rule"] = name_of(kClassRules, stream.class_rule);
  auto& classes = out["classes"] = nlohmann::ordered_json::array();
  for (const auto& c : stream.classes) {
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["weight"] = c.weight;
    j["min_processes"] = util::or_null(c.min_processes);
    j["max_processes"] = util::or_null(c.max_processes);
    auto profile = now_profile_json(c.profile);
    for (const char* key : {"name", "processes", "copies", "placement", "barriers"}) profile.erase(key);
    for (const auto& [key, value] : profile.items()) j[key] = value;
    classes.push_back(j);
  }
  return out;
}

}  // namespace cosched::config
