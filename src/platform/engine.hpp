#pragma once
// The process's SimGrid engine, as every run and check creates it. The engine is a singleton: one per
// process.

#include <memory>
#include <simgrid/s4u.hpp>

namespace cosched::platform {

std::unique_ptr<simgrid::s4u::Engine> make_engine();

}  // namespace cosched::platform
