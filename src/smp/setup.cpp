#include "smp/setup.hpp"

#include "metrics/ssr.hpp"
#include "sched/smp_policy_registry.hpp"
#include "wait/smp_wait.hpp"

namespace cosched::smp {

Machine build_machine(const config::Scenario& scenario, int cpus) {
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);
  MachineConfig machine;
  machine.cpus = cpus;
  machine.cs_in = smp.cs_in;
  machine.cs_out = smp.cs_out;
  machine.quantum = smp.quantum;
  machine.shuffle = smp.shuffle;
  machine.end_at_first_finish = scenario.end == config::EndCondition::FirstFinish;
  machine.nosync = smp.nosync;
  machine.seed = scenario.seed;
  for (const auto& profile : smp.jobs) {
    std::shared_ptr<const wait::SmpWaitAlgorithm> wait = wait::make_smp_wait(profile.wait);
    for (int copy = 0; copy < profile.copies; ++copy) {
      machine.jobs.push_back(JobInstance{profile.name, copy, profile.threads, profile.barriers,
                                         profile.compute_cycles, profile.sigma.cycles, wait});
    }
  }
  return Machine(std::move(machine), sched::find_smp_policy(smp.policy)->make(smp, cpus, scenario.seed));
}

nlohmann::ordered_json summarize(const Machine& machine, const config::Scenario& scenario) {
  nlohmann::ordered_json out;
  out["scenario"] = scenario.name;
  out["model"] = scenario.model;
  out["seed"] = scenario.seed;
  out["makespan"] = machine.now();
  std::int64_t successful = 0, total = 0;
  auto jobs = nlohmann::ordered_json::array();
  for (std::size_t j = 0; j < machine.outcomes().size(); ++j) {
    const auto& outcome = machine.outcomes()[j];
    const auto& instance = machine.config().jobs[j];
    successful += outcome.successful_spins;
    total += outcome.total_spins;
    nlohmann::ordered_json job;
    job["name"] = instance.name;
    job["copy"] = instance.copy;
    job["completion_time"] =
        outcome.completion_time ? nlohmann::ordered_json(*outcome.completion_time) : nullptr;
    auto rate = metrics::ssr(outcome.successful_spins, outcome.total_spins);
    job["ssr"] = rate ? nlohmann::ordered_json(*rate) : nullptr;
    job["spins"] = {{"successful", outcome.successful_spins}, {"total", outcome.total_spins}};
    job["barriers_completed"] = outcome.barriers_completed;
    // Thesis 7.6: the transition point, taken as the time of the job's last unsuccessful spin.
    job["transition_point"] =
        outcome.last_failed_spin ? nlohmann::ordered_json(*outcome.last_failed_spin) : nullptr;
    job["blocks"] = outcome.blocks;
    job["context_switches"] = outcome.context_switches;
    job["spin_cycles"] = outcome.spin_cycles;

    jobs.push_back(job);
  }
  auto rate = metrics::ssr(successful, total);
  out["ssr"] = rate ? nlohmann::ordered_json(*rate) : nullptr;
  out["spins"] = {{"successful", successful}, {"total", total}};
  out["jobs"] = jobs;
  out["events"] = machine.events();
  out["time_unit"] = "cycles";
  return out;
}

}  // namespace cosched::smp
