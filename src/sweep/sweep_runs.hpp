#pragma once
// Running a sweep's runs and collecting their results (docs/sweeps.md). Each run is `cosched run` in a
// child process writing DIR/runs/<id>/ atomically, so a run is complete exactly when its summary.json
// exists: a rerun skips it, and a failed or interrupted one leaves nothing that looks complete. A failed
// run leaves DIR/failed/<id>.txt (its exit status and the tail of its stderr) until it succeeds.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sweep/sweep_plan.hpp"

namespace cosched::sweep {

struct RunnerOptions {
  int jobs = 1;                         // runs at once
  std::optional<double> run_timeout_s;  // a run still going after this is killed and recorded
  bool progress = false;                // a progress line on stderr
  std::size_t slice = 0, slices = 1;    // this process runs the pending runs i with i % slices == slice
};

struct RunnerOutcome {
  std::size_t completed = 0;  // by this invocation
  std::size_t failed = 0;
  std::size_t skipped = 0;  // complete already
  int signal = 0;           // SIGINT or SIGTERM when interrupted, else 0
};

// Runs the pending runs of `plan` (its slice) with `self` (this cosched binary). SIGINT and SIGTERM stop
// it: running children are terminated (their results are not written) and the outcome says so.
RunnerOutcome run_pending(const SweepPlan& plan, const std::string& out_dir, const std::string& self,
                          const RunnerOptions& options);

struct SweepStatus {
  std::size_t total = 0, completed = 0, failed = 0, pending = 0;
};
SweepStatus sweep_status(const SweepPlan& plan, const std::string& out_dir);

// Writes DIR/results.csv (one row per complete run: run_id, seed, the axis values, every scalar of its
// summary.json flattened with '.', job-level values as job.<instance>.<field>) and DIR/failures.csv, each
// atomically. Returns the number of rows of results.csv.
std::size_t collect(const SweepPlan& plan, const std::string& out_dir);

// The job-level column prefix of a job instance: its name, or name#copy when its profile has copies.
std::string job_instance(const std::string& name, int copy, bool several_copies);

}  // namespace cosched::sweep
