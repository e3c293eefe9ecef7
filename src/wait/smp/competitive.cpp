#include "wait/smp/competitive.hpp"

#include <algorithm>

#include "config/cycles.hpp"

namespace cosched::wait {

CompetitiveWaiter::CompetitiveWaiter(Competitive kind, Cycles switch_time, Cycles adjust)
    : kind_(kind), switch_time_(switch_time), adjust_(adjust), threshold_(switch_time) {}

Cycles CompetitiveWaiter::spin_budget(const ArrivalView& view) {
  if (static_cast<std::size_t>(view.thread) >= ttime_.size()) {
    ttime_.resize(static_cast<std::size_t>(view.thread) + 1, {0, 0, 0});
    tcount_.resize(static_cast<std::size_t>(view.thread) + 1, 0);
  }
  return kind_ == Competitive::Fixed ? switch_time_ : threshold_;
}

void CompetitiveWaiter::record(const WaitRecord& record) {
  // tblkd: 0 after a successful spin, else the time from the block until the thread runs again.
  const Cycles tblkd = record.succeeded ? 0 : record.blocked_cycles;
  switch (kind_) {
    case Competitive::Fixed:
      return;
    case Competitive::LastOne:
      threshold_ = tblkd < 2 * switch_time_ ? std::min(switch_time_, threshold_ + adjust_)
                                            : std::max<Cycles>(0, threshold_ - adjust_);
      return;
    case Competitive::CoarseAdjustment:
      threshold_ = tblkd < 2 * switch_time_ ? switch_time_ : 0;
      return;
    case Competitive::AverageThree: {
      const auto id = static_cast<std::size_t>(record.thread);
      if (id >= ttime_.size()) {
        ttime_.resize(id + 1, {0, 0, 0});
        tcount_.resize(id + 1, 0);
      }
      ttime_[id][tcount_[id] % 3] = tblkd;
      ++tcount_[id];
      // Figure 10 compares "Average(tcount[id])", read as the average of the thread's three slots.
      const Cycles sum = ttime_[id][0] + ttime_[id][1] + ttime_[id][2];
      threshold_ = sum < 3 * switch_time_ ? std::min(switch_time_, threshold_ + adjust_)
                                          : std::max<Cycles>(0, threshold_ - adjust_);
      return;
    }
  }
}

namespace {

using config::PolicyParams;
using Json = nlohmann::ordered_json;

const config::PolicyKey kSwitchTimeKey = {
    "switch_time",
    "K&W's c, the cost of a context switch: cycles, % of the quantum or CS multiples (default CS)",
    [](const config::Field& f, PolicyParams& params) {
      auto& w = config::params_as<CompetitiveParams>(params);
      w.switch_time = config::spin_cycles(f, w.quantum, w.context_switch, nullptr);
    }};
const config::PolicyKey kAdjustKey = {
    "adjust", "K&W's Adjust, the step of the threshold: cycles, % of the quantum or CS multiples (required)",
    [](const config::Field& f, PolicyParams& params) {
      auto& w = config::params_as<CompetitiveParams>(params);
      w.adjust = config::spin_cycles(f, w.quantum, w.context_switch, nullptr);
      if (w.adjust <= 0) f.fail("a positive adjustment");
    },
    true, "the paper gives no value"};

const config::PolicyKey kCompetitiveKeys[] = {kSwitchTimeKey};
const config::PolicyKey kAdjustedKeys[] = {kSwitchTimeKey, kAdjustKey};

void competitive_json(const PolicyParams& params, Json& out) {
  out["switch_time"] = static_cast<const CompetitiveParams&>(params).switch_time;
}

void adjusted_json(const PolicyParams& params, Json& out) {
  const auto& w = static_cast<const CompetitiveParams&>(params);
  out["switch_time"] = w.switch_time;
  out["adjust"] = w.adjust;
}

template <Competitive kind>
std::unique_ptr<SmpWaitAlgorithm> make(const PolicyParams& params) {
  const auto& w = static_cast<const CompetitiveParams&>(params);
  return std::make_unique<CompetitiveAlgorithm>(kind, w.switch_time, w.adjust);
}

}  // namespace

const SmpWaitEntry kCompetitiveFixedEntry{
    {"competitive-fixed", "spin switch_time, then block (Kontothanassis & Wisniewski 3, figure 9)",
     kCompetitiveKeys, config::default_params<CompetitiveParams>, competitive_json},
    make<Competitive::Fixed>};
const SmpWaitEntry kLastOneEntry{{"last-one", "competitive spin adapted by the last wait (K&W 3, figure 10)",
                                  kAdjustedKeys, config::default_params<CompetitiveParams>, adjusted_json},
                                 make<Competitive::LastOne>};
const SmpWaitEntry kAverageThreeEntry{
    {"average-three", "competitive spin adapted by the last three waits (K&W 3, figure 11)", kAdjustedKeys,
     config::default_params<CompetitiveParams>, adjusted_json},
    make<Competitive::AverageThree>};
const SmpWaitEntry kCoarseAdjustmentEntry{
    {"coarse-adjustment", "competitive spin doubled or halved by each wait (K&W 3, figure 12)",
     kCompetitiveKeys, config::default_params<CompetitiveParams>, competitive_json},
    make<Competitive::CoarseAdjustment>};

}  // namespace cosched::wait
