#pragma once
// The SimGrid platform of the SMP model: one host whose cores are the SMP's processors.

#include <simgrid/s4u.hpp>

#include "config/scenario.hpp"

namespace cosched::platform {

struct SmpHost {
  simgrid::s4u::Host* host = nullptr;
  int cpus = 0;
  double cycles_per_second = 0;  // the host's speed: one cycle is one flop
};

// Default speed of a host built from platform.cpus: 1 Gcycle/s, so one cycle is 1 ns of SimGrid time.
inline constexpr double kDefaultCyclesPerSecond = 1e9;

// Builds (platform.cpus) or loads (platform.file) the platform. Throws InputError for a platform file
// that SimGrid cannot load or that does not hold exactly one host.
SmpHost build_smp_platform(simgrid::s4u::Engine& engine, const config::SmpConfig& smp);

}  // namespace cosched::platform
