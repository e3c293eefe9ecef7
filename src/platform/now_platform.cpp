#include "platform/now_platform.hpp"

#include <fmt/format.h>
#include <xbt/log.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "platform/platform_check.hpp"

namespace cosched::platform {

namespace sg4 = simgrid::s4u;

// Names compared with their runs of digits as numbers: ws-2 before ws-10.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end]))) ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end]))) ++j_end;
      auto da = a.substr(i, i_end - i), db = b.substr(j, j_end - j);
      da.erase(0, std::min(da.find_first_not_of('0'), da.size()));
      db.erase(0, std::min(db.find_first_not_of('0'), db.size()));
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

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
      // Full duplex, as a workstation's network interface: sending and receiving do not share bandwidth.
      auto* link =
          zone->create_split_duplex_link(fmt::format("link-{:05d}", w), now.bandwidth_bytes_per_second)
              ->set_latency(half_latency)
              ->seal();
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                      {sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::UP)}, true);
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
  check_platform_values(engine, now.platform_file, config::limits::kMaxCpus);
  out.workstations = engine.get_all_hosts();
  std::sort(out.workstations.begin(), out.workstations.end(), [](const sg4::Host* a, const sg4::Host* b) {
    return natural_less(a->get_name(), b->get_name());
  });
  if (out.workstations.size() < 2)
    throw config::InputError(
        fmt::format("{}: platform.file: expected at least 2 hosts (the workstations), found {}",
                    now.platform_file, out.workstations.size()));
  auto route_latency = [](sg4::Host* from, sg4::Host* to) {
    std::vector<sg4::Link*> links;
    double latency = 0;
    // SimGrid dereferences a missing route: say where, should it crash (platform_check.hpp).
    set_crash_context("computing the route", from->get_name(), to->get_name());
    from->route_to(to, links, &latency);
    return latency * 1e9;
  };
  out.latency =
      static_cast<config::Nanos>(std::llround(route_latency(out.workstations[0], out.workstations[1])));
  // A lower bound of every route's latency, so rounded down: no message may arrive before it.
  double min_latency = route_latency(out.workstations[0], out.workstations[1]);
  double max_latency = min_latency;
  for (auto* from : out.workstations) {
    for (auto* to : out.workstations) {
      if (from == to) continue;
      const double latency = route_latency(from, to);
      min_latency = std::min(min_latency, latency);
      max_latency = std::max(max_latency, latency);
    }
  }
  out.min_latency = static_cast<config::Nanos>(std::floor(min_latency));
  out.uniform_latency = max_latency == min_latency;
  return out;
}

}  // namespace cosched::platform
