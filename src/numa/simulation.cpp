#include "numa/simulation.hpp"

#include <stdexcept>

namespace cosched::numa {

// Placeholder while the machine is written (issue 22).
metrics::NumaRunRecord run(const config::Scenario&, const metrics::RunHooks&) {
  throw std::logic_error("the numa model is not written yet");
}

void check_platform(const config::Scenario&) {}

}  // namespace cosched::numa
