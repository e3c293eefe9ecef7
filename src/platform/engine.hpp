#pragma once
// The process's SimGrid engine, as every run and check creates it. The engine is a singleton: one per
// process.

#include <exception>
#include <memory>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <utility>

namespace cosched::platform {

std::unique_ptr<simgrid::s4u::Engine> make_engine();

// An exception that escapes an actor makes SimGrid abort the process with a backtrace. An actor body
// wrapped by guarded() instead keeps the first such exception, kills every actor so that the simulation
// ends, and rethrow_actor_error() rethrows it once Engine::run() has returned: an InputError found during
// a run (e.g. the largest simulated time passed) is reported as bad input like any other.
void keep_actor_error(std::exception_ptr error);
void rethrow_actor_error();

template <typename Body>
auto guarded(Body body) {
  return [body = std::move(body)]() mutable {
    try {
      body();
    } catch (const simgrid::ForcefulKillException&) {
      throw;  // SimGrid's way of ending an actor that is killed
    } catch (...) {
      keep_actor_error(std::current_exception());
      simgrid::s4u::Actor::kill_all();
    }
  };
}

}  // namespace cosched::platform
