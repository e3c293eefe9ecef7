#include "wait/smp/smp_wait_registry.hpp"

#include "wait/smp/competitive.hpp"
#include "wait/smp/scheduler_info.hpp"
#include "wait/smp/thesis_proposals.hpp"

namespace cosched::wait {
namespace {

// One line each, so that adding an algorithm adds one line (clang-format would pack them in columns).
// clang-format off
const SmpWaitEntry* const kEntries[] = {
    &kSmpFixedSpinEntry,
    &kSmpBlockEntry,
    &kSmpSpinEntry,
    &kSmpYieldEntry,
    &kCompetitiveFixedEntry,
    &kLastOneEntry,
    &kAverageThreeEntry,
    &kCoarseAdjustmentEntry,
    &kSchedulerInfoEntry,
    &kYieldOnWakeEntry,
    &kLoadBasedEntry,
    &kGranularityAwareEntry,
};
// clang-format on

}  // namespace

const config::PolicyRegistry<SmpWaitEntry>& smp_waits() {
  // An algorithm's keys are its own: another algorithm's key is an unknown key of the `wait` mapping.
  static const config::PolicyRegistry<SmpWaitEntry> registry(kEntries, {.what = "waiting algorithm",
                                                                        .path = "wait.algorithm",
                                                                        .policy_key = "algorithm",
                                                                        .noun = "algorithm",
                                                                        .nouns = "algorithms",
                                                                        .last = " or ",
                                                                        .one_of = "",
                                                                        .refuse_others = false});
  return registry;
}

config::PolicyChoice read_smp_wait(const config::Field& field, Cycles quantum, Cycles context_switch) {
  config::MapReader map(field, "a mapping such as {algorithm: fixed-spin, spin: 6%}");
  auto choice = smp_waits()
                    .read(map,
                          [&](config::PolicyParams& params) {
                            static_cast<config::SmpWaitParams&>(params).derive(quantum, context_switch);
                          })
                    .choice();
  map.finish();
  return choice;
}

nlohmann::ordered_json smp_wait_json(const config::PolicyChoice& wait) {
  nlohmann::ordered_json out;
  smp_waits().to_json(wait, out);
  return out;
}

std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const config::PolicyChoice& wait) {
  return smp_waits().at(wait.name).make(*wait.params);
}

}  // namespace cosched::wait
