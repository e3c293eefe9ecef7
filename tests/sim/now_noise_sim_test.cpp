// Operating-system noise on the NOW model (issue 34; docs/models/now.md section 8) against closed forms and
// an independent computation of the same rules, through whole runs. Each test runs in its own process
// (gtest_discover_tests): the SimGrid engine is a singleton.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "metrics/run_record.hpp"
#include "now/simulation.hpp"
#include "scenario/loader.hpp"
#include "workload/noise.hpp"

namespace cosched::now {
namespace {

using workload::Detour;
using workload::Nanos;
using workload::NoiseStream;

constexpr Nanos kUs = 1'000;
constexpr Nanos kMs = 1'000'000;

struct Loaded {
  config::Scenario scenario;
  metrics::NowRunRecord record;
};

// Writes a scenario (and the files it names, in the same folder) and runs it.
Loaded run_yaml(const std::string& yaml, const std::vector<std::pair<std::string, std::string>>& files = {}) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("cosched-noise-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  std::filesystem::create_directories(dir);
  for (const auto& [name, text] : files) std::ofstream(dir / name) << text;
  std::ofstream(dir / "scenario.yaml") << yaml;
  Loaded out{config::load_scenario((dir / "scenario.yaml").string()), {}};
  out.record = run(out.scenario, {});
  std::filesystem::remove_all(dir);
  return out;
}

// A bulk-synchronous program: `n` workstations, `w` of computation then a barrier, `iterations` times, on
// a network without latency (o = 1 ns), processes that spin at the barrier; `noise` the scenario's list.
std::string bsp(int n, Nanos w, int iterations, const std::string& noise) {
  return fmt::format(R"(model: now
seed: 7
platform: {{workstations: {0}, latency: 0us, overhead: 1ns}}
scheduler: {{policy: stride, quantum: 10ms, context_switch: 1us}}
workload:
  jobs:
    - {{name: bsp, processes: {0}, pattern: none, sync_interval: {1}ns, imbalance: 1, barriers: {2},
       barrier: {{kind: root}}, wait: {{algorithm: spin}}}}
noise:
{3})",
                     n, w, iterations, noise);
}

// One workstation, periodic detours of d every P from phase phi (d <= phi < P), on X ns of CPU work from
// time 0 (the first context switch and the computation, with no communication): the work before the first
// detour is phi, then P - d between detours, and work that ends as a detour begins does not wait for it,
// so X > phi completes at X + d ceil((X - phi) / (P - d)), and X <= phi at X.
Nanos periodic_completion(Nanos x, Nanos period, Nanos d, Nanos phi) {
  if (x <= phi) return x;
  const Nanos gap = period - d;
  return x + d * ((x - phi + gap - 1) / gap);
}

// A phase file puts the workstation's first detour at 3 ms.
TEST(NowNoise, PeriodicDetoursOnOneWorkstationGiveTheClosedForm) {
  const auto out = run_yaml(
      bsp(1, 1'000'000'000, 1, "  - {kind: periodic, period: 10ms, duration: 25us, phase: phases.txt}\n"),
      {{"phases.txt", "# the workstation's first detour\n3ms\n"}});
  const Nanos x = 1 * kUs + 1'000'000'000;  // the switch in, then 1 s of computation
  const Nanos expected = periodic_completion(x, 10 * kMs, 25 * kUs, 3 * kMs);
  EXPECT_EQ(std::llround(out.record.jobs.at(0).completion_time * 1e9), expected)
      << "1 s of work under 100 ticks of 25us a second";
  ASSERT_TRUE(out.record.noise);
  EXPECT_EQ(std::llround(*out.record.noise->baseline_makespan * 1e9), x) << "the same run without noise";
  EXPECT_NEAR(out.record.workstations.at(0).noise_s.value_or(0) * 1e9, 100 * 25 * kUs, 1)
      << "100 detours began before the end";
}

// An aligned source's first detour is at time 0 (phase 0), during the first context switch; one whose
// work ends exactly as a detour begins does not wait for it: 9 ms of work under 1 ms ticks of 100us ends
// at 9 ms + 10 x 100us exactly, as the tick at 10 ms begins.
TEST(NowNoise, AlignedPeriodicDetoursFromTimeZeroGiveTheClosedForm) {
  const auto out = run_yaml(
      bsp(1, 9 * kMs - kUs, 1, "  - {kind: periodic, period: 1ms, duration: 100us, phase: aligned}\n"));
  const Nanos x = 9 * kMs;
  EXPECT_EQ(periodic_completion(x, kMs, 100 * kUs, 0), 10 * kMs);
  EXPECT_EQ(std::llround(out.record.jobs.at(0).completion_time * 1e9), 10 * kMs);
}

// The same rules, computed apart from the simulator: every workstation computes w of CPU time from the
// release, its detours (the run's own, from NoiseStream with the run's sources and seed) taking the CPU
// whenever they come, including while it waits at the barrier (a detour that began then delays the next
// iteration's start). The release is when the last workstation has finished and the root (workstation 0,
// which handles the arrivals) is not in a detour. The first iteration adds the first context switch; the
// program ends when every workstation has taken in the last release.
double reference_iteration(const config::Scenario& scenario, int n, Nanos w, int iterations, Nanos cs) {
  const auto& sources = std::get<config::NowConfig>(scenario.model_config).noise;
  struct Cpu {
    NoiseStream stream;
    Detour busy;
    void skip_past(Nanos t) {
      while (busy.start >= 0 && busy.end() <= t) busy = stream.next();
    }
    // When `work` ns of CPU from `t` on are done.
    Nanos finish(Nanos t, Nanos work) {
      for (;;) {
        skip_past(t);
        if (busy.start < 0) return t + work;
        if (busy.start <= t) {
          t = busy.end();
          continue;
        }
        if (t + work <= busy.start) return t + work;
        work -= busy.start - t;
        t = busy.end();
      }
    }
    // The first instant from t on at which the CPU is not in a detour.
    Nanos free_from(Nanos t) {
      skip_past(t);
      return busy.start >= 0 && busy.start <= t ? busy.end() : t;
    }
  };
  std::vector<Cpu> cpus;
  cpus.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    cpus.push_back({NoiseStream(&sources, i, scenario.seed), {}});
    cpus.back().busy = cpus.back().stream.next();
  }
  Nanos release = 0;
  for (int k = 0; k < iterations; ++k) {
    Nanos last = 0;
    for (auto& cpu : cpus) last = std::max(last, cpu.finish(release, w + (k == 0 ? cs : 0)));
    release = cpus[0].free_from(last);
  }
  // The program ends when the last workstation has taken in the last release (one in a detour then, at
  // its end).
  Nanos end = release;
  for (auto& cpu : cpus) end = std::max(end, cpu.free_from(release));
  return static_cast<double>(end) / iterations;
}

struct PoissonCase {
  int workstations;
  int iterations;
  const char* shape;  // frequent-short or rare-long, each 2.5% of the CPU
};

void PrintTo(const PoissonCase& c, std::ostream* os) {
  *os << c.workstations << " " << c.shape;
}

class PoissonNoise : public ::testing::TestWithParam<PoissonCase> {};

// Issue 34 section 1: the simulated mean iteration within 2% of the reference, for N = 1, 64, 4096 and the
// two shapes of 2.5% net noise (25us detours at 1000/s; 25 ms detours at 1/s).
TEST_P(PoissonNoise, MeanIterationMatchesAnIndependentComputationOfTheRules) {
  const auto& c = GetParam();
  const bool frequent = std::string(c.shape) == "frequent-short";
  const std::string source = frequent ? "  - {kind: poisson, rate: 1000, duration: 25us, phase: random}\n"
                                      : "  - {kind: poisson, rate: 1, duration: 25ms, phase: random}\n";
  const Nanos w = kMs;
  const auto out = run_yaml(bsp(c.workstations, w, c.iterations, source));
  const double simulated = out.record.makespan * 1e9 / c.iterations;
  const double reference = reference_iteration(out.scenario, c.workstations, w, c.iterations, kUs);
  // (The issue asks for 2%; the barrier's own messages, a nanosecond each, are all that separates them.)
  EXPECT_NEAR(simulated / reference, 1.0, 0.005)
      << "simulated " << simulated << " ns per iteration, reference " << reference;
  ASSERT_TRUE(out.record.noise && out.record.noise->slowdown);
  // The baseline is the same program without noise: W per iteration, and the barrier's few nanoseconds.
  EXPECT_NEAR(*out.record.noise->baseline_makespan * 1e9 / c.iterations, static_cast<double>(w), 0.01 * w);
  if (c.workstations == 1) {  // one workstation loses exactly its share of the CPU
    EXPECT_NEAR(*out.record.noise->slowdown, 1 / (1 - out.record.noise->net_injected_mean), 0.01);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, PoissonNoise,
    ::testing::Values(PoissonCase{1, 4000, "frequent-short"}, PoissonCase{1, 4000, "rare-long"},
                      PoissonCase{64, 1000, "frequent-short"}, PoissonCase{64, 1000, "rare-long"},
                      PoissonCase{4096, 100, "frequent-short"}, PoissonCase{4096, 60, "rare-long"}),
    [](const ::testing::TestParamInfo<PoissonCase>& info) {
      std::string name = fmt::format("N{}_{}", info.param.workstations, info.param.shape);
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

// The regimes the issue gives for scale, at N = 64 and W = 1 ms, over many iterations: 2.5% net noise as
// 25 ms detours at 1/s costs about 4.4-4.7x, as 25us detours at 1000/s about 1.10x, aligned 1.025x.
TEST(NowNoise, TheShapeOfTheSameNetNoiseDecidesItsCost) {
  const auto rare =
      run_yaml(bsp(64, kMs, 4000, "  - {kind: poisson, rate: 1, duration: 25ms, phase: random}\n"));
  EXPECT_GT(*rare.record.noise->slowdown, 3.5);
  EXPECT_LT(*rare.record.noise->slowdown, 5.5);
}

TEST(NowNoise, FrequentShortNoiseCostsAboutTenPercentAtSixtyFour) {
  const auto frequent =
      run_yaml(bsp(64, kMs, 2000, "  - {kind: poisson, rate: 1000, duration: 25us, phase: random}\n"));
  EXPECT_NEAR(*frequent.record.noise->slowdown, 1.10, 0.02);
}

// Co-scheduled noise: every workstation loses the same time at the same moments, so the program loses the
// net noise fraction whatever N and whatever the shape (issue 34 section 1).
struct AlignedCase {
  int workstations;
  int iterations;
  const char* source;
};
class AlignedNoise : public ::testing::TestWithParam<AlignedCase> {};

TEST_P(AlignedNoise, SlowsEveryNByTheNetNoiseFraction) {
  const auto& c = GetParam();
  const auto out = run_yaml(bsp(c.workstations, kMs, c.iterations, c.source));
  ASSERT_TRUE(out.record.noise && out.record.noise->slowdown);
  const double injected = out.record.noise->net_injected_mean;
  // The work is the same; the time is the work plus the noise in it: makespan = baseline / (1 - injected).
  EXPECT_NEAR(*out.record.noise->slowdown * (1 - injected), 1.0, 0.01) << "injected " << injected;
  // Periodic noise injects its net fraction exactly (a tick a millisecond): 2.5%.
  if (std::string(c.source).find("periodic") != std::string::npos) {
    EXPECT_NEAR(injected, out.record.noise->net_configured, 0.001);
    EXPECT_NEAR(*out.record.noise->slowdown, 1.025, 0.01 * 1.025);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, AlignedNoise,
    ::testing::Values(
        AlignedCase{64, 1000, "  - {kind: periodic, period: 1ms, duration: 25us, phase: aligned}\n"},
        AlignedCase{4096, 200, "  - {kind: periodic, period: 1ms, duration: 25us, phase: aligned}\n"},
        AlignedCase{64, 1000, "  - {kind: poisson, rate: 1, duration: 25ms, phase: aligned}\n"},
        AlignedCase{4096, 200, "  - {kind: poisson, rate: 1000, duration: 25us, phase: aligned}\n"}),
    [](const ::testing::TestParamInfo<AlignedCase>& info) {
      return fmt::format("N{}_{}", info.param.workstations, info.index);
    });

}  // namespace
}  // namespace cosched::now
