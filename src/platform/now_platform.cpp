#include "platform/now_platform.hpp"

#include <fmt/format.h>
#include <xbt/config.h>
#include <xbt/log.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "message/now_message.hpp"
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

namespace {

// The time a message of kMessageBytes takes on the route from `from` to `to` when alone on it, as SimGrid's
// CM02 model computes it: the route's latency plus the bytes at the smallest bandwidth along it (bounded by
// TCP-gamma / 2 x latency), in whole nanoseconds.
struct RouteTiming {
  double latency_ns;
  config::Nanos delay;
  double rate;  // bytes/s
};

RouteTiming route_timing(const sg4::Host* from, const sg4::Host* to) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  // SimGrid dereferences a missing route: say where, should it crash (platform_check.hpp).
  set_crash_context("computing the route", from->get_name(), to->get_name());
  from->route_to(to, links, &latency);
  double rate = -1;
  for (const auto* link : links)
    if (rate < 0 || link->get_bandwidth() < rate) rate = link->get_bandwidth();
  if (latency > 0) {
    const double gamma_bound = sg_cfg_get_double("network/TCP-gamma") / (2.0 * latency);
    rate = rate < 0 ? gamma_bound : std::min(rate, gamma_bound);
  }
  const double transfer = rate > 0 ? static_cast<double>(now::kMessageBytes) / rate : 0.0;
  return {latency * 1e9, static_cast<config::Nanos>(std::llround((latency + transfer) * 1e9)), rate};
}

// Under logp no link is shared between transfers (SimGrid's FATPIPE policy; split-duplex links pass the
// policy to both directions) and none binds a transfer: its bandwidth becomes kUnbound times what it was,
// and the simgrid engine bounds each transfer by its route's rate instead. (With FATPIPE alone a transfer
// on a route of latency l overlapping one of latency l' < l on a link runs at l'/l of the link's
// bandwidth: CM02's sharing penalty of a flow is its route's latency.) Call it after the routes' timings
// are read: they use the links' own bandwidths. Wi-Fi links keep their policy and bandwidth.
constexpr double kUnbound = 1e9;

void apply_network(const sg4::Engine& engine, const config::NowConfig& now) {
  if (now.network != config::NowNetwork::LogP) return;
  for (auto* link : engine.get_all_links()) {
    const auto policy = link->get_sharing_policy();
    if (policy == sg4::Link::SharingPolicy::SHARED || policy == sg4::Link::SharingPolicy::SPLITDUPLEX) {
      link->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      link->set_bandwidth(link->get_bandwidth() * kUnbound);
    }
  }
}

}  // namespace

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
    // Every route is the same two links: one reading through SimGrid's routing gives every delay.
    if (now.workstations >= 2) {
      const auto timing = route_timing(out.workstations[0], out.workstations[1]);
      out.uniform_delay = timing.delay;
      if (now.network == config::NowNetwork::LogP) out.uniform_rate = timing.rate;
    }
    apply_network(engine, now);
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
  const std::size_t n = out.workstations.size();
  const bool logp = now.network == config::NowNetwork::LogP;
  const double first_latency = route_timing(out.workstations[0], out.workstations[1]).latency_ns;
  out.latency = static_cast<config::Nanos>(std::llround(first_latency));
  // A lower bound of every route's latency, so rounded down: no message may arrive before it.
  double min_latency = first_latency;
  double max_latency = min_latency;
  out.delays.assign(n * n, 0);
  if (logp) out.rates.assign(n * n, -1);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      const auto timing = route_timing(out.workstations[a], out.workstations[b]);
      min_latency = std::min(min_latency, timing.latency_ns);
      max_latency = std::max(max_latency, timing.latency_ns);
      out.delays[a * n + b] = timing.delay;
      if (logp) out.rates[a * n + b] = timing.rate;
    }
  }
  apply_network(engine, now);
  out.min_latency = static_cast<config::Nanos>(std::floor(min_latency));
  out.uniform_latency = max_latency == min_latency;
  return out;
}

}  // namespace cosched::platform
