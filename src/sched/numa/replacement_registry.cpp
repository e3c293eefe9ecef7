#include "sched/numa/replacement_registry.hpp"

#include "sched/numa/class_replacement.hpp"
#include "sched/numa/lru_replacement.hpp"

namespace cosched::sched {
namespace {

const NumaReplacementEntry* const kEntries[] = {&kStrategy0Entry, &kStrategy1Entry};

}  // namespace

const config::PolicyRegistry<NumaReplacementEntry>& numa_replacements() {
  static const config::PolicyRegistry<NumaReplacementEntry> registry(kEntries,
                                                                     {.what = "replacement strategy",
                                                                      .path = "memory.replacement",
                                                                      .policy_key = "replacement",
                                                                      .noun = "strategy",
                                                                      .nouns = "strategies",
                                                                      .last = " or ",
                                                                      .one_of = "a replacement strategy: ",
                                                                      .default_policy = "strategy1"});
  return registry;
}

}  // namespace cosched::sched
