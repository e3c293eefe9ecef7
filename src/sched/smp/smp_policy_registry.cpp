#include "sched/smp/smp_policy_registry.hpp"

#include <fmt/format.h>

#include <cmath>

#include "config/cycles.hpp"
#include "config/input_error.hpp"
#include "sched/smp/linux24.hpp"
#include "sched/smp/partitioned.hpp"
#include "sched/smp/round_robin.hpp"
#include "util/registry.hpp"
#include "workload/distribution.hpp"

namespace cosched::sched {
namespace {

using config::MapReader;
using config::SmpConfig;
using Json = nlohmann::ordered_json;

// The wakeup schemes scheduler.wakeup names (thesis 6.6.1.2), in the order error messages list them.
struct WakeupEntry {
  std::string_view name;
  std::string_view doc;
  WakeupScheme scheme;
};
const WakeupEntry kWakeups[] = {
    {"silly", "reschedule_idle for each woken task in turn; the chosen CPUs reschedule after the loop",
     WakeupScheme::Silly},
    {"aip", "silly, passing over the CPUs whose need_resched is already set (avoid idle preemption)",
     WakeupScheme::Aip},
    {"smart", "reschedule_idle made global: idle CPUs first, then the largest goodness gains (algorithm 5)",
     WakeupScheme::Smart},
};

// scheduler.aip_search: where aip looks for a CPU.
struct AipSearchEntry {
  std::string_view name;
  std::string_view doc;
  AipSearch search;
};
const AipSearchEntry kAipSearches[] = {
    {"idle", "idle CPUs only (the literal reading of AIP)", AipSearch::IdleOnly},
    {"all", "idle CPUs, then CPUs to preempt", AipSearch::IdleAndPreemption},
};

// scheduler.params: linux22 | linux24 | {proc_change_penalty, same_address_space_bonus, preemption_threshold}
// (thesis 6.6.2), the explicit values in cycles or % of the quantum.
void read_linux_params(config::Field field, SmpConfig& smp) {
  auto& linux_sched = smp.linux_sched;
  if (field.is_map()) {
    MapReader map(field, "linux22, linux24 or a mapping of the three parameters");
    const std::string expected = "a non-negative duration in cycles or % of the quantum";
    linux_sched.params = "explicit";
    linux_sched.proc_change_penalty =
        config::smp_cycles(map.required("proc_change_penalty"), smp.quantum, expected);
    linux_sched.same_address_space_bonus =
        config::smp_cycles(map.required("same_address_space_bonus"), smp.quantum, expected);
    linux_sched.preemption_threshold =
        config::smp_cycles(map.required("preemption_threshold"), smp.quantum, expected);
    map.finish();
    return;
  }
  const std::string expected =
      "linux22, linux24 or a mapping of proc_change_penalty, same_address_space_bonus and "
      "preemption_threshold";
  const auto name = field.scalar(expected);
  Linux24Params params;
  if (name == "linux22") {
    params = Linux24Params::linux22(smp.quantum);
  } else if (name == "linux24") {
    params = Linux24Params::linux24(smp.quantum);
  } else {
    field.fail(expected);
  }
  linux_sched.params = name;
  linux_sched.proc_change_penalty = params.proc_change_penalty;
  linux_sched.same_address_space_bonus = params.same_address_space_bonus;
  linux_sched.preemption_threshold = params.preemption_threshold;
}

void read_linux(MapReader& scheduler, SmpConfig& smp) {
  if (auto field = scheduler.optional("params")) {
    read_linux_params(*field, smp);
  } else {
    auto params =
        Linux24Params::linux22(smp.quantum);  // thesis 6.6.2: "use the parameter values of Linux-2.2"
    smp.linux_sched.proc_change_penalty = params.proc_change_penalty;
    smp.linux_sched.same_address_space_bonus = params.same_address_space_bonus;
    smp.linux_sched.preemption_threshold = params.preemption_threshold;
  }
  if (auto field = scheduler.optional("wakeup")) {
    const std::string expected = util::names_of(std::span<const WakeupEntry>(kWakeups), " or ");
    const auto* wakeup = util::find_named(std::span<const WakeupEntry>(kWakeups), field->scalar(expected));
    if (!wakeup) field->fail(expected);
    smp.linux_sched.wakeup = std::string(wakeup->name);
  }
  if (auto field = scheduler.optional("aip_search")) {
    const std::string expected = util::names_of(std::span<const AipSearchEntry>(kAipSearches), " or ");
    const auto* search =
        util::find_named(std::span<const AipSearchEntry>(kAipSearches), field->scalar(expected));
    if (!search) field->fail(expected);
    if (smp.linux_sched.wakeup != "aip") field->error("aip_search applies only to wakeup: aip");
    smp.linux_sched.aip_search = std::string(search->name);
  }
}

void linux_json(const SmpConfig& smp, Json& out) {
  const auto& l = smp.linux_sched;
  out["params"] = l.params;
  out["proc_change_penalty"] = l.proc_change_penalty;
  out["same_address_space_bonus"] = l.same_address_space_bonus;
  out["preemption_threshold"] = l.preemption_threshold;
  out["wakeup"] = l.wakeup;
  if (l.wakeup == "aip") out["aip_search"] = l.aip_search;
}

std::unique_ptr<SmpScheduler> make_linux(const SmpConfig& smp, int, std::uint64_t) {
  const auto& l = smp.linux_sched;
  Linux24Params params{smp.quantum, l.proc_change_penalty, l.same_address_space_bonus,
                       l.preemption_threshold};
  return std::make_unique<Linux24>(
      params, util::find_named(std::span<const WakeupEntry>(kWakeups), l.wakeup)->scheme,
      util::find_named(std::span<const AipSearchEntry>(kAipSearches), l.aip_search)->search);
}

void read_partitioned(MapReader& scheduler, SmpConfig& smp) {
  auto period = scheduler.required("period");
  smp.partitioned.period =
      config::smp_cycles(period, smp.quantum, "a positive period in cycles or % of the quantum");
  if (smp.partitioned.period <= 0) period.fail("a positive period in cycles or % of the quantum");
  auto partition = scheduler.required("partition");
  const std::string expected = "a distribution of partition sizes such as \"7:5,2-6:95\"";
  smp.partitioned.partition = partition.scalar(expected);
  std::string why;
  auto distribution = workload::Distribution::parse(smp.partitioned.partition, &why);
  if (!distribution) partition.fail(expected + " (" + why + ")");
  if (distribution->min() < 1) partition.fail(expected + " with sizes of at least 1");
  if (smp.cpus > 0 && distribution->max() > smp.cpus)
    partition.fail(fmt::format("{} with sizes up to platform.cpus = {}", expected, smp.cpus));
}

// K&W 4: every job has a partition of its own, and only synchronizing jobs are partitioned.
void check_partitioned(const config::Field& scenario, const SmpConfig& smp) {
  if (smp.nosync > 0)
    scenario.error("scheduler.policy: partitioned runs synchronizing jobs only: give workload.nosync: 0");
  int jobs = 0;
  for (const auto& job : smp.jobs) jobs += job.copies;
  auto distribution = workload::Distribution::parse(smp.partitioned.partition);
  const double block = std::floor(distribution->max());
  if (smp.cpus > 0 && block * jobs > smp.cpus)
    scenario.error(
        fmt::format("scheduler.partition: {} jobs with partitions of up to {:g} processors need more than "
                    "platform.cpus = {}",
                    jobs, block, smp.cpus));
}

void partitioned_json(const SmpConfig& smp, Json& out) {
  out["period"] = smp.partitioned.period;
  out["partition"] = smp.partitioned.partition;
}

std::unique_ptr<SmpScheduler> make_partitioned(const SmpConfig& smp, int cpus, std::uint64_t seed) {
  auto distribution = workload::Distribution::parse(smp.partitioned.partition);
  int jobs = 0;
  for (const auto& job : smp.jobs) jobs += job.copies;
  // With platform.cpus this was checked when the scenario was read; a platform file says it only now.
  const double block = std::floor(distribution->max());
  if (block * jobs > cpus)
    throw config::InputError(fmt::format(
        "{}: platform.file: its host has {} cores, but scheduler.partition gives {} jobs partitions of up "
        "to {:g} processors; expected at least {:g} cores",
        smp.platform_file, cpus, jobs, block, block * jobs));
  // The partition stream has a seed of its own, derived from the run's seed.
  return std::make_unique<Partitioned>(smp.quantum, smp.partitioned.period, *distribution, cpus, jobs,
                                       seed * 0x9E3779B97F4A7C15ULL + 0x5EED);
}

const SmpPolicyEntry kPolicies[] = {
    {"rr", "SCHED_RR: one global FIFO ready queue, fixed quantum (Tsafrir thesis chapter 2)",
     [](MapReader&, SmpConfig&) {}, nullptr, [](const SmpConfig&, Json&) {},
     [](const SmpConfig& smp, int, std::uint64_t) -> std::unique_ptr<SmpScheduler> {
       return std::make_unique<RoundRobin>(smp.quantum);
     }},
    {"linux24",
     "Linux 2.4 SCHED_OTHER: counters, epochs, goodness, reschedule_idle, wakeup schemes (thesis chapters "
     "6-7)",
     read_linux, nullptr, linux_json, make_linux},
    {"partitioned",
     "dynamic hardware partitions redrawn every period, round robin within (Kontothanassis & Wisniewski 4)",
     read_partitioned, check_partitioned, partitioned_json, make_partitioned, true},
};

}  // namespace

std::span<const SmpPolicyEntry> smp_policies() {
  return kPolicies;
}

const SmpPolicyEntry* find_smp_policy(std::string_view name) {
  return util::find_named(std::span<const SmpPolicyEntry>(kPolicies), name);
}

std::string smp_policy_names() {
  return util::names_of(std::span<const SmpPolicyEntry>(kPolicies), " or ");
}

}  // namespace cosched::sched
