#pragma once
// The SimGrid platform of the NOW model: one host per workstation on a switched network.

#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "config/scenario.hpp"

namespace cosched::platform {

struct NowPlatform {
  std::vector<simgrid::s4u::Host*> workstations;  // workstation i is workstations[i]
  config::Nanos latency = 0;      // one-way latency between workstations 0 and 1 (as SimGrid routes it)
  config::Nanos min_latency = 0;  // the smallest one-way latency between two workstations
  bool uniform_latency = true;    // every route has the same latency
  // The LogP network (platform.network: logp): a message of kMessageBytes from a to b arrives delay(a, b)
  // after it leaves, the route's latency plus its transfer time at the route's bandwidth, read once
  // through SimGrid's routing.
  config::Nanos uniform_delay = -1;   // >= 0: every route's delay
  std::vector<config::Nanos> delays;  // by from * N + to, when they differ
  config::Nanos delay(int from, int to) const {
    return uniform_delay >= 0 ? uniform_delay
                              : delays[static_cast<std::size_t>(from) * workstations.size() + to];
  }
  // Under logp, the rate (bytes/s) a transfer from a to b runs at: the route's smallest bandwidth (and
  // CM02's TCP-gamma bound). The simgrid engine gives each transfer this rate as its bound, and no link
  // binds (build_now_platform); -1 under shared, where SimGrid's link sharing decides.
  double uniform_rate = -1;   // >= 0: every route's rate
  std::vector<double> rates;  // by from * N + to, when they differ
  double rate(int from, int to) const {
    if (uniform_rate >= 0 || rates.empty()) return uniform_rate;
    return rates[static_cast<std::size_t>(from) * workstations.size() + to];
  }
};

// Configures SimGrid's network model so that messages see exactly the platform's latency (CM02 without
// latency or bandwidth correction factors; SimGrid's default model multiplies latencies by about 13).
void configure_network_model();

// Host-name order for platform files: runs of digits compare as numbers (ws-2 before ws-10).
bool natural_less(const std::string& a, const std::string& b);

// Builds N workstations on a star network (each host's private full-duplex link has half the latency L and
// the bandwidth B, so a message crosses 2 links: latency L) or loads platform.file, whose hosts, ordered by
// name, are the workstations. Throws InputError for a file SimGrid cannot load or with too few hosts.
// Under platform.network logp the simgrid engine computes the LogP network: every link gets SimGrid's
// FATPIPE sharing policy and a bandwidth no transfer reaches, and each transfer is bounded by its route's
// rate (NowPlatform::rate). FATPIPE alone is not enough where routes differ in latency: CM02 weighs a
// flow by its route's latency, and on a FATPIPE link a flow then gets its bandwidth times min latency /
// its latency while it overlaps a flow of a shorter route (docs/models/now.md 3.3). Under shared the
// star's links are SHARED and a platform file's links keep the policy the file gives them.
NowPlatform build_now_platform(simgrid::s4u::Engine& engine, const config::NowConfig& now);

}  // namespace cosched::platform
