// Noise sources and the detours one workstation sees (src/workload/noise.cpp; docs/models/now.md section 8):
// each kind's arrivals and durations, aligned against random phases, the queueing of overlapping detours,
// and the trace file reader with one test per kind of malformed line.

#include "workload/noise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace cosched::workload {
namespace {

constexpr Nanos kUs = 1'000;
constexpr Nanos kMs = 1'000'000;

NoiseSource periodic(Nanos period, Nanos duration, NoisePhase phase) {
  NoiseSource s;
  s.kind = NoiseKind::Periodic;
  s.period = period;
  s.duration = Distribution::constant(static_cast<double>(duration));
  s.phase = phase;
  return s;
}

NoiseSource poisson(double rate, Nanos duration, NoisePhase phase) {
  NoiseSource s;
  s.kind = NoiseKind::Poisson;
  s.rate = rate;
  s.duration = Distribution::constant(static_cast<double>(duration));
  s.phase = phase;
  return s;
}

std::vector<Detour> first(NoiseStream& stream, int count) {
  std::vector<Detour> out;
  for (int i = 0; i < count; ++i) out.push_back(stream.next());
  return out;
}

TEST(NoiseStream, AnAlignedPeriodicSourceTicksFromTimeZeroOnEveryWorkstation) {
  const std::vector<NoiseSource> sources{periodic(10 * kMs, 25 * kUs, NoisePhase::Aligned)};
  for (int w : {0, 5, 4095}) {
    NoiseStream stream(&sources, w, 1);
    const auto d = first(stream, 3);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(d[k].start, k * 10 * kMs) << "workstation " << w;
      EXPECT_EQ(d[k].duration, 25 * kUs);
    }
  }
}

TEST(NoiseStream, RandomPhasesDifferByWorkstationAndStayWithinThePeriod) {
  const std::vector<NoiseSource> sources{periodic(10 * kMs, 25 * kUs, NoisePhase::Random)};
  std::vector<Nanos> phases;
  for (int w = 0; w < 200; ++w) {
    NoiseStream stream(&sources, w, 1);
    auto d = stream.next();
    // A tick before time 0 may still take the CPU at 0: then the stream begins with its remainder.
    if (d.start == 0 && d.duration < 25 * kUs) d = stream.next();
    ASSERT_GE(d.start, 0);
    ASSERT_LT(d.start, 10 * kMs);
    EXPECT_EQ(stream.next().start, d.start + 10 * kMs) << "then one tick a period";
    phases.push_back(d.start);
  }
  double mean = 0;
  for (Nanos p : phases) mean += static_cast<double>(p) / static_cast<double>(phases.size());
  EXPECT_NEAR(mean, 5e6, 0.6e6) << "uniform in [0, period)";
  NoiseStream again(&sources, 7, 1);
  NoiseStream other_seed(&sources, 7, 2);
  EXPECT_EQ(again.next().start, [&] {
    NoiseStream s(&sources, 7, 1);
    return s.next().start;
  }()) << "deterministic from the seed";
  EXPECT_NE(again.next().start, other_seed.next().start + 10 * kMs) << "another seed, another phase";
}

TEST(NoiseStream, PoissonArrivalsHaveTheRateAndAlignedStreamsAreShared) {
  const std::vector<NoiseSource> sources{poisson(1000, kUs, NoisePhase::Random)};
  NoiseStream stream(&sources, 3, 9);
  Detour last{};
  std::int64_t count = 0;
  Nanos taken = 0;
  while ((last = stream.next()).start < 100'000 * kMs) {
    ++count;
    taken += last.duration;
  }
  // 100 s at 1000/s: 100,000 arrivals, within 1% (about three standard deviations).
  EXPECT_NEAR(static_cast<double>(taken) / kUs, 100'000, 1'000) << count << " busy periods";
  EXPECT_LT(count, taken / kUs) << "some arrivals queue behind another: fewer busy periods than arrivals";
  EXPECT_GT(count, taken / kUs * 99 / 100) << "about 0.1% of them (rate x duration)";

  const std::vector<NoiseSource> aligned{poisson(1000, kUs, NoisePhase::Aligned)};
  NoiseStream a(&aligned, 0, 9), b(&aligned, 4000, 9);
  for (int i = 0; i < 50; ++i) {
    const auto x = a.next(), y = b.next();
    ASSERT_EQ(x.start, y.start);
    ASSERT_EQ(x.duration, y.duration);
  }
  NoiseStream r0(&sources, 0, 9), r1(&sources, 1, 9);
  EXPECT_NE(r0.next().start, r1.next().start) << "random: each workstation its own arrivals";
}

