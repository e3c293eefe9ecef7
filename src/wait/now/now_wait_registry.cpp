#include "wait/now/now_wait_registry.hpp"

#include "wait/now/fixed_wait.hpp"
#include "wait/now/informed.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::wait {
namespace {

const NowWaitEntry* const kEntries[] = {
    &kBlockEntry,        &kSpinFixedEntry,        &kPairwiseEntry,      &kBlockImmediatelyEntry,
    &kSpinEntry,         &kLargeInitialSpinEntry, &kVarianceGuessEntry, &kVarianceWithProcCountEntry,
    &kAvgProcDelayEntry,
};

// The keys of `wait`, in the order an unknown key's error lists them, each with its place in the order they
// are checked and its refusal for an algorithm that does not take it.
constexpr std::string_view kTwoPhaseOnly =
    "only the two-phase algorithms take this key (algorithm is {policy})";
constexpr config::FamilyKey kKeys[] = {
    {"spin", 0, "only {owners} takes 'spin' (algorithm is {policy})"},
    {"initial_spin", 1, "only {owners} takes 'initial_spin' (algorithm is {policy})"},
    {"read_spin", 2, kTwoPhaseOnly},
    {"barrier_spin", 3, kTwoPhaseOnly},
    {"window", 4, kTwoPhaseOnly},
    {"resume", 5, "only {owners} take 'resume' (algorithm is {policy})"},
    {"conditional", 6, kTwoPhaseOnly},
    {"read_window", 8, "only {owners} takes 'read_window' (algorithm is {policy})"},
    {"after_wake", 7, kTwoPhaseOnly},
    {"threshold", 9, "only {owners} take 'threshold' (algorithm is {policy})"},
    {"prefetch", 10, "every algorithm takes 'prefetch'"},
    {"prefetch_lead", 11, "every algorithm takes 'prefetch_lead'"},
};

void check_prefetch(config::MapReader& map, const config::PolicyParams& params) {
  const auto& w = static_cast<const config::NowWaitParams&>(params);
  if (w.prefetch_lead && !w.prefetch)
    map.optional("prefetch_lead")->error("prefetch_lead applies only with prefetch: true");
}

double seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

}  // namespace

const config::PolicyRegistry<NowWaitEntry>& now_waits() {
  static const config::PolicyRegistry<NowWaitEntry> registry(kEntries, {.what = "waiting algorithm",
                                                                        .path = "wait.algorithm",
                                                                        .policy_key = "algorithm",
                                                                        .noun = "algorithm",
                                                                        .nouns = "algorithms",
                                                                        .keys = kKeys,
                                                                        .check = check_prefetch});
  return registry;
}

config::PolicyChoice read_now_wait(const config::Field& field) {
  config::MapReader map(field, "a mapping such as {algorithm: pairwise}");
  auto choice = now_waits().read(map).choice();
  map.finish();
  return choice;
}

nlohmann::ordered_json now_wait_json(const config::PolicyChoice& wait) {
  nlohmann::ordered_json out;
  now_waits().to_json(wait, out);
  return out;
}

void prefetch_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& w = static_cast<const config::NowWaitParams&>(params);
  if (w.prefetch) out["prefetch"] = true;
  if (w.prefetch_lead) out["prefetch_lead_s"] = seconds(*w.prefetch_lead);
}

void resume_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  out["resume"] = config::name_of(kResumeNames, static_cast<const config::NowWaitParams&>(params).resume);
}

std::unique_ptr<NowWaitAlgorithm> make_now_wait(const config::PolicyChoice& wait,
                                                const WaitPlatform& platform) {
  auto algorithm = now_waits().at(wait.name).make(*wait.params, platform);
  algorithm->set_resume(wait.as<config::NowWaitParams>().resume);
  return algorithm;
}

Nanos prefetch_lead(const config::PolicyChoice& wait, const WaitPlatform& platform) {
  const auto& w = wait.as<config::NowWaitParams>();
  if (!w.prefetch) return -1;
  // B&M 3.3: "at time W+L+2o from now".
  return w.prefetch_lead.value_or(platform.context_switch + platform.latency + 2 * platform.overhead);
}

}  // namespace cosched::wait
