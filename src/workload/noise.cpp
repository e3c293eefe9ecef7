#include "workload/noise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "util/normal.hpp"

namespace cosched::workload {
namespace {

constexpr Nanos kNever = std::numeric_limits<Nanos>::max();

// The mean of a distribution of the thesis's notation: each entry's midpoint by its weight (an interval's
// draws are uniform in it, integers or reals alike).
double mean_of(const Distribution& d) {
  double total = 0, sum = 0;
  for (const auto& e : d.entries()) {
    total += e.weight;
    sum += e.weight * (e.begin + e.end) / 2;
  }
  return sum / total;
}

std::uint64_t source_index(const std::vector<NoiseSource>& sources, const NoiseSource& source) {
  return static_cast<std::uint64_t>(&source - sources.data());
}

}  // namespace

double NoiseTrace::net_fraction() const {
  if (cpus.empty() || span <= 0) return 0;
  double taken = 0;
  for (const auto& cpu : cpus)
    for (const auto& d : cpu) taken += static_cast<double>(d.duration);
  return taken / (static_cast<double>(span) * static_cast<double>(cpus.size()));
}

double NoiseTrace::cpu_fraction(std::size_t cpu) const {
  if (span <= 0) return 0;
  double taken = 0;
  for (const auto& d : cpus[cpu]) taken += static_cast<double>(d.duration);
  return taken / static_cast<double>(span);
}

double NoiseSource::net_fraction_at(int workstation) const {
  if (kind != NoiseKind::Trace) return net_fraction();
  if (workstation >= 0)
    return trace->cpu_fraction(static_cast<std::size_t>(workstation) % trace->cpus.size());
  double most = 0;
  for (std::size_t cpu = 0; cpu < trace->cpus.size(); ++cpu) most = std::max(most, trace->cpu_fraction(cpu));
  return most;
}

bool NoiseSource::applies_to(int workstation) const {
  return workstations.empty() || std::binary_search(workstations.begin(), workstations.end(), workstation);
}

double NoiseSource::net_fraction() const {
  switch (kind) {
    case NoiseKind::Periodic:
      return mean_of(duration) / static_cast<double>(period);
    case NoiseKind::Poisson:
      return mean_of(duration) * rate * 1e-9;
    case NoiseKind::Trace:
      return trace->net_fraction();
  }
  return 0;
}

double NoiseSource::detours_per_second() const {
  switch (kind) {
    case NoiseKind::Periodic:
      return 1e9 / static_cast<double>(period);
    case NoiseKind::Poisson:
      return rate;
    case NoiseKind::Trace: {
      std::size_t count = 0;
      for (const auto& cpu : trace->cpus) count += cpu.size();
      return static_cast<double>(count) / static_cast<double>(trace->cpus.size()) * 1e9 /
             static_cast<double>(trace->span);
    }
  }
  return 0;
}

std::string NoiseSource::kind_name() const {
  return kind == NoiseKind::Periodic ? "periodic" : kind == NoiseKind::Poisson ? "poisson" : "trace";
}

std::string NoiseSource::phase_name() const {
  return phase == NoisePhase::Aligned ? "aligned" : phase == NoisePhase::Random ? "random" : phase_file;
}

double NoiseStream::Generator::uniform() {
  // SplitMix64 (Steele, Lea and Flood 2014): 53 bits of its output, uniform in [0, 1).
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

void NoiseStream::Generator::advance() {
  const NoiseSource& s = *source;
  const auto draw_duration = [&] {
    const std::size_t entry = s.duration.entry_at(uniform());
    return std::max<Nanos>(0, std::llround(s.duration.value_at(entry, uniform())));
  };
  switch (s.kind) {
    case NoiseKind::Periodic:
      // Detour k at offset + k * period, from k = -1: the one before time 0 may still take the CPU at 0.
      for (;;) {
        const Nanos start = offset + (count - 1) * s.period;
        ++count;
        const Nanos length = draw_duration();
        if (start + length <= 0) continue;
        arrival = std::max<Nanos>(0, start);
        duration = start + length - arrival;
        return;
      }
    case NoiseKind::Poisson:
      // Exponential gaps of mean 1 / rate: exact in double, rounded to the nanosecond per arrival.
      poisson_time += -std::log1p(-uniform()) / s.rate * 1e9;
      if (poisson_time > 9e18) {
        arrival = kNever;
        return;
      }
      arrival = offset + std::llround(poisson_time);
      duration = draw_duration();
      return;
    case NoiseKind::Trace: {
      // The trace's CPU replayed every span from offset - span on: detour i of cycle c at
      // offset + (c - 1) * span + start_i.
      const auto& detours = s.trace->cpus[cpu];
      if (detours.empty()) {
        arrival = kNever;
        return;
      }
      for (;;) {
        const std::int64_t cycle = count / static_cast<std::int64_t>(detours.size());
        const auto& d = detours[static_cast<std::size_t>(count % static_cast<std::int64_t>(detours.size()))];
        ++count;
        const Nanos start = offset + (cycle - 1) * s.trace->span + d.start;
        if (start + d.duration <= 0) continue;
        arrival = std::max<Nanos>(0, start);
        duration = start + d.duration - arrival;
        return;
      }
    }
  }
}

NoiseStream::NoiseStream(const std::vector<NoiseSource>* sources, int workstation, std::uint64_t seed,
                         bool daemon) {
  for (const auto& source : *sources) {
    if (!source.applies_to(workstation) || source.daemon != daemon) continue;
    const std::uint64_t index = source_index(*sources, source);
    Generator g{&source, 0};
    // An aligned source draws one stream for every workstation; otherwise each its own.
    const bool shared = source.phase != NoisePhase::Random;
    g.state = util::mix_seed(seed, 0x6e6f697365ULL + index,
                             shared ? 0 : 1 + static_cast<std::uint64_t>(workstation));
    switch (source.phase) {
      case NoisePhase::Aligned:
        break;
      case NoisePhase::Random:
        if (source.kind == NoiseKind::Periodic)
          g.offset = static_cast<Nanos>(g.uniform() * static_cast<double>(source.period));
        if (source.kind == NoiseKind::Trace)
          g.offset = static_cast<Nanos>(g.uniform() * static_cast<double>(source.trace->span));
        break;
      case NoisePhase::File: {
        // The workstation's place among those the source applies to.
        const auto place =
            source.workstations.empty()
                ? static_cast<std::size_t>(workstation)
                : static_cast<std::size_t>(
                      std::lower_bound(source.workstations.begin(), source.workstations.end(), workstation) -
                      source.workstations.begin());
        if (place >= source.phases.size())
          throw std::logic_error("NoiseStream: the phase file has no line for a workstation");
        g.offset = source.phases[place];
        // A periodic source's or a trace's phase is within its cycle.
        const Nanos cycle = source.kind == NoiseKind::Periodic ? source.period
                            : source.kind == NoiseKind::Trace  ? source.trace->span
                                                               : 0;
        if (cycle > 0) g.offset %= cycle;
        break;
      }
    }
    if (source.kind == NoiseKind::Trace)
      g.cpu = static_cast<std::size_t>(workstation) % source.trace->cpus.size();
    g.advance();
    generators_.push_back(g);
  }
}

NoiseStream::Generator* NoiseStream::earliest() {
  Generator* best = nullptr;
  for (auto& g : generators_)
    if (g.arrival != kNever && (!best || g.arrival < best->arrival)) best = &g;
  return best;
}

Detour NoiseStream::next() {
  Generator* g = earliest();
  if (!g) return {-1, 0};
  Detour busy{g->arrival, g->duration};
  g->advance();
  // Detours that arrive while this one takes the CPU wait for it: one busy period.
  while ((g = earliest()) && g->arrival <= busy.end()) {
    busy.duration += g->duration;
    g->advance();
  }
  return busy;
}

}  // namespace cosched::workload

namespace cosched::workload {
namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::optional<std::int64_t> whole(const std::string& text) {
  const std::string t = trimmed(text);
  if (t.empty()) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (error != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return value;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    const auto comma = line.find(',', at);
    out.push_back(trimmed(line.substr(at, comma == std::string::npos ? std::string::npos : comma - at)));
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

}  // namespace

NoiseTrace read_noise_trace(std::istream& in, const std::string& name) {
  NoiseTrace trace;
  trace.file = name;
  std::optional<std::int64_t> span, cpus;
  bool header = false, with_cpu = false;
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& what) {
    throw NoiseTraceError(fmt::format("{}:{}: {}", name, number, what));
  };
  std::vector<std::vector<Detour>> detours;
  std::int64_t rows = 0;
  // (Bounds far above any measured trace: 1e6 s, as the scenario's durations, and 4096 CPUs.)
  constexpr std::int64_t kMaxNanos = 1'000'000'000'000'000;
  constexpr std::int64_t kMaxCpus = 4096;
  Nanos latest_end = 0;  // the latest detour's end so far, and its line
  int latest_line = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string text = trimmed(line);
    if (text.empty()) continue;
    if (text[0] == '#') {
      const std::string comment = trimmed(text.substr(1));
      for (const auto& [key, target] : {std::pair{"span_ns:", &span}, std::pair{"cpus:", &cpus}}) {
        if (comment.rfind(key, 0) != 0) continue;
        const auto value = whole(comment.substr(std::string(key).size()));
        const std::int64_t most = std::string_view(key) == "cpus:" ? kMaxCpus : kMaxNanos;
        if (!value || *value <= 0 || *value > most)
          fail(fmt::format("expected '# {} N' with a positive integer N up to {}, got \"{}\"", key, most,
                           text));
        *target = value;
      }
      continue;
    }
    if (!header) {
      if (text == "cpu,start_ns,duration_ns") {
        with_cpu = true;
      } else if (text != "start_ns,duration_ns") {
        fail(fmt::format("expected the header cpu,start_ns,duration_ns or start_ns,duration_ns, got \"{}\"",
                         text));
      }
      header = true;
      continue;
    }
    const auto fields = split(text);
    if (fields.size() != (with_cpu ? 3u : 2u))
      fail(fmt::format("expected {} comma-separated integers, got \"{}\"", with_cpu ? 3 : 2, text));
    const auto cpu = with_cpu ? whole(fields[0]) : std::optional<std::int64_t>(0);
    const auto start = whole(fields[with_cpu ? 1 : 0]);
    const auto length = whole(fields[with_cpu ? 2 : 1]);
    if (!cpu || *cpu < 0 || *cpu >= kMaxCpus)
      fail(fmt::format("expected a CPU from 0 to 4095, got \"{}\"", text));
    if (!start || *start < 0 || *start > kMaxNanos)
      fail(fmt::format("expected a start in ns from 0 to 1e15, got \"{}\"", text));
    if (!length || *length <= 0 || *length > kMaxNanos)
      fail(fmt::format("expected a positive duration in ns, got \"{}\"", text));
    if (static_cast<std::size_t>(*cpu) >= detours.size()) detours.resize(static_cast<std::size_t>(*cpu) + 1);
    auto& list = detours[static_cast<std::size_t>(*cpu)];
    if (!list.empty() && *start < list.back().end())
      fail(
          fmt::format("expected detours of a CPU in order, not overlapping: {} starts before the previous "
                      "ends ({})",
                      *start, list.back().end()));
    list.push_back({*start, *length});
    if (list.back().end() > latest_end) {
      latest_end = list.back().end();
      latest_line = number;
    }
    ++rows;
  }
  ++number;  // an error about the whole file names the line after its last
  if (!header) fail("expected a header cpu,start_ns,duration_ns or start_ns,duration_ns: the trace is empty");
  // A trace of a quiet machine has no detour but says how long it measured.
  if (rows == 0 && !span) fail("expected at least one detour after the header, or a '# span_ns: N' line");
  if (span && latest_end > *span) {
    number = latest_line;
    fail(fmt::format("expected detours within span_ns {}, this one ends at {}", *span, latest_end));
  }
  if (cpus) {
    if (static_cast<std::size_t>(*cpus) < detours.size())
      fail(
          fmt::format("expected CPUs below '# cpus: {}', the trace names CPU {}", *cpus, detours.size() - 1));
    detours.resize(static_cast<std::size_t>(*cpus));
  }
  trace.span = span ? *span : latest_end;
  trace.cpus = std::move(detours);
  if (trace.cpus.empty()) trace.cpus.resize(1);
  for (std::size_t cpu = 0; cpu < trace.cpus.size(); ++cpu)
    if (trace.cpu_fraction(cpu) >= 1)
      fail(fmt::format("expected a trace whose detours take less than all of a CPU's time, CPU {}'s take all",
                       cpu));
  return trace;
}

}  // namespace cosched::workload
