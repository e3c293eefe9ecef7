#include "platform/smp_platform.hpp"

#include <fmt/format.h>

#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "platform/platform_check.hpp"

namespace cosched::platform {

namespace sg4 = simgrid::s4u;

SmpHost build_smp_platform(sg4::Engine& engine, const config::SmpConfig& smp) {
  SmpHost out;
  if (smp.platform_file.empty()) {
    auto* zone = sg4::create_full_zone("smp");
    out.host = zone->create_host("smp", kDefaultCyclesPerSecond)->set_core_count(smp.cpus)->seal();
    zone->seal();
  } else {
    try {
      engine.load_platform(smp.platform_file);
    } catch (const std::exception& e) {
      throw config::InputError(fmt::format("{}: platform.file: SimGrid cannot load this platform: {}",
                                           smp.platform_file, e.what()));
    }
    auto hosts = engine.get_all_hosts();
    if (hosts.size() != 1)
      throw config::InputError(
          fmt::format("{}: platform.file: expected a platform with exactly one host (the SMP), found {}",
                      smp.platform_file, hosts.size()));
    out.host = hosts.front();
    check_platform_values(engine, smp.platform_file, config::limits::kMaxCpus);
  }
  out.cpus = out.host->get_core_count();
  out.cycles_per_second = out.host->get_speed();
  return out;
}

}  // namespace cosched::platform
