#include "wait/smp/thesis_proposals.hpp"

#include <algorithm>

#include "config/cycles.hpp"

namespace cosched::wait {

bool YieldOnWake::release_after_success(const ArrivalView& view, int woken) {
  // Thesis chapter 10: (1) the completion of b moved peers from blocked to ready, and (2) currently there are
  // no idle processors ("the number of ready tasks is bigger than the processors number" for priority-based
  // schedulers).
  if (woken <= 0) return false;
  if (runnable_exceeds_cpus_) return view.runnable_threads > view.cpus;
  return view.idle_cpus == 0;
}

Cycles GranularityAware::spin_budget(const ArrivalView& view) {
  const auto id = static_cast<std::size_t>(view.thread);
  if (id >= threads_.size()) threads_.resize(id + 1);
  if (view.since_last_arrival >= 0) {
    auto& h = threads_[id];
    h.samples[h.count % 3] = view.since_last_arrival;
    ++h.count;
  }
  const Cycles grain = estimate();
  return grain > coarse_ ? 0 : spin_;
}

Cycles GranularityAware::estimate() const {
  Cycles best = -1;
  for (const auto& h : threads_) {
    if (h.count == 0) continue;
    const int n = std::min(h.count, 3);
    Cycles sum = 0;
    for (int i = 0; i < n; ++i) sum += h.samples[i];
    best = std::max(best, sum / n);
  }
  return best;
}

namespace {

using config::PolicyParams;
using Json = nlohmann::ordered_json;

const config::PolicyKey kYieldOnWakeKeys[] = {
    kSpinKey,
    {"condition",
     "when a successful spin that woke peers yields: no-idle or runnable-exceeds-cpus (default no-idle)",
     [](const config::Field& f, PolicyParams& params) {
       const auto condition = f.scalar("no-idle or runnable-exceeds-cpus");
       if (condition != "no-idle" && condition != "runnable-exceeds-cpus")
         f.fail("no-idle or runnable-exceeds-cpus");
       config::params_as<YieldOnWakeParams>(params).runnable_exceeds_cpus =
           condition == "runnable-exceeds-cpus";
     }}};
const config::PolicyKey kLoadBasedKeys[] = {
    kSpinKey,
    {"factor", "spin while the runnable threads are at most factor x CPUs (a positive number, default 2)",
     [](const config::Field& f, PolicyParams& params) {
       const double factor = f.number();
       if (!(factor > 0) || factor > 1e6) f.fail("a positive multiple of the CPUs");
       config::params_as<LoadBasedParams>(params).factor = factor;
     }}};
const config::PolicyKey kGranularityAwareKeys[] = {
    kSpinKey,
    {"coarse",
     "block when the job's estimated grain exceeds this: cycles or % of the quantum (default half a quantum)",
     [](const config::Field& f, PolicyParams& params) {
       auto& w = config::params_as<GranularityAwareParams>(params);
       w.coarse = config::whole_cycles(f, w.quantum, "cycles or % of the quantum", 1e9);
     }}};

}  // namespace

const SmpWaitEntry kYieldOnWakeEntry{
    {"yield-on-wake", "a successful spin that woke peers yields its CPU under a condition (thesis 10)",
     kYieldOnWakeKeys, config::default_params<YieldOnWakeParams>,
     [](const PolicyParams& params, Json& out) {
       spin_json(params, out);
       out["condition"] = static_cast<const YieldOnWakeParams&>(params).runnable_exceeds_cpus
                              ? "runnable-exceeds-cpus"
                              : "no-idle";
     }},
    [](const PolicyParams& params) -> std::unique_ptr<SmpWaitAlgorithm> {
      const auto& w = static_cast<const YieldOnWakeParams&>(params);
      return std::make_unique<YieldOnWake>(w.spin, w.runnable_exceeds_cpus);
    }};

const SmpWaitEntry kLoadBasedEntry{
    {"load-based", "spin only while the runnable threads are at most factor x CPUs (thesis 10)",
     kLoadBasedKeys, config::default_params<LoadBasedParams>,
     [](const PolicyParams& params, Json& out) {
       spin_json(params, out);
       out["factor"] = static_cast<const LoadBasedParams&>(params).factor;
     }},
    [](const PolicyParams& params) -> std::unique_ptr<SmpWaitAlgorithm> {
      const auto& w = static_cast<const LoadBasedParams&>(params);
      return std::make_unique<LoadBased>(w.spin, w.factor);
    }};

const SmpWaitEntry kGranularityAwareEntry{
    {"granularity-aware",
     "block when the job's estimated grain is coarser than coarse, else spin (thesis 10)",
     kGranularityAwareKeys, config::default_params<GranularityAwareParams>,
     [](const PolicyParams& params, Json& out) {
       spin_json(params, out);
       out["coarse"] = static_cast<const GranularityAwareParams&>(params).coarse;
     }},
    [](const PolicyParams& params) -> std::unique_ptr<SmpWaitAlgorithm> {
      const auto& w = static_cast<const GranularityAwareParams&>(params);
      return std::make_unique<GranularityAware>(w.spin, w.coarse);
    }};

}  // namespace cosched::wait
