#pragma once
// The NOW model's keys (platform, scheduler, workload), Brim & Miller 3.1 and docs/models/now.md.

#include <nlohmann/json.hpp>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "scenario/calibration_file.hpp"

namespace cosched::config {

// `calibration`, when the scenario names one, gives scheduler.context_switch's default.
NowConfig read_now(MapReader& top, const std::string& scenario_dir, CalibratedCosts* calibration);
nlohmann::ordered_json now_json(const NowConfig& now);

// One job profile as `resolved` records it.
nlohmann::ordered_json now_profile_json(const NowJobProfile& job);
// A job class of workload.stream.classes: a job profile without processes, copies, placement and barriers,
// with name, weight, min_processes and max_processes (docs/scenario-format.md "Open workloads").
NowJobClass read_now_job_class(const Field& f, std::size_t index);

// Open workloads (scenario/now_stream_section.cpp): workload.stream, whose SWF file is read and checked
// here (its errors are input errors), and the top-level job_scheduler.
// What the trace's estimate needs of the stream (now::check_stream_trace): its jobs' dedicated
// processor-seconds after time_scale, and the span of its submits after arrival_scale plus its longest run
// (0 when `load` sets the scale: unknown before the platform). `workstations`: platform.workstations, 0
// with a platform file (known only once the platform is built).
struct NowStreamSize {
  double process_seconds = 0;
  double run_seconds = 0;
};
NowStream read_now_stream(const Field& f, const std::string& scenario_dir, int workstations,
                          NowStreamSize& size);
PolicyChoice read_job_scheduler(const Field& f);
nlohmann::ordered_json now_stream_json(const NowStream& stream);

// The top-level `noise` (scenario/now_noise_section.cpp; docs/models/now.md section 8): its sources, their
// trace and phase files read and checked; `workstations` 0 with a platform file (the run checks the
// workstations named against the file's).
std::vector<workload::NoiseSource> read_now_noise(const Field& f, const std::string& scenario_dir,
                                                  int workstations);
nlohmann::ordered_json now_noise_json(const std::vector<workload::NoiseSource>& sources);

}  // namespace cosched::config
