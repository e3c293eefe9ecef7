#include "platform/engine.hpp"

#include <csignal>

#include "util/signals_deferred.hpp"

namespace cosched::platform {

std::unique_ptr<simgrid::s4u::Engine> make_engine() {
  // SimGrid parses its options from argv; cosched passes none (its configuration is the scenario).
  static char name[] = "cosched";
  static char* argv[] = {name, nullptr};
  int argc = 1;
  // SimGrid installs a SIGINT handler that dumps every actor and exits 1; the process's own handling of
  // SIGINT and SIGTERM (cli/interrupt.hpp) stays in force.
  struct sigaction interrupt {
  }, terminate{};
  ::sigaction(SIGINT, nullptr, &interrupt);
  ::sigaction(SIGTERM, nullptr, &terminate);
  auto engine = std::make_unique<simgrid::s4u::Engine>(&argc, argv);
  ::sigaction(SIGINT, &interrupt, nullptr);
  ::sigaction(SIGTERM, &terminate, nullptr);
  return engine;
}

}  // namespace cosched::platform

namespace cosched::platform {
namespace {
std::exception_ptr g_actor_error;
}  // namespace

void keep_actor_error(std::exception_ptr error) {
  if (!g_actor_error) g_actor_error = std::move(error);
}

void rethrow_actor_error() {
  if (auto error = std::exchange(g_actor_error, nullptr)) std::rethrow_exception(error);
}

}  // namespace cosched::platform
