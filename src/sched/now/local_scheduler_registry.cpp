#include "sched/now/local_scheduler_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "config/now_fields.hpp"
#include "sched/now/stride.hpp"
#include "sched/now/stride_credit.hpp"
#include "sched/now/time_sharing.hpp"
#include "sched/now/ts_dispatch_table.hpp"
#include "util/registry.hpp"

namespace cosched::sched {
namespace {

using config::Field;
using config::NowConfig;
using Json = nlohmann::ordered_json;
using Matrix = std::shared_ptr<GangMatrix>;

double seconds(config::Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

const config::Names<config::SleepReturn> kSleepReturnNames = {{"always", config::SleepReturn::Always},
                                                              {"maxwait", config::SleepReturn::Maxwait}};
const config::Names<config::WakePreempt> kWakePreemptNames = {{"pass", config::WakePreempt::Pass},
                                                              {"none", config::WakePreempt::None}};

// ---- keys (each policy lists the ones it takes, in the order they are checked) ----

// scheduler.quantum: the stride quantum and the gang slot.
const LocalPolicyKey kQuantum{"quantum",
                              [](const Field& f, NowConfig& now) { now.quantum = config::duration(f); }};
const LocalPolicyKey kContextSwitch{
    "context_switch", [](const Field& f, NowConfig& now) { now.context_switch = config::duration(f, true); }};
const LocalPolicyKey kWakePreempt{"wake_preempt", [](const Field& f, NowConfig& now) {
                                    now.wake_preempt = config::choice(f, kWakePreemptNames);
                                  }};

// ---- gang: explicit coscheduling (Brim & Miller 3.1) ----

const LocalPolicyKey kGangKeys[] = {kQuantum, kContextSwitch};

// ---- ts: Solaris time sharing ----

const LocalPolicyKey kTsKeys[] = {
    {"quantum",
     [](const Field& f, NowConfig&) {
       f.error("ts takes its quanta from the Solaris dispatch table; remove scheduler.quantum");
     }},
    kContextSwitch,
    {"sleep_return",
     [](const Field& f, NowConfig& now) { now.sleep_return = config::choice(f, kSleepReturnNames); }},
    {"initial_level",
     [](const Field& f, NowConfig& now) {
       auto level = f.non_negative_integer();
       if (level > 59) f.fail("a TS level from 0 to 59");
       now.initial_level = static_cast<int>(level);
     }},
};

void ts_json(const NowConfig& now, Json& scheduler) {
  scheduler["context_switch_s"] = seconds(now.context_switch);
  scheduler["sleep_return"] = config::name_of(kSleepReturnNames, now.sleep_return);
  scheduler["initial_level"] = now.initial_level;
}

std::unique_ptr<LocalScheduler> make_ts(const NowConfig& now, Matrix) {
  return std::make_unique<TimeSharing>(
      now.initial_level,
      now.sleep_return == config::SleepReturn::Always ? SleepReturn::Always : SleepReturn::Maxwait,
      TsDispatchTable::solaris_default());
}

// ---- stride and stride-credit (Waldspurger & Weihl; Brim & Miller 3.1) ----

const LocalPolicyKey kStrideKeys[] = {kQuantum, kContextSwitch, kWakePreempt};
const LocalPolicyKey kStrideCreditKeys[] = {
    kQuantum, kContextSwitch, kWakePreempt, {"credit_cap", [](const Field& f, NowConfig& now) {
                                               now.credit_cap = config::duration(f, true);
                                             }}};

void quantum_json(const NowConfig& now, Json& scheduler) {
  scheduler["quantum_s"] = seconds(now.quantum);
  scheduler["context_switch_s"] = seconds(now.context_switch);
}

void stride_json(const NowConfig& now, Json& scheduler) {
  quantum_json(now, scheduler);
  scheduler["wake_preempt"] = config::name_of(kWakePreemptNames, now.wake_preempt);
}

void stride_credit_json(const NowConfig& now, Json& scheduler) {
  stride_json(now, scheduler);
  scheduler["credit_cap_s"] = seconds(now.credit_cap.value_or(now.quantum));
}

// Choice (docs/models/now.md section 6): W&W's stride decides at quantum ends and when the running
// client leaves; B&M 3.4 has SSC, like TS, schedule a woken process "immediately".
void stride_defaults(NowConfig& now) {
  now.wake_preempt = config::WakePreempt::None;
}
void stride_credit_defaults(NowConfig& now) {
  now.wake_preempt = config::WakePreempt::Pass;
}

const LocalPolicyEntry kPolicies[] = {
    {"gang", "explicit coscheduling: one global matrix of time slots, one job per slot (Brim & Miller 3.1)",
     nullptr, kGangKeys, quantum_json, true,
     [](const NowConfig&, Matrix m) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<Gang>(std::move(m));
     }},
    {"ts", "Solaris time sharing: the dispatch table's levels, quanta and sleep returns (Brim & Miller 3.1)",
     nullptr, kTsKeys, ts_json, false, make_ts},
    {"stride",
     "stride scheduling: tickets, passes and a fixed quantum (Waldspurger & Weihl; Brim & Miller 3.1)",
     stride_defaults, kStrideKeys, stride_json, false,
     [](const NowConfig& now, Matrix) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<Stride>(now.quantum, now.wake_preempt == config::WakePreempt::Pass);
     }},
    {"stride-credit", "stride scheduling with system credit for sleepers (Brim & Miller 3.1)",
     stride_credit_defaults, kStrideCreditKeys, stride_credit_json, false,
     [](const NowConfig& now, Matrix) -> std::unique_ptr<LocalScheduler> {
       return std::make_unique<StrideCredit>(now.quantum, now.credit_cap,
                                             now.wake_preempt == config::WakePreempt::Pass);
     }},
};

// "applies to policy ts only", "applies to policies stride and stride-credit only"
std::string applies_only(std::string_view key) {
  const auto owners = util::entries_taking(std::span<const LocalPolicyEntry>(kPolicies), key);
  return fmt::format("applies to {} {} only", owners.size() == 1 ? "policy" : "policies",
                     util::join_list(owners, " and "));
}

}  // namespace

