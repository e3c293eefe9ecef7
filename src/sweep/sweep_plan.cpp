#include "sweep/sweep_plan.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>

#include "config/field.hpp"
#include "config/input_error.hpp"
#include "metrics/result_files.hpp"
#include "scenario/loader.hpp"
#include "scenario/smp_section.hpp"
#include "util/normal.hpp"

namespace cosched::sweep {
namespace {

namespace fs = std::filesystem;

// Runs a sweep may expand into: far more than a figure needs, few enough to validate each one.
constexpr std::size_t kMaxRuns = 1'000'000;

std::string flow_yaml(const YAML::Node& node) {
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

// 64-bit FNV-1a: stable across platforms and versions, unlike std::hash.
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::optional<std::int64_t> integer(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// One axis: its dotted path and its values, each a YAML node as written.
struct Axis {
  std::string path;
  config::Field field;
  std::vector<YAML::Node> values;
};

Axis read_axis(const config::Field& f, const std::string& path) {
  Axis axis{path, f, {}};
  const YAML::Node& node = f.node();
  if (node.IsSequence()) {
    for (const auto& item : f.items("a list of values")) axis.values.push_back(item.node());
  } else if (node.IsScalar()) {
    bool is_range = false;
    std::vector<std::int64_t> range;
    try {
      range = parse_range(node.Scalar(), is_range);
    } catch (const std::invalid_argument& e) {
      f.fail(fmt::format("a range A..B or A..B:STEP with integers and STEP > 0 ({})", e.what()));
    }
    if (is_range) {
      for (auto value : range) axis.values.push_back(YAML::Node(value));
    } else {
      axis.values.push_back(node);
    }
  } else {
    f.fail("a list of values, a range such as 0..200:10, or a single value");
  }
  if (axis.values.empty()) f.fail("at least one value");
  return axis;
}

std::string resolve_base(const config::Field& f, const std::string& sweep_dir) {
  const fs::path given(f.string());
  for (const fs::path& candidate : {given.is_relative() ? fs::path(sweep_dir) / given : given, given}) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return fs::absolute(candidate).lexically_normal().string();
  }
  f.fail(
      "a scenario file that exists (relative to the sweep file, or the current directory), or an "
      "inline scenario mapping");
}

std::vector<std::optional<std::uint64_t>> read_seeds(const config::Field& f) {
  std::vector<std::optional<std::uint64_t>> seeds;
  if (f.is_sequence()) {
    for (const auto& item : f.items("a list of seeds")) seeds.push_back(item.seed());
  } else {
    const auto count = f.positive_integer();
    if (count > 100'000) f.fail("a number of seeds up to 100000, or a list of seeds");
    for (std::int64_t s = 1; s <= count; ++s) seeds.push_back(static_cast<std::uint64_t>(s));
  }
  if (seeds.empty()) f.fail("at least one seed");
  return seeds;
}

// series: the thesis's random permutation mode (Tsafrir 5.1.5).
constexpr std::int64_t kMaxSeriesThreads = 1'000'000;
constexpr int kMaxRepresentativeAttempts = 10'000;
// A run receives its jobs on its command line (one --set value, which Linux limits to 128 KiB), and a
// sequence of k jobs plans k runs holding k^2/2 jobs in all: at most this many jobs per sequence (the
// thesis's series have at most 320: N = CPU# x 10 threads, 5.1.5 and 8.2).
constexpr std::size_t kMaxSeriesJobs = 500;
// The stream the sequence is drawn from, apart from the runs' own streams.
constexpr std::uint64_t kSeriesStream = 0x5E81E5'00000001ULL;
const char* const kSeriesPath = "series.threads";  // the column of results.csv with a prefix's thread count

struct Series {
  std::int64_t threads = 0;  // N: jobs are drawn until their threads exceed N
  std::string classify;      // "", threads, compute or sigma
  std::vector<std::string> classes;
  std::optional<config::Field> classes_field;
  bool representatives = false;
};

void read_series_keys(const config::Field& f, Series& series) {
  config::MapReader reader(
      f, "a series mapping with threads, and optionally classify, classes, representatives");
  if (auto v = reader.optional("threads")) {
    series.threads = v->positive_integer();
    if (series.threads > kMaxSeriesThreads)
      v->fail(fmt::format("a positive thread count up to {}", kMaxSeriesThreads));
  }
  if (auto v = reader.optional("classify")) {
    series.classify = v->scalar("threads, compute or sigma");
    if (series.classify != "threads" && series.classify != "compute" && series.classify != "sigma")
      v->fail(
          "threads, compute or sigma (the job-profile key whose distribution entries are the job classes)");
  }
  if (auto v = reader.optional("classes")) {
    series.classes.clear();
    std::set<std::string> seen;
    for (const auto& item : v->items("a list of job-class names")) {
      const std::string name = item.string();
      if (name.empty() || name.find('#') != std::string::npos || name.find('\n') != std::string::npos)
        item.fail("a non-empty class name without '#' (job names are <class>#<place>)");
      if (!seen.insert(name).second) item.error("a class name given twice; expected distinct names");
      series.classes.push_back(name);
    }
    if (series.classes.empty()) v->fail("a non-empty list of job-class names");
    series.classes_field = *v;
  }
  if (auto v = reader.optional("representatives")) series.representatives = v->boolean();
  reader.finish();
}

// One drawn job of a sequence: its class, its thread count and its profile as flow YAML.
struct SeriesJob {
  std::size_t job_class = 0;
  int threads = 0;
  std::string yaml;
};

// Draws the job sequence j1..jk of thesis 5.1.5 for `seed` from the base's job profile (its keys given as
// distributions drawn anew for each job): jobs are added until their threads exceed N.
std::vector<SeriesJob> draw_series(const Series& series, const config::Field& series_field,
                                   const config::Scenario& scenario, const YAML::Node& document,
                                   std::uint64_t seed, const std::string& label) {
  const auto* smp = std::get_if<config::SmpConfig>(&scenario.model_config);
  if (!smp)
    series_field.error(
        fmt::format("{}: the base scenario is model {}; expected smp (a series draws SMP jobs, "
                    "Tsafrir 5.1.5)",
                    label, scenario.model));
  if (smp->jobs.size() != 1)
    series_field.error(
        fmt::format("{}: the base scenario has {} job profiles; expected exactly one, the "
                    "profile each job of the series is drawn from",
                    label, smp->jobs.size()));
  const config::SmpJobProfile& profile = smp->jobs.front();
  if (profile.copies != 1)
    series_field.error(
        fmt::format("{}: the base's job profile has copies: {}; expected 1 (a series adds "
                    "jobs one at a time)",
                    label, profile.copies));
  const std::optional<workload::Distribution>& from = series.classify == "threads"   ? profile.threads_from
                                                      : series.classify == "compute" ? profile.compute_from
                                                                                     : profile.sigma_from;
  const workload::Distribution* classifier = !series.classify.empty() && from ? &*from : nullptr;
  const std::size_t class_count = classifier ? classifier->entries().size() : 1;
  if (!series.classes.empty() && series.classes.size() != class_count)
    series.classes_field->error(fmt::format(
        "{}: {} class names, but {} has {} {}; expected one name per entry", label, series.classes.size(),
        series.classify.empty() ? "the series (no classify)" : "the profile's " + series.classify,
        class_count, classifier ? "distribution entries" : "class (it is not a distribution)"));
  auto class_name = [&](std::size_t index) -> std::string {
    if (!series.classes.empty()) return series.classes[index];
    if (series.classify.empty()) return profile.name;
    if (classifier) return series.classify + "=" + classifier->entry_text(index);
    return series.classify + "=" +
           (series.classify == "threads"   ? std::to_string(profile.threads)
            : series.classify == "compute" ? profile.compute_given
                                           : profile.sigma.given);
  };
  const YAML::Node template_node = document["workload"]["jobs"][0];
  std::mt19937_64 engine(util::mix_seed(seed, kSeriesStream, 0));
  auto draw_one = [&]() {
    config::SmpJobProfile job = profile;
    const auto drawn = config::draw_job_values(job, smp->quantum, engine);
    SeriesJob out;
    const auto entry = series.classify == "threads"   ? drawn.threads_entry
                       : series.classify == "compute" ? drawn.compute_entry
                                                      : drawn.sigma_entry;
    out.job_class = classifier ? entry.value_or(0) : 0;
    out.threads = job.threads;
    YAML::Node node = YAML::Clone(template_node);
    node.remove("copies");
    node["threads"] = job.threads;
    node["compute"] = job.compute_given;
    if (node["sigma"]) node["sigma"] = job.sigma.given;
    return std::make_pair(out, node);  // named, and written out, once its place is known
  };
  std::vector<std::pair<SeriesJob, YAML::Node>> jobs;
  std::int64_t total = 0;
  if (series.representatives && class_count > 1) {
    // Thesis 9.2: "a representative of each job-class must appear in their beginning (i.e. if there are 3
    // job-classes, then we will find a job from each such class within the first 3 places)". The first C
    // jobs are drawn again until they hold every class.
    for (int attempt = 0;; ++attempt) {
      if (attempt == kMaxRepresentativeAttempts)
        series_field.error(
            fmt::format("{}: representatives: {} draws of the first {} jobs never held one job "
                        "of each class; expected classes likely enough to meet in {} jobs",
                        label, kMaxRepresentativeAttempts, class_count, class_count));
      jobs.clear();
      std::set<std::size_t> held;
      for (std::size_t c = 0; c < class_count; ++c) {
        jobs.push_back(draw_one());
        held.insert(jobs.back().first.job_class);
      }
      if (held.size() == class_count) break;
    }
    for (const auto& job : jobs) total += job.first.threads;
  }
  while (total <= series.threads) {  // thesis 5.1.5: "up till the point where the total ... exceeds N"
    if (jobs.size() == kMaxSeriesJobs)
      series_field.error(fmt::format(
          "{}: threads: {}: the sequence had {} jobs with {} threads; expected N small enough to be exceeded "
          "within {} jobs (each run's jobs go on its command line)",
          label, series.threads, jobs.size(), total, kMaxSeriesJobs));
    jobs.push_back(draw_one());
    total += jobs.back().first.threads;
  }
  std::vector<SeriesJob> out;
  for (std::size_t m = 0; m < jobs.size(); ++m) {
    auto& [job, node] = jobs[m];
    node["name"] = fmt::format("{}#{}", class_name(job.job_class), m + 1);
    job.yaml = flow_yaml(node);
    out.push_back(job);
  }
  return out;
}

}  // namespace

std::vector<std::int64_t> parse_range(const std::string& text, bool& is_range) {
  is_range = false;
  const auto dots = text.find("..");
  if (dots == std::string::npos) return {};
  is_range = true;
  const auto colon = text.find(':', dots);
  const auto first = integer(text.substr(0, dots));
  const auto last =
      integer(text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2));
  const auto step =
      colon == std::string::npos ? std::optional<std::int64_t>(1) : integer(text.substr(colon + 1));
  if (!first || !last || !step) throw std::invalid_argument("not integers");
  if (*step <= 0) throw std::invalid_argument("STEP must be positive");
  if (*last < *first) throw std::invalid_argument("B is below A");
  if ((*last - *first) / *step >= static_cast<std::int64_t>(kMaxRuns))
    throw std::invalid_argument(fmt::format("more than {} values", kMaxRuns));
  std::vector<std::int64_t> out;
  for (std::int64_t v = *first; v <= *last; v += *step) out.push_back(v);
  return out;
}

SweepPlan expand_sweep(const std::string& sweep_file, const std::string& out_dir, bool quick) {
  YAML::Node document = config::read_yaml_mapping(sweep_file, "sweep", "'base' and 'axes'");
  config::Source source{sweep_file, {}, {}};
  config::MapReader top(config::Field(document, {}, &source), "a sweep mapping with base, axes and seeds");
  SweepPlan plan;
  const std::string sweep_dir = fs::path(sweep_file).parent_path().string();

  auto base = top.required("base");
  if (base.is_map()) {
    fs::create_directories(out_dir);
    plan.base_file = fs::absolute(fs::path(out_dir) / "base.yaml").string();
    metrics::write_atomically(plan.base_file, "# The inline base scenario of " + sweep_file + "\n" +
                                                  YAML::Dump(base.node()) + "\n");
  } else {
    plan.base_file = resolve_base(base, sweep_dir);
  }

  // Axes, then zip groups: each group is one dimension of the product, in the place of its first axis.
  std::vector<Axis> axes;
  if (auto f = top.optional("axes")) {
    config::MapReader reader(*f, "a mapping from dotted scenario paths to values");
    for (const auto& entry : f->node()) {
      const std::string path = entry.first.Scalar();
      axes.push_back(read_axis(*reader.optional(path), path));
    }
  }
  std::vector<std::vector<std::size_t>> dimensions;  // axis indices varying together
  std::set<std::string> zipped;                      // paths of the axes in a zip group
  if (auto f = top.optional("zip")) {
    for (const auto& group : f->items("a list of groups, each a list of axis paths")) {
      std::vector<std::size_t> members;
      for (const auto& item : group.items("a list of axis paths that vary together")) {
        const std::string path = item.string();
        auto it = std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.path == path; });
        if (it == axes.end()) item.fail("the path of an axis given under 'axes'");
        if (zipped.count(path)) item.error("this axis is already in a zip group");
        const auto index = static_cast<std::size_t>(it - axes.begin());
        if (!members.empty() && axes[index].values.size() != axes[members[0]].values.size())
          item.error(fmt::format("has {} values, but {} has {}: axes zipped together need as many values",
                                 axes[index].values.size(), axes[members[0]].path,
                                 axes[members[0]].values.size()));
        members.push_back(index);
      }
      if (members.empty()) group.fail("a non-empty list of axis paths");
      for (auto m : members) zipped.insert(axes[m].path);
      dimensions.push_back(members);
    }
  }
  {
    // Order the dimensions by their first axis's place in 'axes'; every axis not zipped is its own.
    std::vector<std::vector<std::size_t>> ordered;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      auto group = std::find_if(dimensions.begin(), dimensions.end(),
                                [a](const auto& members) { return members.front() == a; });
      if (group != dimensions.end()) {
        ordered.push_back(*group);
      } else if (!zipped.count(axes[a].path)) {
        ordered.push_back({a});
      }
    }
    dimensions = std::move(ordered);
  }
  for (const auto& axis : axes) plan.axis_paths.push_back(axis.path);

  std::vector<std::optional<std::uint64_t>> seeds{std::nullopt};  // the scenario's own seed
  // An axis over the scenario's `seed` is the runs' seeds: with `seeds` too, one would undo the other.
  const bool seed_axis =
      std::any_of(axes.begin(), axes.end(), [](const Axis& a) { return a.path == "seed"; });
  auto refuse_seed_axis = [&](const config::Field& f) {
    if (seed_axis)
      f.error(
          "the axis 'seed' already sets each run's seed; expected either seeds or an axis over seed, "
          "not both");
  };
  if (auto f = top.optional("seeds")) {
    refuse_seed_axis(*f);
    seeds = read_seeds(*f);
  }
  std::optional<Series> series;
  auto series_field = top.optional("series");
  if (series_field) {
    series.emplace();
    read_series_keys(*series_field, *series);
    if (series->threads == 0)
      series_field->error("missing required key 'threads' (N, the thread count to exceed)");
    plan.axis_paths.insert(plan.axis_paths.begin(), kSeriesPath);  // first: the load of the series' figures
  }
  // `quick`: the reduced variant that --quick runs, replacing the values of some axes and the seeds.
  auto quick_section = top.optional("quick");
  if (quick_section) {
    config::MapReader reader(*quick_section, "a mapping with 'axes', 'seeds' and/or 'series' for --quick");
    if (auto f = reader.optional("axes")) {
      config::MapReader quick_axes(*f, "a mapping from axis paths to their --quick values");
      for (const auto& entry : f->node()) {
        const std::string path = entry.first.Scalar();
        const auto field = *quick_axes.optional(path);
        auto it = std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.path == path; });
        if (it == axes.end())
          field.error("not an axis of the sweep; expected the path of an axis under 'axes'");
        if (quick) it->values = read_axis(field, path).values;
      }
    }
    if (auto f = reader.optional("seeds")) {
      refuse_seed_axis(*f);
      auto quick_seeds = read_seeds(*f);
      if (quick) seeds = quick_seeds;
    }
    if (auto f = reader.optional("series")) {
      if (!series) f->error("the sweep has no 'series' for --quick to change");
      Series quick_series = *series;
      read_series_keys(*f, quick_series);
      if (quick) series = quick_series;
    }
    reader.finish();
  } else if (quick) {
    top.field().error("no 'quick' section; expected one to run with --quick");
  }
  top.finish();
  if (quick) {  // zipped axes must still agree
    for (const auto& members : dimensions)
      for (auto m : members)
        if (axes[m].values.size() != axes[members.front()].values.size())
          axes[m].field.error(fmt::format(
              "has {} values with --quick, but {} has {}: axes zipped together need "
              "as many values",
              axes[m].values.size(), axes[members.front()].path, axes[members.front()].values.size()));
  }

  std::size_t total = seeds.size();
  for (const auto& dimension : dimensions) {
    total *= axes[dimension.front()].values.size();
    if (total > kMaxRuns)
      axes[dimension.front()].field.error(fmt::format("the sweep would have more than {} runs", kMaxRuns));
  }

  // Expansion: the first dimension varies slowest, seeds fastest.
  std::vector<std::size_t> position(dimensions.size(), 0);
  std::map<std::string, std::size_t> seen;  // run id -> run index
  // Each warning once, in the order first given, with the first run that gave it and how many runs did.
  struct Warned {
    std::string text, first;
    std::size_t count = 0;
  };
  std::vector<Warned> warned;
  for (std::size_t n = 0; n < total / seeds.size(); ++n) {
    std::size_t rest = n;
    for (std::size_t d = dimensions.size(); d-- > 0;) {
      const auto size = axes[dimensions[d].front()].values.size();
      position[d] = rest % size;
      rest /= size;
    }
    std::vector<std::string> values(axes.size()), sets;
    for (std::size_t d = 0; d < dimensions.size(); ++d)
      for (auto a : dimensions[d]) values[a] = flow_yaml(axes[a].values[position[d]]);
    for (std::size_t a = 0; a < axes.size(); ++a) sets.push_back(axes[a].path + "=" + values[a]);
    std::string sets_text;
    for (const auto& set : sets) sets_text += " " + set;
    for (const auto& seed : seeds) {
      const std::string label = fmt::format("run {}{}", plan.runs.size(), sets_text);
      auto load = [&](const std::vector<std::string>& with, const std::string& what) {
        try {
          auto scenario = config::load_scenario(plan.base_file, with);
          for (const auto& warning : scenario.warnings) {
            auto it = std::find_if(warned.begin(), warned.end(),
                                   [&](const Warned& w) { return w.text == warning; });
            if (it == warned.end()) it = warned.insert(warned.end(), {warning, what});
            ++it->count;
          }
          return scenario;
        } catch (const config::InputError& e) {
          throw config::InputError(fmt::format("{}: {}: {}", sweep_file, what, e.what()));
        }
      };
      auto add = [&](PlannedRun run, config::Scenario scenario, const std::string& what) {
        if (seed) config::set_seed(scenario, *seed);
        run.seed = scenario.seed;
        run.id = fmt::format("{:016x}", fnv1a(config::resolved_json(scenario).dump()));
        if (auto [it, inserted] = seen.emplace(run.id, plan.runs.size()); !inserted)
          throw config::InputError(
              fmt::format("{}: {} resolves to the same scenario as run {}; expected every "
                          "run of a sweep to differ",
                          sweep_file, what, it->second));
        if (plan.runs.size() >= kMaxRuns)
          throw config::InputError(
              fmt::format("{}: the sweep would have more than {} runs", sweep_file, kMaxRuns));
        plan.runs.push_back(std::move(run));
      };
      if (!series) {
        PlannedRun run;
        run.values = values;
        run.sets = sets;
        auto scenario = load(sets, label);
        add(std::move(run), std::move(scenario), label);
        continue;
      }
      // The series: one job sequence per seed (and axis values), and a run per prefix j1..ji.
      const auto base_scenario = load(sets, label);
      const std::uint64_t sequence_seed = seed ? *seed : base_scenario.seed;
      config::Source source{plan.base_file, {}, {}};
      const auto jobs =
          draw_series(*series, *series_field, base_scenario,
                      config::scenario_document(plan.base_file, sets, source), sequence_seed, label);
      // Every prefix's scenario is the longest one's with its later jobs left out: the longest is loaded
      // and checked (a prefix only removes jobs, which no check of the scenario refuses), and each prefix's
      // id is derived from that scenario cut to its jobs, as `cosched run` resolves it.
      std::vector<std::string> lists(jobs.size());
      std::string list;
      for (std::size_t i = 0; i < jobs.size(); ++i) lists[i] = list += (i ? ", " : "") + jobs[i].yaml;
      auto longest_sets = sets;
      longest_sets.push_back("workload.jobs=[" + lists.back() + "]");
      const auto longest =
          load(longest_sets, fmt::format("run {}{} (series jobs 1..{})", plan.runs.size() + jobs.size() - 1,
                                         sets_text, jobs.size()));
      std::int64_t threads = 0;
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        threads += jobs[i].threads;
        PlannedRun run;
        run.values = values;
        run.values.insert(run.values.begin(), std::to_string(threads));
        run.sets = sets;
        run.sets.push_back("workload.jobs=[" + lists[i] + "]");
        auto scenario = longest;
        std::get<config::SmpConfig>(scenario.model_config).jobs.resize(i + 1);
        add(std::move(run), std::move(scenario),
            fmt::format("run {}{} (series jobs 1..{})", plan.runs.size(), sets_text, i + 1));
      }
    }
  }
  for (const auto& w : warned)
    plan.warnings.push_back(w.count == 1
                                ? fmt::format("{}: {}", w.first, w.text)
                                : fmt::format("{} and {} other run(s): {}", w.first, w.count - 1, w.text));
  return plan;
}

