#include "wait/now_wait.hpp"

#include "wait/fixed_wait.hpp"
#include "wait/pairwise.hpp"

namespace cosched::wait {

namespace {

std::unique_ptr<NowWaitAlgorithm> make_algorithm(const config::NowWait& wait, const WaitPlatform& platform) {
  using A = config::NowWait::Algorithm;
  switch (wait.algorithm) {
    case A::Block:
      return std::make_unique<FixedWait>(FixedWait::block());
    case A::Spin:
      return std::make_unique<FixedWait>(FixedWait::forever());
    case A::SpinFixed:
      return std::make_unique<FixedWait>(wait.spin);
    case A::Pairwise:
    case A::BlockImmediately:
    case A::LargeInitialSpin:
      break;
  }
  Pairwise::Timings t;
  // Baselines (now-model-notes.md, Brim & Miller 3.3): a read waits for a round trip plus a switch;
  // a barrier for three context switches.
  t.read_spin =
      wait.read_spin.value_or(2 * platform.latency + 4 * platform.overhead + platform.context_switch);
  t.barrier_spin = wait.barrier_spin.value_or(3 * platform.context_switch);
  t.window = wait.window.value_or(t.barrier_spin > 0 ? t.barrier_spin : t.read_spin);
  t.extend = wait.conditional == config::NowWait::Conditional::Extend;
  t.window_after_wake = wait.after_wake == config::NowWait::AfterWake::Window;
  if (wait.algorithm == A::BlockImmediately) {
    t.barrier_spin = 0;
    using W = config::NowWait::ReadWindow;
    t.read_window = wait.read_window == W::Pairwise       ? t.window
                    : wait.read_window == W::ReadBaseline ? t.read_spin
                                                          : 0;
  }
  if (wait.algorithm == A::LargeInitialSpin) {
    // V + L + 2o: the largest load imbalance plus one message's latency (Brim & Miller 3.3).
    t.barrier_spin = wait.initial_spin_v_l_2o
                         ? platform.load_imbalance + platform.latency + 2 * platform.overhead
                         : *wait.initial_spin;
  }
  return std::make_unique<Pairwise>(t);
}

}  // namespace

std::unique_ptr<NowWaitAlgorithm> make_now_wait(const config::NowWait& wait, const WaitPlatform& platform) {
  auto algorithm = make_algorithm(wait, platform);
  algorithm->set_resume(wait.resume);
  return algorithm;
}

}  // namespace cosched::wait
