#pragma once
// The non-adaptive NOW waiting algorithms: WAIT_BLOCK (block at once), WAIT_SPIN_FIXED (spin a fixed
// time, then block) and SPIN_FOREVER (never block), Brim & Miller 3.1 and 3.3.

#include "wait/now/now_wait.hpp"

namespace cosched::wait {

class FixedWait final : public NowWaitAlgorithm {
 public:
  explicit FixedWait(Nanos spin) : spin_(spin) {}
  static FixedWait block() { return FixedWait(0); }
  static FixedWait forever() { return FixedWait(kSpinForever); }
  Nanos first_spin(const Observation&) const override { return spin_; }
  Nanos next_spin(const Observation&) const override { return spin_ == kSpinForever ? kSpinForever : 0; }
  bool spins_forever(WaitKind) const override { return spin_ == kSpinForever; }

 private:
  Nanos spin_;
};

// wait.algorithm spin-fixed's parameters: the spin (block and spin have none of their own).
struct SpinFixedParams : config::NowWaitParams {
  Nanos spin = 0;
};
extern const NowWaitEntry kBlockEntry;
extern const NowWaitEntry kSpinFixedEntry;
extern const NowWaitEntry kSpinEntry;

}  // namespace cosched::wait
