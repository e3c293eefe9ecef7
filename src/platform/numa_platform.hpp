#pragma once
// The SimGrid platform of the NUMA model (Nobukuni 1997, 4.2.1-4.2.2): clusters (one processor and its
// memory) are the hosts, at the leaves of a tree of switches written as nested zones, one zone per switch
// (docs/models/numa.md section 2, docs/scenario-format.md "NUMA platform files"). The tree is read from the
// zones and every route is checked to climb to the lowest common switch and come back down.

#include <simgrid/s4u.hpp>

#include "config/scenario.hpp"
#include "platform/numa_topology.hpp"

namespace cosched::platform {

// Loads numa.platform_file into `engine` (SimGrid's CM02 network model without correction factors), reads
// the tree and checks it: throws config::InputError, located in the file, for a platform that is not a
// tree of switches over hosts as docs/scenario-format.md describes. Under platform.network hops the links
// are only read; under shared SimGrid moves the messages on them.
NumaTopology build_numa_platform(simgrid::s4u::Engine& engine, const config::NumaConfig& numa);

}  // namespace cosched::platform
