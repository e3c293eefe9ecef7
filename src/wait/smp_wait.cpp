#include "wait/smp_wait.hpp"

namespace cosched::wait {

std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const config::SmpWait& wait) {
  switch (wait.algorithm) {
    case config::SmpWait::Algorithm::Block:
      return std::make_unique<FixedSpin>(0);
    case config::SmpWait::Algorithm::Spin:
      return std::make_unique<FixedSpin>(kUnlimitedSpin);
    case config::SmpWait::Algorithm::FixedSpin:
      break;
  }
  return std::make_unique<FixedSpin>(wait.spin_cycles);
}

}  // namespace cosched::wait
