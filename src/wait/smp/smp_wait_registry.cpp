#include "wait/smp/smp_wait_registry.hpp"

#include <fmt/format.h>

#include "config/cycles.hpp"
#include "util/registry.hpp"
#include "wait/smp/competitive.hpp"
#include "wait/smp/scheduler_info.hpp"
#include "wait/smp/thesis_proposals.hpp"

namespace cosched::wait {
namespace {

using config::Field;
using config::SmpWait;
using Json = nlohmann::ordered_json;

// ---- key readers shared by several algorithms ----

// A spin budget the algorithm needs: "missing required key 'spin' for algorithm fixed-spin".
const SmpWaitKey kRequiredSpin{
    "spin", [](const Field* given, const Field& map, const SmpWaitScheduler& s, SmpWait& w) {
      if (!given) map.error(fmt::format("missing required key 'spin' for algorithm {}", w.algorithm));
      w.spin_cycles = config::spin_cycles(*given, s.quantum, s.context_switch, &w.spin_given);
    }};

// block and spin fix their budget themselves: 0 and unlimited.
const SmpWaitKey kNoSpin{"spin", [](const Field* given, const Field&, const SmpWaitScheduler&, SmpWait& w) {
                           const bool block = w.algorithm == "block";
                           if (given)
                             given->error(fmt::format("algorithm {} takes no 'spin' (it is {})", w.algorithm,
                                                      block ? "always 0" : "unlimited"));
                           w.spin_given = block ? "0" : "unlimited";
                         }};

// A spin budget that is `fallback` (written `fallback_given`) unless given.
void read_spin_or(const Field* given, const SmpWaitScheduler& s, SmpWait& w, config::Cycles fallback,
                  const char* fallback_given) {
  if (!given) {
    w.spin_cycles = fallback;
    w.spin_given = fallback_given;
    return;
  }
  w.spin_cycles = config::spin_cycles(*given, s.quantum, s.context_switch, &w.spin_given);
}

// A spin budget with a default of CS (thesis chapter 10: "the widely accepted maximal spin duration of CS").
const SmpWaitKey kSpinDefaultCs{"spin",
                                [](const Field* given, const Field&, const SmpWaitScheduler& s, SmpWait& w) {
                                  read_spin_or(given, s, w, s.context_switch, "CS");
                                }};

// A spin budget with a default of 2CS+ (thesis chapter 10: 2CS+ is the best fixed spin).
const SmpWaitKey kSpinDefault2CsPlus{
    "spin", [](const Field* given, const Field&, const SmpWaitScheduler& s, SmpWait& w) {
      read_spin_or(given, s, w, 2 * s.context_switch + 1, "2CS+");
    }};

// K&W section 3: switch_time is c, "the cost of a context switch"; CS unless given.
const SmpWaitKey kSwitchTime{
    "switch_time", [](const Field* given, const Field&, const SmpWaitScheduler& s, SmpWait& w) {
      w.switch_time =
          given ? config::spin_cycles(*given, s.quantum, s.context_switch, nullptr) : s.context_switch;
    }};

// K&W's Adjust (last-one, average-three), which the paper leaves open.
const SmpWaitKey kAdjust{
    "adjust", [](const Field* given, const Field& map, const SmpWaitScheduler& s, SmpWait& w) {
      if (!given)
        map.error(fmt::format("missing required key 'adjust' for algorithm {} (the paper gives no value)",
                              w.algorithm));
      w.adjust = config::spin_cycles(*given, s.quantum, s.context_switch, nullptr);
      if (w.adjust <= 0) given->fail("a positive adjustment");
    }};

void spin_json(const SmpWait& w, Json& out) {
  out["spin"] = w.spin_cycles;
  out["spin_given"] = w.spin_given;
}

void competitive_json(const SmpWait& w, Json& out) {
  out["switch_time"] = w.switch_time;
}

void adjusted_json(const SmpWait& w, Json& out) {
  out["switch_time"] = w.switch_time;
  out["adjust"] = w.adjust;
}

// ---- the thesis's fixed spins (chapters 2-7; wait/smp/smp_wait.hpp) ----

const SmpWaitKey kFixedSpinKeys[] = {kRequiredSpin};
const SmpWaitKey kNoSpinKeys[] = {kNoSpin};

// ---- Kontothanassis & Wisniewski's competitive barriers (section 3; wait/smp/competitive.hpp) ----

const SmpWaitKey kCompetitiveKeys[] = {kSwitchTime};
const SmpWaitKey kAdjustedKeys[] = {kSwitchTime, kAdjust};

template <Competitive kind>
std::unique_ptr<SmpWaitAlgorithm> make_competitive(const SmpWait& w) {
  return std::make_unique<CompetitiveAlgorithm>(kind, w.switch_time, w.adjust);
}

// ---- K&W's scheduler-information barrier (figure 13; wait/smp/scheduler_info.hpp) ----

const SmpWaitKey kSchedulerInfoKeys[] = {
    {"count", [](const Field* given, const Field&, const SmpWaitScheduler&, SmpWait& w) {
       if (!given) return;
       const char* expected = "remaining, remaining-or-equal or not-blocked";
       w.count = given->scalar(expected);
       if (w.count != "remaining" && w.count != "remaining-or-equal" && w.count != "not-blocked")
         given->fail(expected);
     }}};

// ---- the thesis's chapter 10 proposals (wait/smp/thesis_proposals.hpp) ----

const SmpWaitKey kYieldOnWakeKeys[] = {
    kSpinDefaultCs, {"condition", [](const Field* given, const Field&, const SmpWaitScheduler&, SmpWait& w) {
                       if (!given) return;
                       w.condition = given->scalar("no-idle or runnable-exceeds-cpus");
                       if (w.condition != "no-idle" && w.condition != "runnable-exceeds-cpus")
                         given->fail("no-idle or runnable-exceeds-cpus");
                     }}};
const SmpWaitKey kLoadBasedKeys[] = {
    kSpinDefault2CsPlus,
    {"factor", [](const Field* given, const Field&, const SmpWaitScheduler&, SmpWait& w) {
       if (!given) return;
       w.factor = given->number();
       if (!(w.factor > 0) || w.factor > 1e6) given->fail("a positive multiple of the CPUs");
     }}};
const SmpWaitKey kGranularityAwareKeys[] = {
    kSpinDefault2CsPlus,
    {"coarse", [](const Field* given, const Field&, const SmpWaitScheduler& s, SmpWait& w) {
       // A choice: between the thesis's medium (10%) and coarse (100%) grains.
       w.coarse =
           given ? config::whole_cycles(*given, s.quantum, "cycles or % of the quantum", 1e9) : s.quantum / 2;
     }}};

const SmpWaitEntry kWaits[] = {
    {"fixed-spin", "spin a fixed budget, then block (Tsafrir thesis 2.1)", kFixedSpinKeys, spin_json,
     [](const SmpWait& w) -> std::unique_ptr<SmpWaitAlgorithm> {
       return std::make_unique<FixedSpin>(w.spin_cycles);
     }},
    {"block", "block at once: a fixed spin of 0 (thesis 2.1)", kNoSpinKeys, [](const SmpWait&, Json&) {},
     [](const SmpWait&) -> std::unique_ptr<SmpWaitAlgorithm> { return std::make_unique<FixedSpin>(0); }},
    {"spin", "spin until the barrier completes: an unlimited fixed spin (thesis 2.1)", kNoSpinKeys,
     [](const SmpWait&, Json&) {},
     [](const SmpWait&) -> std::unique_ptr<SmpWaitAlgorithm> {
       return std::make_unique<FixedSpin>(kUnlimitedSpin);
     }},
    {"competitive-fixed", "spin switch_time, then block (Kontothanassis & Wisniewski 3, figure 9)",
     kCompetitiveKeys, competitive_json, make_competitive<Competitive::Fixed>},
    {"last-one", "competitive spin adapted by the last wait (K&W 3, figure 10)", kAdjustedKeys, adjusted_json,
     make_competitive<Competitive::LastOne>},
    {"average-three", "competitive spin adapted by the last three waits (K&W 3, figure 11)", kAdjustedKeys,
     adjusted_json, make_competitive<Competitive::AverageThree>},
    {"coarse-adjustment", "competitive spin doubled or halved by each wait (K&W 3, figure 12)",
     kCompetitiveKeys, competitive_json, make_competitive<Competitive::CoarseAdjustment>},
    {"scheduler-info", "spin while enough peers run, from the scheduler's information (K&W 3, figure 13)",
     kSchedulerInfoKeys, [](const SmpWait& w, Json& out) { out["count"] = w.count; },
     [](const SmpWait& w) -> std::unique_ptr<SmpWaitAlgorithm> {
       return std::make_unique<SchedulerInfo>(w.count == "not-blocked" ? SchedulerInfoCount::NotBlocked
                                              : w.count == "remaining-or-equal"
                                                  ? SchedulerInfoCount::RemainingOrEqual
                                                  : SchedulerInfoCount::Remaining);
     }},
    {"yield-on-wake", "a successful spin that woke peers yields its CPU under a condition (thesis 10)",
     kYieldOnWakeKeys,
     [](const SmpWait& w, Json& out) {
       spin_json(w, out);
       out["condition"] = w.condition;
     },
     [](const SmpWait& w) -> std::unique_ptr<SmpWaitAlgorithm> {
       return std::make_unique<YieldOnWake>(w.spin_cycles, w.condition == "runnable-exceeds-cpus");
     }},
    {"load-based", "spin only while the runnable threads are at most factor x CPUs (thesis 10)",
     kLoadBasedKeys,
     [](const SmpWait& w, Json& out) {
       spin_json(w, out);
       out["factor"] = w.factor;
     },
     [](const SmpWait& w) -> std::unique_ptr<SmpWaitAlgorithm> {
       return std::make_unique<LoadBased>(w.spin_cycles, w.factor);
     }},
    {"granularity-aware",
     "block when the job's estimated grain is coarser than coarse, else spin (thesis 10)",
     kGranularityAwareKeys,
     [](const SmpWait& w, Json& out) {
       spin_json(w, out);
       out["coarse"] = w.coarse;
     },
     [](const SmpWait& w) -> std::unique_ptr<SmpWaitAlgorithm> {
       return std::make_unique<GranularityAware>(w.spin_cycles, w.coarse);
     }},
};

}  // namespace

std::span<const SmpWaitEntry> smp_waits() {
  return kWaits;
}

const SmpWaitEntry* find_smp_wait(std::string_view name) {
  return util::find_named(smp_waits(), name);
}

std::string smp_wait_names() {
  return util::names_of(smp_waits(), " or ");
}

SmpWait read_smp_wait(const Field& f, const SmpWaitScheduler& scheduler) {
  config::MapReader map(f, "a mapping such as {algorithm: fixed-spin, spin: 6%}");
  auto algorithm = map.required("algorithm");
  const std::string expected = smp_wait_names();
  const auto* entry = find_smp_wait(algorithm.scalar(expected));
  if (!entry) algorithm.fail(expected);
  SmpWait wait;
  wait.algorithm = std::string(entry->name);
  for (const auto& key : entry->keys) {
    const auto given = map.optional(std::string(key.name));
    key.read(given ? &*given : nullptr, f, scheduler, wait);
  }
  map.finish();
  return wait;
}

Json smp_wait_json(const SmpWait& wait) {
  Json out;
  out["algorithm"] = wait.algorithm;
  find_smp_wait(wait.algorithm)->to_json(wait, out);
  return out;
}

std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const SmpWait& wait) {
  return find_smp_wait(wait.algorithm)->make(wait);
}

}  // namespace cosched::wait
