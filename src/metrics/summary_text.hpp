#pragma once
// What `cosched run` prints of a run on the terminal, model by model: the lines between the header (scenario,
// model, seed) and the closing lines (events, wall time, files), which cli/summary_text writes. Each model's
// registry entry (scenario/models.hpp) names its own; they read the run's summary.json.

#include <nlohmann/json.hpp>
#include <string>

namespace cosched::metrics {

// Makespan, SSR, a line per job, and what SMP jobs' threads did at user level.
std::string smp_summary_lines(const nlohmann::ordered_json& summary);
// Makespan, SSR, a line per job and their time shares; an open workload's stream on one line instead.
std::string now_summary_lines(const nlohmann::ordered_json& summary);
// Chapter 5's rates and breakdown, the pages moved, a line per process.
std::string numa_summary_lines(const nlohmann::ordered_json& summary);

}  // namespace cosched::metrics
