#include "smp/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <simgrid/s4u.hpp>

#include "config/limits.hpp"
#include "metrics/timeline.hpp"
#include "metrics/trace.hpp"
#include "platform/engine.hpp"
#include "platform/smp_platform.hpp"
#include "smp/setup.hpp"
#include "util/log.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_smp);

namespace cosched::smp {

namespace sg4 = simgrid::s4u;

metrics::SmpRunRecord run(const config::Scenario& scenario, const metrics::RunHooks& hooks) {
  const auto& progress = hooks.progress;
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);
  auto engine_owner = platform::make_engine();
  auto& engine = *engine_owner;
  // The last slice may be shorter than SimGrid's timing precision: not worth a warning to the user.
  xbt_log_control_set("s4u_actor.thresh:warning");
  auto host = platform::build_smp_platform(engine, smp);
  Machine machine = build_machine(scenario, host.cpus);
  if (smp.output.records_timeline()) machine.record_timeline();
  if (hooks.started) hooks.started();

  // SimGrid's clock follows the machine's cycle clock at every quantum boundary and exactly at the end.
  // Within a slice the machine orders events itself by (cycle, CPU id), which is the order the thesis
  // prescribes and which simultaneous SimGrid actors could not guarantee.
  sg4::Actor::create(
      "smp-machine", host.host, platform::guarded([&machine, &host, &smp, &progress, &scenario] {
        const double seconds_per_cycle = 1.0 / host.cycles_per_second;
        Cycles slice_end = 0;
        while (true) {
          auto next = machine.next_event_time();
          slice_end = std::max(slice_end + smp.quantum, next.value_or(slice_end));
          if (!machine.run_until(slice_end)) break;
          config::limits::check_simulated_time(slice_end, scenario.file, "cycles");
          sg4::this_actor::sleep_until(static_cast<double>(slice_end) * seconds_per_cycle);
          if (progress) progress({fmt::format("{} cycles", slice_end), machine.barrier_progress()});
        }
        sg4::this_actor::sleep_until(static_cast<double>(machine.now()) * seconds_per_cycle);
        XBT_DEBUG("machine done at cycle %lld after %llu events", static_cast<long long>(machine.now()),
                  static_cast<unsigned long long>(machine.events()));
      }));
  engine.run();
  platform::rethrow_actor_error();

  // The polling state is named only in runs with a user-level runtime, so the others' files keep theirs.
  const bool polling =
      std::any_of(machine.config().jobs.begin(), machine.config().jobs.end(),
                  [](const JobInstance& job) { return static_cast<bool>(job.make_runtime); });
  if (smp.output.timeline && hooks.extra_file)
    hooks.extra_file(metrics::kTimelineFile,
                     metrics::timeline_csv(machine.timeline(), ThreadTimeline::state_names(polling),
                                           metrics::TimelineTime::Integer));
  if (smp.output.traces() && hooks.extra_file)
    for (auto& [name, content] :
         metrics::trace_files(smp.output, machine.timeline(), ThreadTimeline::state_names(polling),
                              {"cpu", host.cycles_per_second, "cycles"}))
      hooks.extra_file(name, std::move(content));
  auto out = summarize(machine, scenario);
  out.platform = {host.host->get_name(), host.cpus, host.cycles_per_second, sg4::Engine::get_clock()};
  return out;
}

}  // namespace cosched::smp
