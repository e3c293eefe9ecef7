#pragma once
// `cosched calibrate --noise` (issue 34; docs/calibration.md section 7): this machine's operating-system
// noise, measured the way the selfish-detour benchmark does (Beckman et al., Cluster 2006): on each allowed
// CPU at once, a thread pinned there reads the clock in a tight loop and records every gap between two
// readings above a threshold as a detour, the CPU taken from it. The detours make a noise trace that a NOW
// scenario replays (`noise: [{kind: trace, file: ...}]`, docs/models/now.md section 8).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cosched::calibrate {

struct NoisePlan {
  double seconds = 10;                // how long every CPU's loop runs
  std::int64_t threshold_ns = 1'000;  // a gap above this is a detour
  std::size_t capacity = 2'000'000;   // detours kept per CPU (reserved before the loop: no allocation in it)
};

struct CpuNoise {
  int cpu = 0;               // the operating system's number
  std::int64_t loop_ns = 0;  // the loop's shortest iteration, not counted in a detour
  std::int64_t iterations = 0;
  bool truncated = false;    // more detours than the capacity: the trace ends where this CPU stopped
  std::int64_t stopped = 0;  // ... at this many ns from the start
  struct Detour {
    std::int64_t start = 0, duration = 0;  // ns from the common start
  };
  std::vector<Detour> detours;
};

struct NoiseMeasurement {
  NoisePlan plan;
  std::int64_t span_ns = 0;  // the loops' common length
  std::vector<CpuNoise> cpus;
  // Over all CPUs: the share of the time detours took, detours per CPU-second, and the durations' quantiles.
  double net_fraction() const;
  double detours_per_second() const;
  std::int64_t duration_quantile(double q) const;  // 0 when there is none
  std::int64_t detour_count() const;
};

NoiseMeasurement measure_noise(const NoisePlan& plan,
                               const std::function<void(const std::string&)>& progress = {});

// The trace file `noise: {kind: trace}` reads: '#' lines with the span, the CPUs and the summary, the header
// cpu,start_ns,duration_ns and one detour per line (CPUs numbered 0.. in the order of the allowed CPUs).
std::string noise_trace_csv(const NoiseMeasurement& m, const std::string& host);
// What the terminal shows: per CPU and over all, the net noise, detours per second and durations.
std::string noise_text(const NoiseMeasurement& m);

}  // namespace cosched::calibrate
