// The thesis's fixed spins (Tsafrir thesis 2.1) as registry entries: fixed-spin, and block and spin, its two
// ends; and the spin key the chapter 10 proposals share.
#include <fmt/format.h>

#include "config/cycles.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {
namespace {

using config::Field;
using config::PolicyParams;

void read_spin(const Field& f, PolicyParams& params) {
  auto& w = config::params_as<SpinParams>(params);
  w.spin = config::spin_cycles(f, w.quantum, w.context_switch, &w.spin_given);
}

// block and spin fix their budget themselves: 0 and unlimited.
template <const char* algorithm, const char* budget>
void refuse_spin(const Field& f, PolicyParams&) {
  f.error(fmt::format("algorithm {} takes no 'spin' (it is {})", algorithm, budget));
}

constexpr char kBlockName[] = "block";
constexpr char kSpinName[] = "spin";
constexpr char kAlwaysZero[] = "always 0";
constexpr char kUnlimited[] = "unlimited";

const config::PolicyKey kFixedSpinKeys[] = {kRequiredSpinKey};
const config::PolicyKey kBlockKeys[] = {
    {"spin", "refused: block's budget is always 0", refuse_spin<kBlockName, kAlwaysZero>}};
const config::PolicyKey kSpinKeys[] = {
    {"spin", "refused: spin's budget is unlimited", refuse_spin<kSpinName, kUnlimited>}};

}  // namespace

constinit const config::PolicyKey kSpinKey = {
    "spin", "the spin budget: cycles, % of the quantum, or CS multiples such as 2CS+ (thesis 5.1.3)",
    read_spin};
constinit const config::PolicyKey kRequiredSpinKey = {
    "spin",
    "the spin budget: cycles, % of the quantum, or CS multiples such as 2CS+ (thesis 5.1.3; required)",
    read_spin, true};

void spin_json(const PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& w = static_cast<const SpinParams&>(params);
  out["spin"] = w.spin;
  out["spin_given"] = w.spin_given;
}

const SmpWaitEntry kSmpFixedSpinEntry{
    {"fixed-spin", "spin a fixed budget, then block (Tsafrir thesis 2.1)", kFixedSpinKeys,
     config::default_params<SpinParams>, spin_json},
    [](const PolicyParams& params) -> std::unique_ptr<SmpWaitAlgorithm> {
      return std::make_unique<FixedSpin>(static_cast<const SpinParams&>(params).spin);
    }};

const SmpWaitEntry kSmpBlockEntry{
    {kBlockName, "block at once: a fixed spin of 0 (thesis 2.1)", kBlockKeys,
     config::default_params<config::SmpWaitParams>, config::no_keys_json},
    [](const PolicyParams&) -> std::unique_ptr<SmpWaitAlgorithm> { return std::make_unique<FixedSpin>(0); }};

const SmpWaitEntry kSmpSpinEntry{
    {kSpinName, "spin until the barrier completes: an unlimited fixed spin (thesis 2.1)", kSpinKeys,
     config::default_params<config::SmpWaitParams>, config::no_keys_json},
    [](const PolicyParams&) -> std::unique_ptr<SmpWaitAlgorithm> {
      return std::make_unique<FixedSpin>(kUnlimitedSpin);
    }};

}  // namespace cosched::wait
