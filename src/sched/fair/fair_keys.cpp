#include "sched/fair/fair_keys.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "config/keys.hpp"
#include "util/registry.hpp"

namespace cosched::sched::fair {
namespace {

FairKnobs& knobs_of(config::PolicyParams& params) {
  return dynamic_cast<FairKnobs&>(params);
}

const config::Names<TunableScaling> kScalingNames = {
    {"none", TunableScaling::None}, {"log", TunableScaling::Log}, {"linear", TunableScaling::Linear}};

// The versions of one algorithm, as an error lists them.
std::string versions_of(Algorithm algorithm) {
  std::vector<std::string_view> names;
  for (const auto& version : kernel_versions())
    if (version.algorithm == algorithm) names.push_back(version.name);
  return util::join_list(names, " or ");
}

const char* policy_name(Algorithm algorithm) {
  return algorithm == Algorithm::Cfs ? "cfs" : "eevdf";
}

}  // namespace

Settings FairKnobs::settings(int cpus) const {
  Settings s = Settings::of(version(), cpus, scaling, hz);
  if (latency) s.latency = *latency;
  if (min_granularity) s.min_granularity = *min_granularity;
  if (wakeup_granularity) s.wakeup_granularity = *wakeup_granularity;
  if (base_slice) s.base_slice = *base_slice;
  for (std::size_t i = 0; i < kFeatureCount; ++i)
    if (features[i]) s.features[i] = *features[i];
  return s;
}

std::string_view FairKnobs::inert(Feature feature) const {
  if (feature == Feature::PreemptShort)
    return "every task has the base slice (cosched has no per-task slices, sched_attr's sched_runtime), so "
           "PREEMPT_SHORT never applies";
  return {};
}

constinit const config::PolicyKey kKernelKey = {
    "kernel",
    "the Linux version whose defaults apply: 6.1 for cfs; 6.6, 6.12, 6.15 or 6.18 for eevdf (default 6.1 for "
    "cfs, 6.12 for eevdf)",
    [](const config::Field& f, config::PolicyParams& params) {
      auto& knobs = knobs_of(params);
      const auto text = f.scalar("a kernel version");
      const KernelVersion* version = kernel_version(text);
      if (!version || version->algorithm != knobs.algorithm) {
        std::string expected = fmt::format("one of {} for scheduler.policy {}", versions_of(knobs.algorithm),
                                           policy_name(knobs.algorithm));
        if (version) expected += fmt::format(" ({} runs {})", text, policy_name(version->algorithm));
        f.fail(expected);
      }
      knobs.kernel = version->name;
    }};

constinit const config::PolicyKey kHzKey = {
    "hz",
    "CONFIG_HZ, the tick rate at which a slice's end is noticed unless HRTICK is on: 100, 250, 300 or "
    "1000 (default 250)",
    [](const config::Field& f, config::PolicyParams& params) {
      const auto hz = f.integer();
      if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) f.fail("one of 100, 250, 300 or 1000");
      knobs_of(params).hz = static_cast<int>(hz);
    }};

constinit const config::PolicyKey kTunableScalingKey = {
    "tunable_scaling",
    "how the tunables grow with the CPUs (sched_tunable_scaling): none, log (1 + log2 of the CPUs up to 8) "
    "or linear (default log)",
    [](const config::Field& f, config::PolicyParams& params) {
      knobs_of(params).scaling = config::choice(f, kScalingNames);
    }};

namespace {

// The bounds sched_setattr puts on a task's slice (0.1 ms to 100 ms), stretched to 1 s, keep every tunable
// from turning a run into a storm of slice ends; the wakeup granularity may be 0 (every wakeup preempts).
template <std::optional<Time> FairKnobs::*member, Time kMin>
void read_tunable(const config::Field& f, config::PolicyParams& params) {
  const Time value = config::duration(f, kMin == 0);
  if (value < kMin || value > 1'000'000'000)
    f.fail(kMin == 0 ? "a duration from 0 to 1s" : "a duration from 100us to 1s");
  knobs_of(params).*member = value;
}

}  // namespace

constinit const config::PolicyKey kLatencyKey = {
    "latency",
    "CFS's sched_latency, the period its runnable tasks share (duration from 100us to 1s; default 6ms x the "
    "factor)",
    read_tunable<&FairKnobs::latency, 100'000>};
constinit const config::PolicyKey kMinGranularityKey = {
    "min_granularity",
    "CFS's min_granularity, the shortest slice (duration from 100us to 1s; default 0.75ms x the factor)",
    read_tunable<&FairKnobs::min_granularity, 100'000>};
constinit const config::PolicyKey kWakeupGranularityKey = {
    "wakeup_granularity",
    "CFS's wakeup_granularity, how far behind a woken task must be to preempt (duration from 0 to 1s; "
    "default 1ms x the factor)",
    read_tunable<&FairKnobs::wakeup_granularity, 0>};
constinit const config::PolicyKey kBaseSliceKey = {
    "base_slice",
    "EEVDF's base_slice, the length of a request (duration from 100us to 1s; default 0.75ms x the factor, "
    "0.70ms from 6.15)",
    read_tunable<&FairKnobs::base_slice, 100'000>};

constinit const config::PolicyKey kFeaturesKey = {
    "features",
    "a mapping of the version's feature switches (kernel/sched/features.h) to true or false, such as "
    "{RUN_TO_PARITY: false}",
    [](const config::Field& f, config::PolicyParams& params) {
      auto& knobs = knobs_of(params);
      const KernelVersion& version = knobs.version();
      std::vector<std::string_view> known;
      for (std::size_t i = 0; i < kFeatureCount; ++i)
        if (version.has[i]) known.push_back(feature_name(static_cast<Feature>(i)));
      const auto expected =
          fmt::format("a feature of Linux {}: {}", version.name, util::join_list(known, " or "));
      if (!f.is_map()) f.fail("a mapping of feature names to true or false");
      for (const auto& item : f.node()) {
        const auto name = item.first.as<std::string>();
        const config::Field value = f.child(item.second, name);
        const auto feature = feature_by_name(name);
        if (!feature || !version.has[static_cast<std::size_t>(*feature)])
          value.error(fmt::format("unknown feature; expected {}", expected));
        if (const auto why = knobs.inert(*feature); !why.empty()) value.error(why);
        knobs.features[static_cast<std::size_t>(*feature)] = value.boolean();
      }
    }};

void fair_json(const FairKnobs& knobs, int cpus, nlohmann::ordered_json& out) {
  const Settings s = knobs.settings(cpus);
  out["kernel"] = knobs.kernel;
  out["hz"] = knobs.hz;
  out["tunable_scaling"] = config::name_of(kScalingNames, knobs.scaling);
  const auto seconds = [](Time t) { return static_cast<double>(t) * 1e-9; };
  if (knobs.algorithm == Algorithm::Cfs) {
    out["latency_s"] = seconds(s.latency);
    out["min_granularity_s"] = seconds(s.min_granularity);
    out["wakeup_granularity_s"] = seconds(s.wakeup_granularity);
  } else {
    out["base_slice_s"] = seconds(s.base_slice);
  }
  auto& features = out["features"];
  features = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < kFeatureCount; ++i)
    if (knobs.version().has[i]) features[std::string(feature_name(static_cast<Feature>(i)))] = s.features[i];
}

}  // namespace cosched::sched::fair
