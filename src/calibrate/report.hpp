#pragma once
// A calibration as calibration.yaml and as the seed's tables on the terminal (docs/calibration.md), and
// the scenario keys its figures feed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/measurements.hpp"

namespace cosched::calibrate {

// The scenario keys a calibration gives values for, in the units the keys take (docs/calibration.md,
// "What the figures feed"). Each is rounded to a whole unit, halves away from zero, and never below 0.
struct ScenarioKeys {
  std::int64_t now_context_switch_ns = 0;  // NOW scheduler.context_switch: one kernel switch
  // SMP scheduler.cs_in and cs_out: half a kernel switch each, the rounded switch split so that
  // cs_in + cs_out (the thesis's CS) is the whole of it, cs_in taking the odd cycle.
  std::int64_t smp_cs_in_cycles = 0;
  std::int64_t smp_cs_out_cycles = 0;
  // SMP scheduler.idle_wakeup: what a hand-over to a thread on an idle CPU takes beyond one on the same
  // CPU (the idle CPU's wake-up); nothing when it was not measured (one CPU allowed).
  std::optional<std::int64_t> smp_idle_wakeup_cycles;
  std::int64_t loop_dispatch_cycles = 0;  // a job's loop.dispatch: one uncontended dispatch
  std::int64_t task_switch_cycles = 0;    // a job's tasks.switch: one ucontext switch, the seed's library's
  // The keys fed by a figure at or below 0, which take 0 (docs/calibration.md, section 1): each key as
  // scenario_keys names it ("smp_job.loop.dispatch") and the figure ("dispatch_ns.uncontended").
  struct NotPositive {
    std::string key, figure;
  };
  std::vector<NotPositive> not_positive;
};

ScenarioKeys scenario_keys(const Calibration& calibration);

// calibration.yaml: cpu_hz, switch_ns {ucontext, fcontext, kernel, idle_wakeup}, dispatch_ns {uncontended,
// contended}, each figure with mean and std in ns, in cycles at cpu_hz and its table; scenario_keys, with the
// same values as --set arguments.
std::string calibration_yaml(const Calibration& calibration);

// The seed's tables (a row per number of operations: mean and standard deviation in ns), a table per kind
// of measurement, then each figure in ns and cycles.
std::string calibration_text(const Calibration& calibration);

}  // namespace cosched::calibrate
