#include "sched/fair/kernel.hpp"

#include <algorithm>
#include <bit>

namespace cosched::sched::fair {
namespace {

constexpr std::array<std::string_view, kFeatureCount> kFeatureNames = {
    "GENTLE_FAIR_SLEEPERS",
    "START_DEBIT",
    "NEXT_BUDDY",
    "LAST_BUDDY",
    "WAKEUP_PREEMPTION",
    "PLACE_LAG",
    "PLACE_DEADLINE_INITIAL",
    "PLACE_REL_DEADLINE",
    "RUN_TO_PARITY",
    "PREEMPT_SHORT",
    "DELAY_DEQUEUE",
    "DELAY_ZERO",
    "HRTICK",
};

constexpr FeatureSet features(std::initializer_list<Feature> list) {
  FeatureSet set{};
  for (Feature f : list) set[static_cast<std::size_t>(f)] = true;
  return set;
}

using enum Feature;

// CFS as 6.1.20 has it (features.h: GENTLE_FAIR_SLEEPERS, START_DEBIT, LAST_BUDDY, WAKEUP_PREEMPTION on;
// NEXT_BUDDY, HRTICK off). BASE_SLICE and ALT_PERIOD are on and not switchable here.
constexpr FeatureSet kCfsHas =
    features({GentleFairSleepers, StartDebit, NextBuddy, LastBuddy, WakeupPreemption, Hrtick});
constexpr FeatureSet kCfsDefaults = features({GentleFairSleepers, StartDebit, LastBuddy, WakeupPreemption});

// EEVDF as 6.6.9 has it: PLACE_LAG, RUN_TO_PARITY, WAKEUP_PREEMPTION on, HRTICK off. PLACE_DEADLINE_INITIAL
// is on but has no effect: wake_up_new_task enqueues without ENQUEUE_INITIAL, so place_entity gives a new
// task a full request (docs/models/linux-fair.md 3.2). NEXT_BUDDY is left out of the EEVDF model.
constexpr FeatureSet kEevdf66Has = features({PlaceLag, RunToParity, WakeupPreemption, Hrtick});
constexpr FeatureSet kEevdf66Defaults = features({PlaceLag, RunToParity, WakeupPreemption});

// 6.12.19 adds PLACE_REL_DEADLINE, PREEMPT_SHORT, DELAY_DEQUEUE and DELAY_ZERO, all on, and new tasks get
// their half request; 6.15 and 6.18.2 have the same switches.
constexpr FeatureSet kEevdf612Has =
    features({PlaceLag, PlaceDeadlineInitial, PlaceRelDeadline, RunToParity, PreemptShort, WakeupPreemption,
              DelayDequeue, DelayZero, Hrtick});
constexpr FeatureSet kEevdf612Defaults =
    features({PlaceLag, PlaceDeadlineInitial, PlaceRelDeadline, RunToParity, PreemptShort, WakeupPreemption,
              DelayDequeue, DelayZero});

constexpr KernelVersion kVersions[] = {
    {"6.1", Algorithm::Cfs, kCfsHas, kCfsDefaults, 6'000'000, 750'000, 1'000'000, 0},
    {"6.6", Algorithm::Eevdf, kEevdf66Has, kEevdf66Defaults, 0, 0, 0, 750'000},
    {"6.12", Algorithm::Eevdf, kEevdf612Has, kEevdf612Defaults, 0, 0, 0, 750'000},
    // "sched: Reduce the default slice to avoid tasks getting an extra tick": 0.70 ms from 6.15.
    {"6.15", Algorithm::Eevdf, kEevdf612Has, kEevdf612Defaults, 0, 0, 0, 700'000},
    {"6.18", Algorithm::Eevdf, kEevdf612Has, kEevdf612Defaults, 0, 0, 0, 700'000, true, true},
};

}  // namespace

std::string_view feature_name(Feature feature) {
  return kFeatureNames[static_cast<std::size_t>(feature)];
}

std::optional<Feature> feature_by_name(std::string_view name) {
  const auto it = std::find(kFeatureNames.begin(), kFeatureNames.end(), name);
  if (it == kFeatureNames.end()) return std::nullopt;
  return static_cast<Feature>(it - kFeatureNames.begin());
}

std::span<const KernelVersion> kernel_versions() {
  return kVersions;
}

const KernelVersion* kernel_version(std::string_view name) {
  for (const auto& version : kVersions)
    if (version.name == name) return &version;
  return nullptr;
}

unsigned scaling_factor(TunableScaling scaling, int cpus) {
  const auto n = static_cast<unsigned>(std::clamp(cpus, 1, 8));
  switch (scaling) {
    case TunableScaling::None:
      return 1;
    case TunableScaling::Log:
      return 1 + static_cast<unsigned>(std::bit_width(n) - 1);  // 1 + ilog2(n)
    case TunableScaling::Linear:
      return n;
  }
  return 1;
}

Settings Settings::of(const KernelVersion& version, int cpus, TunableScaling scaling, int hz) {
  const auto factor = static_cast<Time>(scaling_factor(scaling, cpus));
  Settings s;
  s.algorithm = version.algorithm;
  s.features = version.defaults;
  s.latency = version.latency * factor;
  s.min_granularity = version.min_granularity * factor;
  s.wakeup_granularity = version.wakeup_granularity * factor;
  s.base_slice = version.base_slice * factor;
  s.tick = (1'000'000'000 + hz / 2) / hz;  // TICK_NSEC
  s.protect_period = version.protect_period;
  s.yield_forfeits = version.yield_forfeits;
  s.min_protect = version.base_slice;  // normalized_sysctl_sched_base_slice
  return s;
}

}  // namespace cosched::sched::fair