TEST(NoiseStream, OverlappingDetoursQueueIntoOneBusyPeriod) {
  // A 500us and a 300us tick every 1 ms, both aligned: they arrive together at each k ms and the second
  // waits for the first, one busy period of 800us.
  const std::vector<NoiseSource> sources{periodic(kMs, 500 * kUs, NoisePhase::Aligned),
                                         periodic(kMs, 300 * kUs, NoisePhase::Aligned)};
  NoiseStream stream(&sources, 0, 1);
  for (int k = 0; k < 5; ++k) {
    const auto d = stream.next();
    EXPECT_EQ(d.start, k * kMs);
    EXPECT_EQ(d.duration, 800 * kUs) << "the CPU time taken is the sum of the durations";
  }
}

TEST(NoiseStream, SourcesApplyToTheirWorkstationsOnly) {
  auto s = periodic(kMs, kUs, NoisePhase::Aligned);
  s.workstations = {2, 3, 10};
  const std::vector<NoiseSource> sources{s};
  EXPECT_TRUE(NoiseStream(&sources, 0, 1).empty());
  EXPECT_FALSE(NoiseStream(&sources, 3, 1).empty());
  EXPECT_TRUE(NoiseStream(&sources, 4, 1).empty());
  NoiseStream none(&sources, 4, 1);
  EXPECT_EQ(none.next().start, -1);
}

TEST(NoiseStream, DurationsFollowTheirDistribution) {
  NoiseSource s = periodic(kMs, 0, NoisePhase::Aligned);
  s.duration = *Distribution::parse("10000:3,40000:1");  // 10us three times in four, 40us once
  EXPECT_NEAR(s.net_fraction(), 17.5e3 / 1e6, 1e-12);
  const std::vector<NoiseSource> sources{s};
  NoiseStream stream(&sources, 0, 4);
  int short_ones = 0;
  for (int i = 0; i < 4000; ++i) short_ones += stream.next().duration == 10 * kUs ? 1 : 0;
  EXPECT_NEAR(short_ones, 3000, 100);
}

