#include "sched/smp_policy_registry.hpp"

#include "sched/round_robin.hpp"

namespace cosched::sched {
namespace {

using config::MapReader;
using config::SmpConfig;
using Json = nlohmann::ordered_json;

const SmpPolicyEntry kPolicies[] = {
    {"rr", "SCHED_RR: one global FIFO ready queue, fixed quantum (Tsafrir thesis chapter 2)",
     [](MapReader&, SmpConfig&) {}, [](const SmpConfig&, Json&) {},
     [](const SmpConfig& smp, int, std::uint64_t) -> std::unique_ptr<SmpScheduler> {
       return std::make_unique<RoundRobin>(smp.quantum);
     }},
};

}  // namespace

std::span<const SmpPolicyEntry> smp_policies() {
  return kPolicies;
}

const SmpPolicyEntry* find_smp_policy(std::string_view name) {
  for (const auto& entry : kPolicies) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::string smp_policy_names() {
  std::string out;
  const std::size_t n = std::size(kPolicies);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? " or " : ", ";
    out += kPolicies[i].name;
  }
  return out;
}

}  // namespace cosched::sched
