#pragma once
// The top-level key `calibration: FILE` (docs/calibration.md, section 6): the costs `cosched calibrate`
// wrote under `scenario_keys` in calibration.yaml become the defaults of the keys they feed. This reads
// those YAML keys and nothing else: the scenario layer sits below calibrate/ (docs/architecture.md), so it
// shares no code with the writer, only the file's keys (calibrate/report.cpp, calibration_yaml).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/field.hpp"
#include "config/scenario.hpp"

namespace cosched::config {

// One cost of the file: its value in the unit of the key it feeds, as the file writes it, and where.
struct CalibratedCost {
  std::int64_t value = 0;  // nanoseconds (NOW) or cycles (SMP)
  std::string text;        // "2166ns", "2812"
  std::string from;        // "scenario_keys.smp.scheduler.cs_in"
};

// The costs one model takes from a calibration file, and the record of which keys took them.
struct CalibratedCosts {
  CalibrationRecord record;  // file, cpu_hz and quick; resolve() adds what each key took
  // Filled by read_calibration with the keys of the scenario's model.
  std::optional<CalibratedCost> now_context_switch;  // NOW scheduler.context_switch
  std::optional<CalibratedCost> smp_cs_in;           // SMP scheduler.cs_in
  std::optional<CalibratedCost> smp_cs_out;          // SMP scheduler.cs_out
  std::optional<CalibratedCost> smp_idle_wakeup;     // SMP scheduler.idle_wakeup, if the file has it
  std::optional<CalibratedCost> loop_dispatch;       // an SMP job's loop.dispatch
  std::optional<CalibratedCost> task_switch;         // an SMP job's tasks.switch

  // The value of the key at `key_path` (display form, workload.jobs[0].loop.dispatch) that `cost` feeds:
  // `written`, the scenario's, when it (or --set) writes the key, which always wins; the file's otherwise.
  // Records which, and adds a warning the first time a cost marked not_positive is taken.
  std::int64_t resolve(const std::string& key_path, std::optional<std::int64_t> written,
                       const CalibratedCost& cost);
  // The file's scenario_keys.not_positive: the figure at or below 0 behind each key it marks, by the key's
  // `from` ("scenario_keys.smp_job.loop.dispatch" -> "dispatch_ns.uncontended").
  std::map<std::string, std::string> not_positive;
  // For the scenario's `calibration` key (Field::warn), once the model's keys are read.
  std::vector<std::string> warnings;
};

// Reads the calibration file the scenario's `calibration` key names, relative to the scenario file's folder
// (and the folders above it, then the current directory) as platform files are: its cpu_hz and quick, then
// the costs of the scenario's model, which its `read_keys` (ModelEntry::calibration_keys) takes from
// `scenario_keys` (now: scenario_keys.now; smp: scenario_keys.smp and scenario_keys.smp_job; each must be
// there), and which of those the file marks as fed by a figure at or below 0 (scenario_keys.not_positive,
// optional). Throws InputError: a missing file located at the scenario's key, the rest at the calibration
// file's line and key.
CalibratedCosts read_calibration(const Field& key, const std::string& scenario_dir,
                                 void (*read_keys)(MapReader& scenario_keys, CalibratedCosts& costs));

// One cost of `section` for a model's read_keys: an SMP cost in whole cycles, as the writer rounds them
// ("halves away from zero, and never below 0"); a NOW cost, a duration with its unit ("2166ns"), read as the
// scenario's own durations are.
CalibratedCost calibrated_cycles(MapReader& section, const std::string& key);
// A cost that older files lack (scheduler.idle_wakeup): nothing when the file has no such key.
std::optional<CalibratedCost> optional_calibrated_cycles(MapReader& section, const std::string& key);
CalibratedCost calibrated_duration(MapReader& section, const std::string& key);

}  // namespace cosched::config
