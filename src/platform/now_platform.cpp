#include "platform/now_platform.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <xbt/log.h>

#include "config/input_error.hpp"

namespace cosched::platform {

namespace sg4 = simgrid::s4u;

void configure_network_model() {
  xbt_log_control_set("xbt_cfg.thresh:warning");  // configuring is not news to the user
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/latency-factor:1");
  sg4::Engine::set_config("network/bandwidth-factor:1");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/weight-S:0");  // no RTT-dependent bandwidth sharing
  // Times are whole nanoseconds; let SimGrid resolve them finely.
  sg4::Engine::set_config("surf/precision:1e-12");
}

NowPlatform build_now_platform(sg4::Engine& engine, const config::NowConfig& now) {
  NowPlatform out;
  if (now.platform_file.empty()) {
    auto* zone = sg4::create_star_zone("now");
    const double half_latency = static_cast<double>(now.latency) * 0.5e-9;
    for (int w = 0; w < now.workstations; ++w) {
      auto* host = zone->create_host(fmt::format("ws-{:05d}", w), 1e9);
      auto* link = zone->create_link(fmt::format("link-{:05d}", w), now.bandwidth_bytes_per_second)
                       ->set_latency(half_latency)
                       ->seal();
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(link)}, true);
      out.workstations.push_back(host);
    }
    zone->seal();
    out.latency = now.latency;
    out.min_latency = now.latency;
    return out;
  }
  try {
    engine.load_platform(now.platform_file);
  } catch (const std::exception& e) {
    throw config::InputError(
        fmt::format("{}: platform.file: SimGrid cannot load this platform: {}", now.platform_file, e.what()));
  }
  out.workstations = engine.get_all_hosts();
  std::sort(out.workstations.begin(), out.workstations.end(),
            [](const sg4::Host* a, const sg4::Host* b) { return a->get_name() < b->get_name(); });
  if (out.workstations.size() < 2)
    throw config::InputError(fmt::format("{}: platform.file: expected at least 2 hosts (the workstations), found {}",
                                         now.platform_file, out.workstations.size()));
  auto route_latency = [](sg4::Host* from, sg4::Host* to) {
    std::vector<sg4::Link*> links;
    double latency = 0;
    from->route_to(to, links, &latency);
    return static_cast<config::Nanos>(std::floor(latency * 1e9));
  };
  out.latency = route_latency(out.workstations[0], out.workstations[1]);
  out.min_latency = out.latency;
  for (auto* from : out.workstations)
    for (auto* to : out.workstations)
      if (from != to) out.min_latency = std::min(out.min_latency, route_latency(from, to));
  return out;
}

}  // namespace cosched::platform
