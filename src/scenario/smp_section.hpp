#pragma once
// The SMP model's keys (platform, scheduler, workload), Tsafrir thesis table 2.1.

#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "scenario/calibration_file.hpp"

namespace cosched::config {

// `calibration`, when the scenario names one, gives the defaults of scheduler.cs_in and cs_out (then
// optional) and of every job's loop.dispatch and tasks.switch.
SmpConfig read_smp(MapReader& top, const std::string& scenario_dir, EndCondition end,
                   CalibratedCosts* calibration);
nlohmann::ordered_json smp_json(const SmpConfig& smp);

// The entries that a job's drawn values came from (the job classes of thesis 5.1.5).
struct DrawnJob {
  std::optional<std::size_t> threads_entry, compute_entry, sigma_entry;
};
// Draws the keys of `job` given as distributions (threads, then compute, then sigma, each from `engine`) and
// writes the drawn values into `job`; a sigma interval given in % of mu follows the drawn mu.
DrawnJob draw_job_values(SmpJobProfile& job, Cycles quantum, std::mt19937_64& engine);
// Draws every job profile's distributions, profile j from its own stream derived from (seed, j).
void draw_distributions(SmpConfig& smp, std::uint64_t seed);

// Exposed for tests: thesis 2.2.2, sigma = INTERVAL / z((1 + DENSITY/100) / 2).
double sigma_from_symbolic(double density_percent, double interval_cycles);

}  // namespace cosched::config