void write_plan(const SweepPlan& plan, const std::string& out_dir) {
  nlohmann::ordered_json json;
  json["base"] = plan.base_file;
  json["axes"] = plan.axis_paths;
  auto& runs = json["runs"] = nlohmann::ordered_json::array();
  for (const auto& run : plan.runs)
    runs.push_back({{"id", run.id}, {"seed", run.seed}, {"values", run.values}, {"sets", run.sets}});
  fs::create_directories(out_dir);
  metrics::write_atomically(fs::path(out_dir) / "plan.json", json.dump(1) + "\n");
}

SweepPlan read_plan(const std::string& out_dir) {
  const fs::path path = fs::path(out_dir) / "plan.json";
  std::ifstream in(path);
  if (!in)
    throw config::InputError(
        fmt::format("{}: no sweep here (no plan.json); expected the --out folder of "
                    "a `cosched sweep`",
                    out_dir));
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
    SweepPlan plan;
    plan.base_file = json.at("base");
    plan.axis_paths = json.at("axes").get<std::vector<std::string>>();
    for (const auto& r : json.at("runs"))
      plan.runs.push_back(PlannedRun{r.at("id"), r.at("seed"), r.at("values").get<std::vector<std::string>>(),
                                     r.at("sets").get<std::vector<std::string>>()});
    return plan;
  } catch (const nlohmann::json::exception& e) {
    throw config::InputError(fmt::format("{}: not a sweep plan: {}", path.string(), e.what()));
  }
}

}  // namespace cosched::sweep
