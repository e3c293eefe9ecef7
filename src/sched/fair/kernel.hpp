#pragma once
// The Linux fair scheduler versions cosched models, their feature switches (kernel/sched/features.h) and
// tunables (kernel/sched/fair.c), and the settings one run queue runs under once a scenario has chosen a
// version and overridden what it wants. docs/models/linux-fair.md sections 1 and 3.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cosched::sched::fair {

using Time = std::int64_t;  // nanoseconds of the CPU's clock

enum class Algorithm { Cfs, Eevdf };

// The switches of kernel/sched/features.h that change how a task is placed, picked or preempted.
enum class Feature {
  GentleFairSleepers,    // CFS: a sleeper is placed at most half a latency behind min_vruntime
  StartDebit,            // CFS: a new task starts one vslice after min_vruntime
  NextBuddy,             // CFS: prefer the last woken task at the next pick
  LastBuddy,             // CFS: prefer the task a wakeup preempted at the next pick
  WakeupPreemption,      // both: a waking task may preempt the running one
  PlaceLag,              // EEVDF: a waking task keeps the lag it left with
  PlaceDeadlineInitial,  // EEVDF: a new task's first request is half a slice
  PlaceRelDeadline,      // EEVDF (6.12+): a migrating task keeps its deadline relative to its vruntime
  RunToParity,           // EEVDF: the running task is not preempted before its slice's end by a wakeup
  PreemptShort,          // EEVDF (6.12+): a task with a shorter slice may preempt through run-to-parity
  DelayDequeue,          // EEVDF (6.12+): a sleeper with negative lag stays queued until it is eligible
  DelayZero,             // EEVDF (6.12+): a delayed sleeper's positive lag is dropped when it leaves
  Hrtick,                // both: slices end by a high-resolution timer, not at the next tick
};
inline constexpr std::size_t kFeatureCount = 13;

// The feature's name in features.h (and in /sys/kernel/debug/sched/features).
std::string_view feature_name(Feature feature);
std::optional<Feature> feature_by_name(std::string_view name);

using FeatureSet = std::array<bool, kFeatureCount>;

// sysctl_sched_tunable_scaling: how the tunables grow with the CPU count (get_update_sysctl_factor).
enum class TunableScaling { None, Log, Linear };

// One kernel version: its algorithm, the features it has with their defaults, and its normalized tunables
// (before scaling by the CPU count).
struct KernelVersion {
  std::string_view name;  // "6.1", "6.6", ...
  Algorithm algorithm;
  FeatureSet has;           // the switches this version's features.h defines
  FeatureSet defaults;      // and their defaults
  Time latency;             // CFS: normalized_sysctl_sched_latency
  Time min_granularity;     // CFS: normalized_sysctl_sched_min_granularity
  Time wakeup_granularity;  // CFS: normalized_sysctl_sched_wakeup_granularity
  Time base_slice;          // EEVDF: normalized_sysctl_sched_base_slice
  // EEVDF rules that changed without a feature switch:
  bool protect_period = false;  // 6.17+: slice protection lasts until se->vprot (set_protect_slice)
  bool yield_forfeits = false;  // 6.18: an eligible yielder's vruntime jumps to its deadline
};

std::span<const KernelVersion> kernel_versions();
const KernelVersion* kernel_version(std::string_view name);

// The factor the tunables are multiplied by on `cpus` CPUs: 1, 1 + ilog2(min(cpus, 8)), or min(cpus, 8).
unsigned scaling_factor(TunableScaling scaling, int cpus);

// What one run queue runs under: the version's algorithm and features after the scenario's overrides, and
// its tunables after scaling and overrides.
struct Settings {
  Algorithm algorithm = Algorithm::Eevdf;
  FeatureSet features{};
  Time latency = 6'000'000;
  Time min_granularity = 750'000;
  Time wakeup_granularity = 1'000'000;
  Time base_slice = 750'000;
  Time tick = 4'000'000;  // TICK_NSEC: 1 s / HZ
  Time tick_offset = 0;   // this CPU's ticks are at tick_offset + k x tick (skew_tick)
  bool protect_period = false;
  bool yield_forfeits = false;
  // 6.17+ without RUN_TO_PARITY: the running task is protected for the unscaled base slice.
  Time min_protect = 700'000;

  // sched_nr_latency = DIV_ROUND_UP(sysctl_sched_latency, sysctl_sched_min_granularity), as
  // sched_update_scaling keeps it (8 for 6.1's defaults, whatever the factor: both are scaled alike).
  unsigned nr_latency() const {
    return min_granularity > 0 ? static_cast<unsigned>((latency + min_granularity - 1) / min_granularity) : 8;
  }
  bool on(Feature feature) const { return features[static_cast<std::size_t>(feature)]; }
  // A version's defaults on `cpus` CPUs under its default (logarithmic) scaling and HZ.
  static Settings of(const KernelVersion& version, int cpus, TunableScaling scaling = TunableScaling::Log,
                     int hz = 250);
};

}  // namespace cosched::sched::fair