NoiseTrace parse(const std::string& text) {
  std::istringstream in(text);
  return read_noise_trace(in, "t.csv");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const NoiseTraceError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(NoiseTrace, ReplaysEachCpuShiftedAndRepeatedEverySpan) {
  const auto trace = std::make_shared<const NoiseTrace>(
      parse("# measured\n# span_ns: 1000000\n# cpus: 2\ncpu,start_ns,duration_ns\n0,100,20\n0,500000,30\n"
            "1,7,5\n"));
  ASSERT_EQ(trace->cpus.size(), 2u);
  EXPECT_EQ(trace->span, 1'000'000);
  EXPECT_NEAR(trace->net_fraction(), 55.0 / 2e6, 1e-15);
  NoiseSource s;
  s.kind = NoiseKind::Trace;
  s.trace = trace;
  s.phase = NoisePhase::Aligned;
  const std::vector<NoiseSource> sources{s};
  NoiseStream cpu0(&sources, 2, 1);  // workstation 2 replays CPU 0
  EXPECT_EQ(cpu0.next().start, 100);
  EXPECT_EQ(cpu0.next().start, 500'000);
  const auto again = cpu0.next();
  EXPECT_EQ(again.start, 1'000'100) << "the trace repeats every span";
  EXPECT_EQ(again.duration, 20);
  NoiseStream cpu1(&sources, 1, 1);
  EXPECT_EQ(cpu1.next().start, 7);

  s.phase = NoisePhase::File;
  s.phases = {0, 400};  // workstations 0 and 1
  const std::vector<NoiseSource> shifted{s};
  NoiseStream late(&shifted, 1, 1);
  EXPECT_EQ(late.next().start, 407) << "shifted by its phase";
}

TEST(NoiseTrace, WithoutSpanOrCpusTheyComeFromTheDetours) {
  const auto trace = parse("start_ns,duration_ns\n10,5\n100,50\n");
  EXPECT_EQ(trace.span, 150);
  EXPECT_EQ(trace.cpus.size(), 1u);
}

TEST(NoiseTrace, EachMalformedLineIsLocated) {
  EXPECT_EQ(error_of(""),
            "t.csv:1: expected a header cpu,start_ns,duration_ns or start_ns,duration_ns: the "
            "trace is empty");
  EXPECT_EQ(error_of("start_ns,duration_ns\n"),
            "t.csv:2: expected at least one detour after the header, or a '# span_ns: N' line");
  EXPECT_EQ(
      error_of("when,how_long\n1,2\n"),
      "t.csv:1: expected the header cpu,start_ns,duration_ns or start_ns,duration_ns, got \"when,how_long\"");
  EXPECT_EQ(error_of("start_ns,duration_ns\n1,2\n3\n"),
            "t.csv:3: expected 2 comma-separated integers, got \"3\"");
  EXPECT_EQ(error_of("start_ns,duration_ns\n1,0\n"),
            "t.csv:2: expected a positive duration in ns, got \"1,0\"");
  EXPECT_EQ(error_of("start_ns,duration_ns\n-1,5\n"),
            "t.csv:2: expected a start in ns from 0 to 1e15, got \"-1,5\"");
  EXPECT_EQ(error_of("start_ns,duration_ns\n10,20\n15,1\n"),
            "t.csv:3: expected detours of a CPU in order, not overlapping: 15 starts before the previous "
            "ends (30)");
  EXPECT_EQ(error_of("# span_ns: 100\nstart_ns,duration_ns\n90,20\n"),
            "t.csv:3: expected detours within span_ns 100, this one ends at 110");
  EXPECT_EQ(error_of("# span_ns: soon\n"),
            "t.csv:1: expected '# span_ns: N' with a positive integer N up to 1000000000000000, got "
            "\"# span_ns: soon\"");
  EXPECT_EQ(error_of("# cpus: 1\ncpu,start_ns,duration_ns\n3,1,1\n"),
            "t.csv:4: expected CPUs below '# cpus: 1', the trace names CPU 3");
  EXPECT_EQ(error_of("start_ns,duration_ns\n0,10\n"),
            "t.csv:3: expected a trace whose detours take less than all of a CPU's time, CPU 0's take all");
}

// What a replay needs of a trace holds whatever the order of its lines: a span given after the detours
// still bounds them, every CPU is below 100% on its own (a workstation replays one CPU), and the CPUs are
// bounded.
TEST(NoiseTrace, TheSpanAndEachCpuBoundTheDetoursWhereverTheyAreGiven) {
  EXPECT_EQ(error_of("start_ns,duration_ns\n5,3\n20,3\n# span_ns: 10\n"),
            "t.csv:3: expected detours within span_ns 10, this one ends at 23");
  EXPECT_EQ(error_of("# span_ns: 10\ncpu,start_ns,duration_ns\n0,0,10\n1,0,1\n"),
            "t.csv:5: expected a trace whose detours take less than all of a CPU's time, CPU 0's take all");
  EXPECT_EQ(error_of("# cpus: 5000\n"),
            "t.csv:1: expected '# cpus: N' with a positive integer N up to 4096, got \"# cpus: 5000\"");
  // A quiet machine's trace: no detour, but its span.
  const auto quiet = parse("# span_ns: 1000000\n# cpus: 2\ncpu,start_ns,duration_ns\n");
  EXPECT_EQ(quiet.cpus.size(), 2u);
  EXPECT_EQ(quiet.net_fraction(), 0);
  NoiseSource s;
  s.kind = NoiseKind::Trace;
  s.trace = std::make_shared<const NoiseTrace>(quiet);
  const std::vector<NoiseSource> sources{s};
  NoiseStream stream(&sources, 0, 1);
  EXPECT_EQ(stream.next().start, -1) << "no detour ever";
}

TEST(NoiseTrace, AWorkstationReplaysOneCpuAndIsCheckedAgainstIt) {
  NoiseSource s;
  s.kind = NoiseKind::Trace;
  s.trace =
      std::make_shared<const NoiseTrace>(parse("# span_ns: 100\ncpu,start_ns,duration_ns\n0,0,90\n1,0,10\n"));
  EXPECT_NEAR(s.net_fraction(), 0.5, 1e-12) << "over both CPUs";
  EXPECT_NEAR(s.net_fraction_at(2), 0.9, 1e-12) << "workstation 2 replays CPU 0";
  EXPECT_NEAR(s.net_fraction_at(3), 0.1, 1e-12);
  EXPECT_NEAR(s.net_fraction_at(-1), 0.9, 1e-12) << "the most of any workstation";
}

}  // namespace
}  // namespace cosched::workload