std::span<const LocalPolicyEntry> local_policies() {
  return kPolicies;
}

const LocalPolicyEntry* find_local_policy(std::string_view name) {
  return util::find_named(local_policies(), name);
}

const LocalPolicyEntry& local_policy(std::string_view name) {
  if (const auto* entry = find_local_policy(name)) return *entry;
  throw std::invalid_argument(fmt::format("scheduler.policy: unknown local scheduling policy '{}'", name));
}

std::string local_policy_names() {
  return util::names_of(local_policies());
}

void read_local_policy(config::MapReader& scheduler, NowConfig& now) {
  auto policy = scheduler.required("policy");
  const std::string expected = "one of " + local_policy_names();
  const auto* entry = find_local_policy(policy.scalar(expected));
  if (!entry) policy.fail(expected);
  now.policy = std::string(entry->name);
  if (entry->defaults) entry->defaults(now);
  // Every policy's keys, in the order the table first lists them: this policy's are read and checked,
  // the others' refused.
  std::vector<std::string_view> seen;
  for (const auto& other : kPolicies) {
    for (const auto& key : other.keys) {
      if (std::find(seen.begin(), seen.end(), key.name) != seen.end()) continue;
      seen.push_back(key.name);
      auto field = scheduler.optional(std::string(key.name));
      if (!field) continue;
      bool read = false;
      for (const auto& own : entry->keys) {
        if (own.name != key.name) continue;
        own.read(*field, now);
        read = true;
      }
      if (!read) field->error(applies_only(key.name));
    }
  }
}

}  // namespace cosched::sched
