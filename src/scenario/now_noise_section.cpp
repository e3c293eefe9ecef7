// The NOW model's top-level `noise` (issue 34; docs/models/now.md section 8, docs/scenario-format.md
// "Noise"): a list of detour sources, each read and checked here, its trace or phase file included.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "config/input_error.hpp"
#include "config/keys.hpp"
#include "config/units.hpp"
#include "scenario/now_section.hpp"

namespace cosched::config {
namespace {

using workload::NoiseKind;
using workload::NoisePhase;
using workload::NoiseSource;

const Names<NoiseKind> kKindNames = {
    {"periodic", NoiseKind::Periodic}, {"poisson", NoiseKind::Poisson}, {"trace", NoiseKind::Trace}};

constexpr const char* kDurationExpected =
    "a positive duration with a unit such as 25us, or a distribution of durations such as "
    "\"10us-40us:3, 1ms:1\"";

// A detour's duration: one duration, or the distribution notation (thesis 5.1.3) with a duration and unit
// for each value ("10us-40us:3, 1ms:1"), kept in nanoseconds.
workload::Distribution read_duration(const Field& f, std::string& given) {
  given = f.scalar(kDurationExpected);
  if (!workload::Distribution::is_notation(given)) {
    const auto value = parse_duration_ns(given);
    if (!value || *value <= 0 || *value > 1'000'000'000'000'000) f.fail(kDurationExpected);
    return workload::Distribution::constant(static_cast<double>(*value));
  }
  // Each value's duration to nanoseconds, then the notation's own parser.
  std::string in_ns;
  std::size_t at = 0;
  while (at <= given.size()) {
    const auto comma = std::min(given.find(',', at), given.size());
    const std::string item = given.substr(at, comma - at);
    const auto colon = item.find(':');
    if (colon == std::string::npos) f.fail(kDurationExpected);
    const std::string range = item.substr(0, colon);
    const auto dash = range.find('-');
    std::string converted;
    for (const std::string& end :
         dash == std::string::npos
             ? std::vector<std::string>{range}
             : std::vector<std::string>{range.substr(0, dash), range.substr(dash + 1)}) {
      const auto first = end.find_first_not_of(' ');
      const auto value = parse_duration_ns(first == std::string::npos ? "" : end.substr(first));
      if (!value || *value <= 0 || *value > 1'000'000'000'000'000) f.fail(kDurationExpected);
      if (!converted.empty()) converted += '-';
      converted += std::to_string(*value);
    }
    if (!in_ns.empty()) in_ns += ',';
    in_ns += converted;
    in_ns += item.substr(colon);
    at = comma + 1;
  }
  std::string why;
  const auto parsed = workload::Distribution::parse(in_ns, &why);
  if (!parsed) f.fail(fmt::format("{} ({})", kDurationExpected, why));
  return *parsed;
}

constexpr const char* kWorkstationsExpected =
    "all, a workstation index, a range such as 0-63, or a list of them such as [0-15, 32]";

// `workstations`: all, an index, a range a-b, or a list or comma-separated text of them; ascending, each
// checked against platform.workstations when it is known (else when the platform file is read).
std::vector<int> read_workstations(const Field& f, int workstations) {
  std::set<int> out;
  const auto add = [&](const Field& at, const std::string& text) {
    std::size_t pos = 0;
    while (pos <= text.size()) {
      const auto comma = std::min(text.find(',', pos), text.size());
      std::string item = text.substr(pos, comma - pos);
      item.erase(0, item.find_first_not_of(' '));
      item.erase(item.find_last_not_of(' ') + 1);
      const auto dash = item.find('-', 1);
      const auto lo = parse_integer(item.substr(0, dash));
      const auto hi = dash == std::string::npos ? lo : parse_integer(item.substr(dash + 1));
      if (!lo || !hi || *lo < 0 || *hi < *lo || *hi >= 100'000) at.fail(kWorkstationsExpected);
      if (workstations > 0 && *hi >= workstations)
        at.fail(fmt::format("workstations below {} (platform.workstations)", workstations));
      for (auto w = *lo; w <= *hi; ++w) out.insert(static_cast<int>(w));
      pos = comma + 1;
    }
  };
  if (f.is_sequence()) {
    for (const auto& item : f.items(kWorkstationsExpected)) add(item, item.scalar(kWorkstationsExpected));
  } else {
    const std::string text = f.scalar(kWorkstationsExpected);
    if (text == "all") return {};
    add(f, text);
  }
  if (out.empty()) f.fail(kWorkstationsExpected);
  return {out.begin(), out.end()};
}

// A phase file: one duration with a unit per line ('#' comments), one line per workstation the source
// applies to.
std::vector<Nanos> read_phase_file(const std::string& path) {
  std::ifstream in(path);
  std::vector<Nanos> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty() || line[0] == '#') continue;
    const auto value = parse_duration_ns(line);
    if (!value || *value < 0 || *value > 1'000'000'000'000'000)
      throw InputError(
          fmt::format("{}:{}: expected a phase: a duration with a unit such as 3ms (0 allowed), "
                      "got \"{}\"",
                      path, number, line));
    out.push_back(*value);
  }
  if (out.empty())
    throw InputError(
        fmt::format("{}:{}: expected one phase per line, one line per workstation: the file has "
                    "none",
                    path, number + 1));
  return out;
}

// Ascending workstations as ranges: "0-63,128".
std::string ranges_text(const std::vector<int>& workstations) {
  std::string out;
  for (std::size_t i = 0; i < workstations.size();) {
    std::size_t j = i;
    while (j + 1 < workstations.size() && workstations[j + 1] == workstations[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += i == j ? std::to_string(workstations[i]) : fmt::format("{}-{}", workstations[i], workstations[j]);
    i = j + 1;
  }
  return out;
}

NoiseSource read_source(const Field& f, const std::string& scenario_dir, int workstations) {
  MapReader map(f,
                "a noise source mapping with kind, such as {kind: periodic, period: 10ms, duration: 25us}");
  NoiseSource s;
  const auto kind = map.required("kind");
  s.kind = choice(kind, kKindNames);
  auto period = map.optional("period");
  auto rate = map.optional("rate");
  auto length = map.optional("duration");
  auto file = map.optional("file");
  auto phase = map.optional("phase");
  auto chosen = map.optional("workstations");
  auto as = map.optional("as");
  map.finish();  // a misspelt key is named before a key it leaves missing
  const auto refuse = [&](std::optional<Field>& key, const char* name) {
    if (key) key->error(fmt::format("a {} source takes no '{}'", s.kind_name(), name));
  };
  const auto need = [&](const char* name) {
    map.field().error(fmt::format("missing required key '{}' (a {} source)", name, s.kind_name()));
  };
  switch (s.kind) {
    case NoiseKind::Periodic:
      refuse(rate, "rate");
      refuse(file, "file");
      if (!period) need("period");
      s.period = duration(*period);
      break;
    case NoiseKind::Poisson:
      refuse(period, "period");
      refuse(file, "file");
      if (!rate) need("rate");
      s.rate = rate->number();
      if (!(s.rate > 0) || s.rate > 1e9) rate->fail("a rate in detours per second, above 0 and at most 1e9");
      break;
    case NoiseKind::Trace: {
      refuse(period, "period");
      refuse(rate, "rate");
      refuse(length, "duration");
      if (!file) need("file");
      const std::string path =
          std::filesystem::path(resolve_input_file(*file, scenario_dir, "a noise trace file"))
              .lexically_normal()
              .string();
      std::ifstream in(path);
      try {
        s.trace = std::make_shared<const workload::NoiseTrace>(workload::read_noise_trace(in, path));
      } catch (const workload::NoiseTraceError& e) {
        throw InputError(e.what());
      }
      break;
    }
  }
  if (s.kind != NoiseKind::Trace) {
    if (!length) need("duration");
    s.duration = read_duration(*length, s.duration_given);
  }
  if (auto& v = phase) {
    const std::string text = v->scalar("aligned, random or a phase file");
    if (text == "aligned") {
      s.phase = NoisePhase::Aligned;
    } else if (text == "random") {
      s.phase = NoisePhase::Random;
    } else {
      s.phase = NoisePhase::File;
      s.phase_file =
          std::filesystem::path(resolve_input_file(*v, scenario_dir, "aligned, random or a phase file"))
              .lexically_normal()
              .string();
      s.phases = read_phase_file(s.phase_file);
    }
  }
  if (auto& v = chosen) {
    s.workstations = read_workstations(*v, workstations);
    s.workstations_given = ranges_text(s.workstations);
    s.workstations_origin = v->location() + ": " + v->path();
  } else {
    s.workstations_given = "all";
    s.workstations_origin = map.field().location() + ": " + map.field().path();
  }
  if (auto& v = as) {
    // docs/models/now.md section 8.2: a detour takes the CPU from whatever runs; a daemon's work is
    // scheduled.
    const std::string text = v->scalar("detour or daemon");
    if (text != "detour" && text != "daemon") v->fail("detour or daemon");
    s.daemon = text == "daemon";
  }
  if (s.phase == NoisePhase::File) {
    const std::size_t needed =
        s.workstations.empty() ? static_cast<std::size_t>(workstations) : s.workstations.size();
    if (s.phases.size() < needed)
      phase->error(
          fmt::format("the phase file {} has {} phases, expected one per workstation the source "
                      "applies to ({})",
                      s.phase_file, s.phases.size(), needed));
  }
  return s;
}

}  // namespace

std::vector<NoiseSource> read_now_noise(const Field& f, const std::string& scenario_dir, int workstations) {
  std::vector<NoiseSource> sources;
  for (const auto& item : f.items("a list of noise sources, such as [{kind: periodic, period: 10ms, "
                                  "duration: 25us}]"))
    sources.push_back(read_source(item, scenario_dir, workstations));
  // The CPU time noise takes on a workstation: the sum of the sources that apply to it, below 100%
  // (NoiseStream queues overlapping detours; at 100% or more the CPU would never be free).
  std::set<int> named;
  for (const auto& s : sources) named.insert(s.workstations.begin(), s.workstations.end());
  named.insert(-1);  // a workstation no list names
  for (int w : named) {
    double net = 0;
    for (const auto& s : sources)
      if (s.workstations.empty() || (w >= 0 && s.applies_to(w))) net += s.net_fraction_at(w);
    if (net >= 1)
      f.error(fmt::format(
          "expected noise that takes less than 100% of a workstation's CPU, got {:.4g}% on {}", net * 100,
          w < 0 ? std::string("every workstation") : fmt::format("workstation {}", w)));
  }
  return sources;
}

nlohmann::ordered_json now_noise_json(const std::vector<NoiseSource>& sources) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& s : sources) {
    nlohmann::ordered_json j;
    j["kind"] = s.kind_name();
    if (s.kind == NoiseKind::Periodic) j["period_s"] = static_cast<double>(s.period) * 1e-9;
    if (s.kind == NoiseKind::Poisson) j["rate_per_s"] = s.rate;
    if (s.kind == NoiseKind::Trace) {
      j["file"] = s.trace->file;
      j["span_s"] = static_cast<double>(s.trace->span) * 1e-9;
    } else {
      j["duration"] = s.duration_given;
    }
    j["phase"] = s.phase_name();
    j["as"] = s.daemon ? "daemon" : "detour";
    j["workstations"] = s.workstations_given;
    j["net_fraction"] = s.net_fraction();
    j["detours_per_s"] = s.detours_per_second();
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace cosched::config
