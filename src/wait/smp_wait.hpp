#pragma once
// Waiting algorithms at SMP barriers: how long a thread that is not the last to arrive spins before it
// blocks. The thesis's algorithms (chapters 2-5) are all fixed spin: 0 (always block), a fixed budget,
// or unlimited (always spin). Competitive and scheduler-information barriers add their own classes here.

#include <cstdint>
#include <limits>
#include <memory>

#include "config/scenario.hpp"

namespace cosched::wait {

using Cycles = std::int64_t;
// A budget no run reaches: always-spin never gives up.
inline constexpr Cycles kUnlimitedSpin = std::numeric_limits<Cycles>::max() / 4;

class SmpWaitAlgorithm {
 public:
  virtual ~SmpWaitAlgorithm() = default;
  // Spin budget, in cycles, for a thread that has just arrived at a barrier and is not the last.
  // 0 means block at once without spinning (not counted as a spin in SSR).
  virtual Cycles spin_budget() const = 0;
};

class FixedSpin final : public SmpWaitAlgorithm {
 public:
  explicit FixedSpin(Cycles budget) : budget_(budget) {}
  Cycles spin_budget() const override { return budget_; }

 private:
  Cycles budget_;
};

std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const config::SmpWait& wait);

}  // namespace cosched::wait
