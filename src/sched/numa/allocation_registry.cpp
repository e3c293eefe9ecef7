#include "sched/numa/allocation_registry.hpp"

#include "sched/numa/area_allocation.hpp"
#include "sched/numa/contiguous_allocation.hpp"
#include "sched/numa/random_allocation.hpp"

namespace cosched::sched {
namespace {

const NumaPolicyEntry* const kEntries[] = {
    &kPolicy0Entry, &kPolicy1Entry, &kPolicy2Entry, &kPolicy3Entry, &kPolicy4Entry, &kPolicy4HomeEntry,
};

}  // namespace

const config::PolicyRegistry<NumaPolicyEntry>& numa_allocation_policies() {
  static const config::PolicyRegistry<NumaPolicyEntry> registry(kEntries, {.what = "allocation policy",
                                                                           .path = "scheduler.policy",
                                                                           .last = " or ",
                                                                           .one_of = "an allocation policy: ",
                                                                           .default_policy = "policy4"});
  return registry;
}

}  // namespace cosched::sched
