#include "numa/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <simgrid/s4u.hpp>

#include "config/input_error.hpp"
#include "metrics/timeline.hpp"
#include "metrics/trace.hpp"
#include "numa/machine.hpp"
#include "numa/network.hpp"
#include "platform/engine.hpp"
#include "platform/numa_platform.hpp"
#include "util/log.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_numa);

namespace cosched::numa {

namespace sg4 = simgrid::s4u;

namespace {

// What only the platform can tell about the workload (docs/scenario-format.md section 10).
void check_workload(const config::NumaConfig& numa, const platform::NumaTopology& topology) {
  const int clusters = static_cast<int>(topology.clusters.size());
  for (const auto& profile : numa.processes) {
    if (profile.threads > clusters)
      throw config::InputError(
          fmt::format("{}: expected at most {} threads, the clusters of {} (a process runs one thread per "
                      "cluster, thesis "
                      "4.2.3), got {}",
                      profile.origin, clusters, numa.platform_file, profile.threads));
  }
}

}  // namespace

void check_platform(const config::Scenario& scenario) {
  const auto& numa = std::get<config::NumaConfig>(scenario.model_config);
  auto engine = platform::make_engine();
  check_workload(numa, platform::build_numa_platform(*engine, numa));
}

metrics::NumaRunRecord run(const config::Scenario& scenario, const metrics::RunHooks& hooks) {
  const auto& numa = std::get<config::NumaConfig>(scenario.model_config);
  auto engine_owner = platform::make_engine();
  auto& engine = *engine_owner;
  xbt_log_control_set("s4u_actor.thresh:warning");
  const auto topology = platform::build_numa_platform(engine, numa);
  check_workload(numa, topology);
  if (hooks.started) hooks.started();

  std::unique_ptr<Network> network;
  // The messages for the traces (output.trace_messages), kept within output.trace_window; null when off.
  std::unique_ptr<metrics::MessageRecorder> messages;
  if (numa.output.records_messages())
    messages = std::make_unique<metrics::MessageRecorder>(numa.output.trace_window);
  std::unique_ptr<Machine> machine;
  // One actor drives the machine slice by slice; SimGrid's clock follows the machine's at every slice
  // boundary (and, under platform.network shared, at every message).
  sg4::Actor::create("numa-machine", topology.clusters.front(), platform::guarded([&] {
                       network = numa.network == config::NumaNetwork::Hops
                                     ? make_hop_network(topology, numa)
                                     : make_shared_network(topology, numa);
                       MachineSetup setup;
                       setup.numa = &numa;
                       setup.topology = &topology;
                       setup.network = network.get();
                       setup.seed = scenario.seed;
                       setup.end_at_first_finish = scenario.end == config::EndCondition::FirstFinish;
                       setup.timeline = numa.output.records_timeline();
                       setup.messages = messages.get();
                       machine = std::make_unique<Machine>(setup);
                       while (machine->run_slice()) {
                         const double at = static_cast<double>(machine->now()) / numa.clock_hz;
                         if (at > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(at);
                         if (hooks.progress)
                           hooks.progress({fmt::format("slice {} of {}", machine->slices(), numa.slices),
                                           static_cast<double>(machine->slices()) / numa.slices});
                       }
                       XBT_DEBUG("machine done at clock %lld after %d slices",
                                 static_cast<long long>(machine->now()), machine->slices());
                     }));
  engine.run();
  platform::rethrow_actor_error();

  auto out = machine->record();
  out.scenario = scenario.name;
  out.model = scenario.model;
  out.seed = scenario.seed;
  out.platform = {static_cast<int>(topology.clusters.size()), topology.levels, topology.fanout, numa.clock_hz,
                  sg4::Engine::get_clock()};
  if (numa.output.timeline && hooks.extra_file)
    hooks.extra_file(metrics::kTimelineFile,
                     metrics::timeline_csv(machine->timeline(), Machine::timeline_states(),
                                           metrics::TimelineTime::Integer));
  if (numa.output.traces() && hooks.extra_file) {
    metrics::TraceMessages traced;
    if (messages) traced = {messages->messages(), Machine::message_kinds()};
    for (auto& [name, content] :
         metrics::trace_files(numa.output, machine->timeline(), Machine::timeline_states(),
                              {"cluster", numa.clock_hz, "clocks"}, traced))
      hooks.extra_file(name, std::move(content));
  }
  return out;
}

}  // namespace cosched::numa
