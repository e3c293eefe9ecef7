#include "smp/setup.hpp"

#include "sched/smp/smp_policy_registry.hpp"
#include "userlevel/job_runtime.hpp"
#include "util/normal.hpp"
#include "wait/smp/smp_wait_registry.hpp"

namespace cosched::smp {
namespace {

// The iteration costs' stream of a loop job instance: (seed, instance + 1, this), apart from its threads'
// computation streams (seed, instance + 1, thread index).
constexpr std::uint64_t kLoopCostStream = 0x100B'C057'0000'0001ULL;

// A job profile's user-level runtime, if its phases are a parallel loop or a task tree.
std::function<std::unique_ptr<userlevel::JobRuntime>()> runtime_factory(const config::SmpJobProfile& profile,
                                                                        std::uint64_t seed,
                                                                        std::size_t instance) {
  if (profile.loop) {
    const std::uint64_t stream = util::mix_seed(seed, instance + 1, kLoopCostStream);
    return [loop = *profile.loop, threads = profile.threads, stream] {
      return userlevel::make_loop_runtime(loop, threads, stream);
    };
  }
  if (profile.tasks)
    return [tasks = *profile.tasks, threads = profile.threads] {
      return userlevel::make_task_runtime(tasks, threads);
    };
  return {};
}

}  // namespace

Machine build_machine(const config::Scenario& scenario, int cpus) {
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);
  MachineConfig machine;
  machine.cpus = cpus;
  machine.cs_in = smp.cs_in;
  machine.cs_out = smp.cs_out;
  machine.idle_wakeup = smp.idle_wakeup;
  machine.quantum = smp.quantum;
  machine.shuffle = smp.shuffle;
  machine.end_at_first_finish = scenario.end == config::EndCondition::FirstFinish;
  machine.nosync = smp.nosync;
  machine.nosync_nice = smp.nosync_nice;
  machine.seed = scenario.seed;
  for (const auto& profile : smp.jobs) {
    std::shared_ptr<const wait::SmpWaitAlgorithm> wait = wait::make_smp_wait(profile.wait);
    for (int copy = 0; copy < profile.copies; ++copy) {
      machine.jobs.push_back(JobInstance{
          profile.name, copy, profile.threads, profile.barriers, profile.compute_cycles, profile.sigma.cycles,
          wait, runtime_factory(profile, scenario.seed, machine.jobs.size()), profile.nice});
    }
  }
  return Machine(
      std::move(machine),
      sched::smp_schedulers().at(smp.scheduler.name).make(*smp.scheduler.params, smp, cpus, scenario.seed));
}

metrics::SmpRunRecord summarize(const Machine& machine, const config::Scenario& scenario) {
  metrics::SmpRunRecord out;
  out.scenario = scenario.name;
  out.model = scenario.model;
  out.seed = scenario.seed;
  out.makespan = machine.now();
  const bool partitioned = sched::smp_schedulers()
                               .at(std::get<config::SmpConfig>(scenario.model_config).scheduler.name)
                               .partitions;
  out.partitioned = partitioned;
  for (std::size_t j = 0; j < machine.outcomes().size(); ++j) {
    const auto& outcome = machine.outcomes()[j];
    const auto& instance = machine.config().jobs[j];
    metrics::SmpJobRecord job;
    job.name = instance.name;
    job.copy = instance.copy;
    job.completion_time = outcome.completion_time;
    job.spins = {outcome.successful_spins, outcome.total_spins};
    job.barriers_completed = outcome.barriers_completed;
    // Thesis 7.6: the transition point, taken as the time of the job's last unsuccessful spin.
    job.transition_point = outcome.last_failed_spin;
    job.blocks = outcome.blocks;
    job.context_switches = outcome.context_switches;
    job.spin_cycles = outcome.spin_cycles;
    // K&W's barrier overhead per phase (docs/models/smp.md section 18), for partitioned runs.
    if (partitioned && outcome.completion_time && instance.barriers > 0 && !instance.make_runtime)
      job.barrier_overhead_per_phase =
          (static_cast<double>(*outcome.completion_time) - outcome.partition_work) / instance.barriers;
    if (const auto* runtime = machine.runtime(static_cast<int>(j))) {
      out.user_level = true;
      for (int t = 0; t < instance.threads; ++t) {
        job.user_level_threads.push_back(runtime->stats(t));
      }
    }
    out.jobs.push_back(std::move(job));
  }
  out.events = machine.events();
  return out;
}

}  // namespace cosched::smp
