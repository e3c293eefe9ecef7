#pragma once
// The keys of a Linux fair scheduler (scheduler.policy cfs or eevdf) that both models share: the kernel
// version whose defaults apply, HZ, the tunables' scaling, each tunable and feature switch. Each model's
// policy entry (sched/now/fair.cpp, sched/smp/fair.cpp) lists them beside its own keys; its parameter struct
// derives from FairKnobs. docs/models/linux-fair.md section 1.

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "config/policy.hpp"
#include "sched/fair/kernel.hpp"

namespace cosched::sched::fair {

struct FairKnobs {
  explicit FairKnobs(Algorithm a) : algorithm(a), kernel(a == Algorithm::Cfs ? "6.1" : "6.12") {}
  virtual ~FairKnobs() = default;

  Algorithm algorithm;
  std::string kernel;  // a name of kernel_versions() of this algorithm
  int hz = 250;        // CONFIG_HZ
  TunableScaling scaling = TunableScaling::Log;
  // Overrides of the version's scaled defaults (the values the sysctl or debugfs files would hold).
  std::optional<Time> latency, min_granularity, wakeup_granularity, base_slice;
  std::array<std::optional<bool>, kFeatureCount> features{};

  const KernelVersion& version() const { return *kernel_version(kernel); }
  // The run queue settings on a machine of `cpus` CPUs.
  Settings settings(int cpus) const;
  // Why switching `feature` would change nothing in this model (a refusal), or empty.
  virtual std::string_view inert(Feature feature) const;
};

// The keys, in the order they are checked: kernel first (the features depend on it).
extern const config::PolicyKey kKernelKey;
extern const config::PolicyKey kHzKey;
extern const config::PolicyKey kTunableScalingKey;
extern const config::PolicyKey kLatencyKey;
extern const config::PolicyKey kMinGranularityKey;
extern const config::PolicyKey kWakeupGranularityKey;
extern const config::PolicyKey kBaseSliceKey;
extern const config::PolicyKey kFeaturesKey;

// The resolved form: kernel, hz, scaling, the effective tunables of `cpus` CPUs and every feature of the
// version with its value.
void fair_json(const FairKnobs& knobs, int cpus, nlohmann::ordered_json& out);

}  // namespace cosched::sched::fair
