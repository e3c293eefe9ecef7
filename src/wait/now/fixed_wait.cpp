#include "wait/now/fixed_wait.hpp"

namespace cosched::wait {
namespace {

using config::PolicyParams;
using Json = nlohmann::ordered_json;

const config::PolicyKey kBlockKeys[] = {
    {"resume", "refused: block never spins",
     [](const config::Field& f, PolicyParams&) {
       f.error("block never spins, so no spin is interrupted; remove 'resume'");
     }},
    kPrefetchKey,
    kPrefetchLeadKey,
};

const config::PolicyKey kSpinKeys[] = {kResumeKey, kPrefetchKey, kPrefetchLeadKey};

const config::PolicyKey kSpinFixedKeys[] = {
    {"spin", "how long a process spins before it blocks (duration, 0 allowed; required)",
     [](const config::Field& f, PolicyParams& p) {
       config::params_as<SpinFixedParams>(p).spin = config::duration(f, true);
     },
     true},
    kResumeKey,
    kPrefetchKey,
    kPrefetchLeadKey,
};

void spin_fixed_json(const PolicyParams& params, Json& out) {
  out["spin_s"] = static_cast<double>(static_cast<const SpinFixedParams&>(params).spin) * 1e-9;
  resume_json(params, out);
  prefetch_json(params, out);
}

void spin_json(const PolicyParams& params, Json& out) {
  resume_json(params, out);
  prefetch_json(params, out);
}

}  // namespace

const NowWaitEntry kBlockEntry{
    {"block", "WAIT_BLOCK: block at once, at reads and at barriers (Brim & Miller 3.1)", kBlockKeys,
     config::default_params<config::NowWaitParams>, prefetch_json},
    [](const PolicyParams&, const WaitPlatform&) -> std::unique_ptr<NowWaitAlgorithm> {
      return std::make_unique<FixedWait>(FixedWait::block());
    }};

const NowWaitEntry kSpinFixedEntry{
    {"spin-fixed", "WAIT_SPIN_FIXED: spin a fixed time, then block (Brim & Miller 3.3)", kSpinFixedKeys,
     config::default_params<SpinFixedParams>, spin_fixed_json},
    [](const PolicyParams& params, const WaitPlatform&) -> std::unique_ptr<NowWaitAlgorithm> {
      return std::make_unique<FixedWait>(static_cast<const SpinFixedParams&>(params).spin);
    }};

const NowWaitEntry kSpinEntry{
    {"spin", "SPIN_FOREVER: never block (Brim & Miller 3.3)", kSpinKeys,
     config::default_params<config::NowWaitParams>, spin_json},
    [](const PolicyParams&, const WaitPlatform&) -> std::unique_ptr<NowWaitAlgorithm> {
      return std::make_unique<FixedWait>(FixedWait::forever());
    }};

}  // namespace cosched::wait
