#include "platform/engine.hpp"

namespace cosched::platform {

std::unique_ptr<simgrid::s4u::Engine> make_engine() {
  // SimGrid parses its options from argv; cosched passes none (its configuration is the scenario).
  static char name[] = "cosched";
  static char* argv[] = {name, nullptr};
  int argc = 1;
  return std::make_unique<simgrid::s4u::Engine>(&argc, argv);
}

}  // namespace cosched::platform
