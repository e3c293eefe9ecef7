#include "wait/now_wait_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <vector>

#include "config/now_fields.hpp"
#include "util/registry.hpp"
#include "wait/fixed_wait.hpp"
#include "wait/informed.hpp"
#include "wait/pairwise.hpp"

namespace cosched::wait {
namespace {

using config::Field;
using config::NowWait;
using Json = nlohmann::ordered_json;

double seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

const config::Names<NowWait::Resume> kResumeNames = {{"restart", NowWait::Resume::Restart},
                                                     {"keep", NowWait::Resume::Keep},
                                                     {"block", NowWait::Resume::Block}};
const config::Names<NowWait::Conditional> kConditionalNames = {{"count", NowWait::Conditional::Count},
                                                               {"extend", NowWait::Conditional::Extend}};
const config::Names<NowWait::ReadWindow> kReadWindowNames = {
    {"pairwise", NowWait::ReadWindow::Pairwise},
    {"read-baseline", NowWait::ReadWindow::ReadBaseline},
    {"none", NowWait::ReadWindow::None}};
const config::Names<NowWait::AfterWake> kAfterWakeNames = {{"first-phase", NowWait::AfterWake::FirstPhase},
                                                           {"window", NowWait::AfterWake::Window}};

// ---- the keys of `wait`, in the order an unknown key's error lists them, each with its place in the order
// they are checked and its refusal for an algorithm that does not take it ({owners}: the algorithms that
// do; {algorithm}: the one chosen) ----

struct KeyRule {
  std::string_view name;
  int check;  // 0 is checked first
  std::string_view refusal;
};
constexpr std::string_view kTwoPhaseOnly =
    "only the two-phase algorithms take this key (algorithm is {algorithm})";
constexpr KeyRule kKeyRules[] = {
    {"spin", 0, "only {owners} takes 'spin' (algorithm is {algorithm})"},
    {"initial_spin", 1, "only {owners} takes 'initial_spin' (algorithm is {algorithm})"},
    {"read_spin", 2, kTwoPhaseOnly},
    {"barrier_spin", 3, kTwoPhaseOnly},
    {"window", 4, kTwoPhaseOnly},
    {"resume", 5, "only {owners} take 'resume' (algorithm is {algorithm})"},
    {"conditional", 6, kTwoPhaseOnly},
    {"read_window", 8, "only {owners} takes 'read_window' (algorithm is {algorithm})"},
    {"after_wake", 7, kTwoPhaseOnly},
    {"threshold", 9, "only {owners} take 'threshold' (algorithm is {algorithm})"},
    {"prefetch", 10, "every algorithm takes 'prefetch'"},
    {"prefetch_lead", 11, "every algorithm takes 'prefetch_lead'"},
};

// ---- readers shared by several algorithms ----

const NowWaitKey kResume{"resume",
                         [](const Field& f, NowWait& w) { w.resume = config::choice(f, kResumeNames); }};
const NowWaitKey kReadSpin{"read_spin",
                           [](const Field& f, NowWait& w) { w.read_spin = config::duration(f); }};
const NowWaitKey kWindow{"window", [](const Field& f, NowWait& w) { w.window = config::duration(f); }};
const NowWaitKey kConditional{
    "conditional", [](const Field& f, NowWait& w) { w.conditional = config::choice(f, kConditionalNames); }};
const NowWaitKey kAfterWake{
    "after_wake", [](const Field& f, NowWait& w) { w.after_wake = config::choice(f, kAfterWakeNames); }};
// barrier_spin is read (and its value checked) by every two-phase algorithm; those that set the barrier
// spin themselves refuse it afterwards (own_barrier_spin).
const NowWaitKey kBarrierSpin{"barrier_spin",
                              [](const Field& f, NowWait& w) { w.barrier_spin = config::duration(f); }};

// prefetch and prefetch_lead (B&M 4), which every algorithm takes: a read's partner may be woken ahead
// whatever the reader's waiting algorithm.
const NowWaitKey kPrefetch{"prefetch", [](const Field& f, NowWait& w) { w.prefetch = f.boolean(); }};
const NowWaitKey kPrefetchLead{
    "prefetch_lead", [](const Field& f, NowWait& w) { w.prefetch_lead = config::duration(f, true); }};
const NowWaitKey kThreshold{"threshold",
                            [](const Field& f, NowWait& w) { w.threshold = config::duration(f, true); }};

void prefetch_json(const NowWait& w, Json& out) {
  if (w.prefetch) out["prefetch"] = true;
  if (w.prefetch_lead) out["prefetch_lead_s"] = seconds(*w.prefetch_lead);
}

void no_json(const NowWait& w, Json& out) {
  prefetch_json(w, out);
}

void resume_json(const NowWait& w, Json& out) {
  out["resume"] = config::name_of(kResumeNames, w.resume);
}

// ---- block, spin and spin-fixed (Brim & Miller 3.1 and 3.3; wait/fixed_wait.hpp) ----

const NowWaitKey kBlockKeys[] = {
    {"resume", [](const Field& f,
                  NowWait&) { f.error("block never spins, so no spin is interrupted; remove 'resume'"); }},
    kPrefetch,
    kPrefetchLead,
};
const NowWaitKey kSpinKeys[] = {kResume, kPrefetch, kPrefetchLead};
const NowWaitKey kSpinFixedKeys[] = {
    {"spin", [](const Field& f, NowWait& w) { w.spin = config::duration(f, true); }, true},
    kResume,
    kPrefetch,
    kPrefetchLead,
};

void spin_fixed_json(const NowWait& w, Json& out) {
  out["spin_s"] = seconds(w.spin);
  resume_json(w, out);
  prefetch_json(w, out);
}

void spin_json(const NowWait& w, Json& out) {
  resume_json(w, out);
  prefetch_json(w, out);
}

// ---- the two-phase algorithms: pairwise, block-immediately, large-initial-spin (wait/pairwise.hpp) ----

const NowWaitKey kPairwiseKeys[] = {kReadSpin,    kBarrierSpin, kWindow,   kResume,
                                    kConditional, kAfterWake,   kPrefetch, kPrefetchLead};
const NowWaitKey kBlockImmediatelyKeys[] = {
    kReadSpin,
    kBarrierSpin,
    kWindow,
    kResume,
    kConditional,
    kAfterWake,
    {"read_window", [](const Field& f, NowWait& w) { w.read_window = config::choice(f, kReadWindowNames); }},
    kPrefetch,
    kPrefetchLead};
// The informed algorithms (B&M 3.3, wait/informed.hpp): pairwise's keys for reads and the threshold.
const NowWaitKey kInformedKeys[] = {kReadSpin,  kBarrierSpin, kWindow,   kResume,      kConditional,
                                    kAfterWake, kThreshold,   kPrefetch, kPrefetchLead};
const NowWaitKey kLargeInitialSpinKeys[] = {{"initial_spin",
                                             [](const Field& f, NowWait& w) {
                                               if (f.scalar("a duration or V+L+2o") == "V+L+2o") {
                                                 w.initial_spin_v_l_2o = true;
                                               } else {
                                                 w.initial_spin = config::duration(f);
                                               }
                                             },
                                             true, "600us or V+L+2o"},
                                            kReadSpin,
                                            kBarrierSpin,
                                            kWindow,
                                            kResume,
                                            kConditional,
                                            kAfterWake,
                                            kPrefetch,
                                            kPrefetchLead};

// block-immediately and large-initial-spin set their barrier spin themselves (0 and initial_spin).
void own_barrier_spin(config::MapReader& map, const NowWait& w) {
  if (w.barrier_spin)
    map.optional("barrier_spin")
        ->error(
            fmt::format("{} sets the barrier spin itself; only pairwise takes barrier_spin", w.algorithm));
}

void two_phase_json(const NowWait& w, Json& out) {
  if (w.read_spin) out["read_spin_s"] = seconds(*w.read_spin);
  if (w.barrier_spin) out["barrier_spin_s"] = seconds(*w.barrier_spin);
  if (w.window) out["window_s"] = seconds(*w.window);
  if (w.initial_spin) out["initial_spin_s"] = seconds(*w.initial_spin);
  if (w.initial_spin_v_l_2o) out["initial_spin"] = "V+L+2o";
  resume_json(w, out);
  out["conditional"] = config::name_of(kConditionalNames, w.conditional);
  out["after_wake"] = config::name_of(kAfterWakeNames, w.after_wake);
  if (w.threshold) out["threshold_s"] = seconds(*w.threshold);
  prefetch_json(w, out);
}

void block_immediately_json(const NowWait& w, Json& out) {
  two_phase_json(w, out);
  out["read_window"] = config::name_of(kReadWindowNames, w.read_window);
}

// Pairwise's timings from the keys and the platform.
Pairwise::Timings pairwise_timings(const NowWait& w, const WaitPlatform& platform) {
  Pairwise::Timings t;
  // Baselines (implicit coscheduling, docs/models/now.md's Sources; Brim & Miller 3.3): a read waits for a
  // round trip plus a switch; a barrier for three context switches.
  t.read_spin = w.read_spin.value_or(2 * platform.latency + 4 * platform.overhead + platform.context_switch);
  t.barrier_spin = w.barrier_spin.value_or(3 * platform.context_switch);
  t.window = w.window.value_or(t.barrier_spin > 0 ? t.barrier_spin : t.read_spin);
  t.extend = w.conditional == NowWait::Conditional::Extend;
  t.window_after_wake = w.after_wake == NowWait::AfterWake::Window;
  return t;
}

std::unique_ptr<NowWaitAlgorithm> make_pairwise(const NowWait& w, const WaitPlatform& platform) {
  return std::make_unique<Pairwise>(pairwise_timings(w, platform));
}

std::unique_ptr<NowWaitAlgorithm> make_block_immediately(const NowWait& w, const WaitPlatform& platform) {
  auto t = pairwise_timings(w, platform);
  t.barrier_spin = 0;
  using W = NowWait::ReadWindow;
  t.read_window = w.read_window == W::Pairwise       ? t.window
                  : w.read_window == W::ReadBaseline ? t.read_spin
                                                     : 0;
  return std::make_unique<Pairwise>(t);
}

std::unique_ptr<NowWaitAlgorithm> make_large_initial_spin(const NowWait& w, const WaitPlatform& platform) {
  auto t = pairwise_timings(w, platform);
  // V + L + 2o: the largest load imbalance plus one message's latency (Brim & Miller 3.3).
  t.barrier_spin = w.initial_spin_v_l_2o ? platform.load_imbalance + platform.latency + 2 * platform.overhead
                                         : *w.initial_spin;
  return std::make_unique<Pairwise>(t);
}

// VARIANCE_GUESS, VARIANCE_WITH_PROC_COUNT, AVG_PROC_DELAY (B&M 3.3; docs/models/now.md section 5.2).
template <Informed::Predictor predictor>
std::unique_ptr<NowWaitAlgorithm> make_informed(const NowWait& w, const WaitPlatform& platform) {
  Informed::Settings s;
  s.predictor = predictor;
  s.reads = pairwise_timings(w, platform);
  // "If this time was more than a pair of context switches away, the process blocked."
  s.threshold = w.threshold.value_or(2 * platform.context_switch);
  s.margin = s.reads.window;
  s.reply_spin = s.reads.read_spin;
  s.sync_interval = platform.sync_interval;
  s.imbalance = platform.imbalance;
  s.processes = platform.processes;
  return std::make_unique<Informed>(s);
}

const NowWaitEntry kWaits[] = {
    {"block", "WAIT_BLOCK: block at once, at reads and at barriers (Brim & Miller 3.1)", kBlockKeys, nullptr,
     no_json,
     [](const NowWait&, const WaitPlatform&) -> std::unique_ptr<NowWaitAlgorithm> {
       return std::make_unique<FixedWait>(FixedWait::block());
     }},
    {"spin-fixed", "WAIT_SPIN_FIXED: spin a fixed time, then block (Brim & Miller 3.3)", kSpinFixedKeys,
     nullptr, spin_fixed_json,
     [](const NowWait& w, const WaitPlatform&) -> std::unique_ptr<NowWaitAlgorithm> {
       return std::make_unique<FixedWait>(w.spin);
     }},
    {"pairwise",
     "WAIT_PAIRWISE: implicit coscheduling's conditional two-phase waiting (Arpaci-Dusseau; Brim & Miller "
     "3.3)",
     kPairwiseKeys, nullptr, two_phase_json, make_pairwise},
    {"block-immediately",
     "BLOCK_IMMEDIATELY: pairwise at reads, block at once at barriers (Brim & Miller 3.3)",
     kBlockImmediatelyKeys, own_barrier_spin, block_immediately_json, make_block_immediately},
    {"spin", "SPIN_FOREVER: never block (Brim & Miller 3.3)", kSpinKeys, nullptr, spin_json,
     [](const NowWait&, const WaitPlatform&) -> std::unique_ptr<NowWaitAlgorithm> {
       return std::make_unique<FixedWait>(FixedWait::forever());
     }},
    {"large-initial-spin",
     "LARGE_INITIAL_SPIN: pairwise with a long first spin at barriers, such as V+L+2o (Brim & Miller 3.3)",
     kLargeInitialSpinKeys, own_barrier_spin, two_phase_json, make_large_initial_spin},
    {"variance-guess",
     "VARIANCE_GUESS: knows the job's imbalance, predicts the barrier's completion, blocks when it is more "
     "than two context switches away (Brim & Miller 3.3)",
     kInformedKeys, own_barrier_spin, two_phase_json, make_informed<Informed::Predictor::VarianceGuess>},
    {"variance-with-proc-count",
     "VARIANCE_WITH_PROC_COUNT: variance-guess tuned by the count of arrived processes the root returns "
     "with each arrival reply (Brim & Miller 3.3)",
     kInformedKeys, own_barrier_spin, two_phase_json,
     make_informed<Informed::Predictor::VarianceWithProcCount>, true},
    {"avg-proc-delay",
     "AVG_PROC_DELAY: predicts from the barrier's elapsed time divided by the processes arrived (Brim & "
     "Miller 3.3)",
     kInformedKeys, own_barrier_spin, two_phase_json, make_informed<Informed::Predictor::AvgProcDelay>, true},
};

// The algorithms that take `key`: "spin-fixed", "pairwise, block-immediately and large-initial-spin".
std::string owners_of(std::string_view key) {
  return util::join_list(util::entries_taking(std::span<const NowWaitEntry>(kWaits), key), " and ");
}

}  // namespace

std::span<const NowWaitEntry> now_waits() {
  return kWaits;
}

const NowWaitEntry* find_now_wait(std::string_view name) {
  return util::find_named(now_waits(), name);
}

const NowWaitEntry& now_wait(std::string_view name) {
  if (const auto* entry = find_now_wait(name)) return *entry;
  throw std::invalid_argument(fmt::format("wait.algorithm: unknown waiting algorithm '{}'", name));
}

std::string now_wait_names() {
  return util::names_of(now_waits());
}

std::vector<std::string_view> now_wait_keys() {
  std::vector<std::string_view> names;
  for (const auto& rule : kKeyRules) names.push_back(rule.name);
  return names;
}

NowWait read_now_wait(const Field& f) {
  config::MapReader map(f, "a mapping such as {algorithm: pairwise}");
  NowWait wait;
  auto algorithm = map.required("algorithm");
  const std::string expected = "one of " + now_wait_names();
  const auto* entry = find_now_wait(algorithm.scalar(expected));
  if (!entry) algorithm.fail(expected);
  wait.algorithm = std::string(entry->name);
  std::optional<Field> given[std::size(kKeyRules)];
  for (std::size_t i = 0; i < std::size(kKeyRules); ++i)
    given[i] = map.optional(std::string(kKeyRules[i].name));
  for (int check = 0; check < static_cast<int>(std::size(kKeyRules)); ++check) {
    std::size_t i = 0;
    while (kKeyRules[i].check != check) ++i;
    const auto& rule = kKeyRules[i];
    const auto& field = given[i];
    const NowWaitKey* own = nullptr;
    for (const auto& key : entry->keys)
      if (key.name == rule.name) own = &key;
    if (own && !field && own->required)
      f.error(fmt::format("missing required key '{}' for algorithm {}{}", rule.name, entry->name,
                          own->example.empty() ? std::string() : fmt::format(" (e.g. {})", own->example)));
    if (!field) continue;
    if (!own)
      field->error(fmt::format(fmt::runtime(rule.refusal), fmt::arg("owners", owners_of(rule.name)),
                               fmt::arg("algorithm", entry->name)));
    else
      own->read(*field, wait);
  }
  if (wait.prefetch_lead && !wait.prefetch)
    map.optional("prefetch_lead")->error("prefetch_lead applies only with prefetch: true");
  if (entry->check) entry->check(map, wait);
  map.finish();
  return wait;
}

Json now_wait_json(const NowWait& wait) {
  Json out;
  out["algorithm"] = wait.algorithm;
  now_wait(wait.algorithm).to_json(wait, out);
  return out;
}

std::unique_ptr<NowWaitAlgorithm> make_now_wait(const NowWait& wait, const WaitPlatform& platform) {
  auto algorithm = now_wait(wait.algorithm).make(wait, platform);
  algorithm->set_resume(wait.resume);
  return algorithm;
}

Nanos prefetch_lead(const NowWait& wait, const WaitPlatform& platform) {
  if (!wait.prefetch) return -1;
  // B&M 3.3: "at time W+L+2o from now".
  return wait.prefetch_lead.value_or(platform.context_switch + platform.latency + 2 * platform.overhead);
}

}  // namespace cosched::wait
