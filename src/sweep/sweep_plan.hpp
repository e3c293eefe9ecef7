#pragma once
// A parameter sweep: a base scenario, axes of values for dotted scenario paths, and seeds, expanded into
// runs (docs/sweeps.md). Pure logic: reading a sweep file, expanding it, and the plan file that lets
// `cosched sweep status` and `collect` work from the output directory alone.

#include <cstdint>
#include <string>
#include <vector>

namespace cosched::sweep {

// One run of a sweep: the base scenario with `sets` applied (each "PATH=VALUE", as `cosched run --set`
// takes them) and `seed`. Its id is derived from the resolved scenario, so it stays the same when the
// sweep file is reordered or extended.
struct PlannedRun {
  std::string id;  // 16 hex digits
  std::uint64_t seed = 1;
  std::vector<std::string> values;  // one per axis, as given in the sweep file (flow YAML)
  std::vector<std::string> sets;
};

struct SweepPlan {
  std::string base_file;                // absolute path of the base scenario
  std::vector<std::string> axis_paths;  // in the order of the sweep file
  std::vector<PlannedRun> runs;         // in expansion order, ids unique
  // The runs' scenario warnings (config::Scenario::warnings), each once, with the first run that gave it
  // and how many did; not written to plan.json (each run's stderr log has its own).
  std::vector<std::string> warnings;
};

// Reads SWEEP.yaml, expands it and validates every run (each is loaded as `cosched validate` would),
// throwing config::InputError located in the sweep file or naming the run. An inline base scenario is
// written to `out_dir`/base.yaml. `quick` expands the sweep's reduced variant (its `quick:` section).
SweepPlan expand_sweep(const std::string& sweep_file, const std::string& out_dir, bool quick = false);

// The plan file out_dir/plan.json (written atomically) and reading it back.
void write_plan(const SweepPlan& plan, const std::string& out_dir);
SweepPlan read_plan(const std::string& out_dir);

// Integer ranges of the sweep format: "A..B" or "A..B:STEP" (both ends included). nullopt when `text` is
// not a range; throws std::invalid_argument for a malformed one.
std::vector<std::int64_t> parse_range(const std::string& text, bool& is_range);

}  // namespace cosched::sweep
