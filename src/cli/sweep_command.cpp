#include "cli/sweep_command.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "config/input_error.hpp"
#include "metrics/result_files.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_runs.hpp"

namespace cosched::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kExitSomeRunsFailed = 1;

std::string self_path() {
  std::error_code ec;
  auto path = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the cosched binary (/proc/self/exe)");
  return path.string();
}

// The runs' scenario warnings, each once, on stderr (each run's log has its own too).
void print_warnings(const sweep::SweepPlan& plan) {
  for (const auto& warning : plan.warnings) fmt::print(stderr, "cosched sweep: warning: {}\n", warning);
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int finish(const sweep::SweepPlan& plan, const std::string& dir, const sweep::RunnerOutcome& outcome,
           bool quiet) {
  sweep::collect(plan, dir);
  const auto status = sweep::sweep_status(plan, dir);
  if (outcome.signal) {
    fmt::print(stderr,
               "cosched: sweep {} by {}: {} of {} runs complete, {} ran now; rerun the same command "
               "to go on\n",
               outcome.signal == SIGINT ? "interrupted" : "terminated",
               outcome.signal == SIGINT ? "SIGINT" : "SIGTERM", status.completed, status.total,
               outcome.completed);
    return 128 + outcome.signal;
  }
  if (!quiet)
    fmt::print(
        "cosched sweep: {} runs: {} complete ({} now, {} before), {} failed, {} pending\n  results  {}\n",
        status.total, status.completed, outcome.completed, outcome.skipped, status.failed, status.pending,
        (fs::path(dir) / "results.csv").string());
  if (status.failed > 0) {
    fmt::print(stderr, "cosched: {} runs failed (see {}); rerun the same command to retry them\n",
               status.failed, (fs::path(dir) / "failures.csv").string());
    return kExitSomeRunsFailed;
  }
  return 0;
}

// Writes DIR/sweep.sbatch, a job array whose tasks each run one slice of the pending runs with the same
// code as the local executor, and submits it with sbatch.
int submit_to_slurm(const sweep::SweepPlan& plan, const std::string& dir, const SweepOptions& options) {
  const auto status = sweep::sweep_status(plan, dir);
  const std::size_t pending = status.pending + status.failed;
  if (pending == 0) return finish(plan, dir, {}, options.quiet);
  const std::size_t tasks =
      std::min<std::size_t>(options.array_size > 0 ? options.array_size : 1000, pending);
  const std::string abs_dir = fs::absolute(dir).lexically_normal().string();
  fs::create_directories(fs::path(abs_dir) / "slurm");
  std::string script =
      "#!/bin/bash\n# Written by cosched sweep: each array task runs one slice of the pending runs.\n";
  script += "#SBATCH --job-name=cosched-sweep\n";
  script += fmt::format("#SBATCH --array=0-{}\n", tasks - 1);
  script += fmt::format("#SBATCH --output={}/slurm/%A_%a.out\n", abs_dir);
  if (!options.partition.empty()) script += fmt::format("#SBATCH --partition={}\n", options.partition);
  if (!options.time_limit.empty()) script += fmt::format("#SBATCH --time={}\n", options.time_limit);
  std::string timeout;
  if (options.run_timeout_s) timeout = fmt::format(" --run-timeout {}", *options.run_timeout_s);
  script += fmt::format("exec {} sweep worker {} --slice \"$SLURM_ARRAY_TASK_ID\" --slices {}{}\n",
                        shell_quote(self_path()), shell_quote(abs_dir), tasks, timeout);
  const fs::path script_path = fs::path(abs_dir) / "sweep.sbatch";
  metrics::write_file(script_path, script);
  const std::string command = "sbatch --parsable " + shell_quote(script_path.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot start sbatch");
  std::string said;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) said += buffer.data();
  const int code = ::pclose(pipe);
  if (code != 0) {
    while (!said.empty() && said.back() == '\n') said.pop_back();
    throw config::InputError(
        fmt::format("--executor slurm: sbatch failed ({}); expected Slurm's sbatch on PATH "
                    "and a cluster that accepts the job",
                    said.empty() ? "no output" : said));
  }
  const std::string job = said.substr(0, said.find_first_of(";\n"));
  metrics::write_file(fs::path(abs_dir) / "slurm" / "job_id", job + "\n");
  if (!options.quiet)
    fmt::print(
        "cosched sweep: submitted Slurm job {} ({} array tasks for {} pending runs)\n  follow with  cosched "
        "sweep status {}\n  then         cosched sweep collect {}\n",
        job, tasks, pending, dir, dir);
  return 0;
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& o) {
  auto* sweep = app.add_subcommand("sweep", "Run a parameter sweep (a sweep file) locally or on Slurm");
  sweep->add_option("sweep", o.sweep_file, "Sweep file (YAML, docs/sweeps.md)");
  sweep->add_option("--out", o.out_dir, "Folder of the sweep: results.csv, failures.csv, runs/<id>/");
  sweep->add_option("--executor", o.executor, "Where runs go: local (default) or slurm")
      ->check(CLI::IsMember({"local", "slurm"}));
  sweep->add_option("--jobs", o.jobs, "Local runs at once (default: the number of cores)")
      ->check(CLI::Range(1, 4096));
  sweep->add_flag("--dry-run", o.dry_run, "Expand and check every run, print them, run nothing");
  sweep->add_flag("--quick", o.quick, "Run the sweep's reduced variant (its 'quick' section)");
  sweep
      ->add_option("--run-timeout", o.run_timeout_s,
                   "Seconds after which a run is killed and recorded as failed")
      ->check(CLI::PositiveNumber);
  sweep->add_option("--partition", o.partition, "Slurm partition")->group("Slurm");
  sweep
      ->add_option("--array-size", o.array_size,
                   "Slurm array tasks (default: one per pending run, at most 1000)")
      ->check(CLI::Range(1, 1000000))
      ->group("Slurm");
  sweep->add_option("--time", o.time_limit, "Slurm time limit of each array task, e.g. 01:00:00")
      ->group("Slurm");
  sweep->add_flag("--quiet", o.quiet, "Print nothing on success and show no progress");

  auto* status =
      sweep->add_subcommand("status", "Report the runs of a sweep folder: complete, failed, pending");
  status->add_option("folder", o.folder, "The sweep's --out folder")->required();
  auto* collect = sweep->add_subcommand("collect", "Write results.csv and failures.csv of a sweep folder");
  collect->add_option("folder", o.folder, "The sweep's --out folder")->required();
  auto* worker =
      sweep->add_subcommand("worker", "Run one slice of a sweep folder's pending runs (Slurm tasks)");
  worker->add_option("folder", o.folder, "The sweep's --out folder")->required();
  worker->add_option("--slice", o.slice, "This task's slice, from 0")->required();
  worker->add_option("--slices", o.slices, "Number of slices")->required()->check(CLI::PositiveNumber);
  worker->add_option("--run-timeout", o.run_timeout_s, "Seconds after which a run is killed")
      ->check(CLI::PositiveNumber);
  worker->group("");  // not listed: Slurm's array tasks call it
  sweep->require_subcommand(0, 1);
  return sweep;
}

int run_sweep_command(CLI::App& sweep, const SweepOptions& o) {
  if (auto* status = sweep.get_subcommand("status"); status->parsed()) {
    const auto plan = sweep::read_plan(o.folder);
    const auto s = sweep::sweep_status(plan, o.folder);
    fmt::print("{}: {} runs: {} complete, {} failed, {} pending\n", o.folder, s.total, s.completed, s.failed,
               s.pending);
    return 0;
  }
  if (auto* collect = sweep.get_subcommand("collect"); collect->parsed()) {
    const auto plan = sweep::read_plan(o.folder);
    const auto rows = sweep::collect(plan, o.folder);
    fmt::print("{}: {} of {} runs in results.csv\n", o.folder, rows, plan.runs.size());
    return 0;
  }
  if (auto* worker = sweep.get_subcommand("worker"); worker->parsed()) {
    if (o.slice >= o.slices)
      throw config::InputError(
          fmt::format("--slice {}: expected a slice below --slices {}", o.slice, o.slices));
    const auto plan = sweep::read_plan(o.folder);
    sweep::RunnerOptions runner{1, o.run_timeout_s, false, o.slice, o.slices};
    const auto outcome = sweep::run_pending(plan, o.folder, self_path(), runner);
    return outcome.signal ? 128 + outcome.signal : outcome.failed > 0 ? kExitSomeRunsFailed : 0;
  }
  if (o.sweep_file.empty())
    throw config::InputError("sweep: expected a sweep file (cosched sweep SWEEP.yaml --out DIR)");
  if (o.out_dir.empty())
    throw config::InputError(fmt::format("sweep {}: expected --out DIR, the sweep's folder", o.sweep_file));
  if (o.dry_run) {
    const fs::path scratch = fs::temp_directory_path() / fmt::format("cosched-dry-run-{}", ::getpid());
    sweep::SweepPlan plan;
    try {
      plan = sweep::expand_sweep(o.sweep_file, scratch.string(), o.quick);
    } catch (...) {
      fs::remove_all(scratch);
      throw;
    }
    fs::remove_all(scratch);
    print_warnings(plan);
    const auto status = sweep::sweep_status(plan, o.out_dir);
    for (std::size_t i = 0; i < plan.runs.size(); ++i) {
      const auto& run = plan.runs[i];
      std::string sets;
      for (const auto& set : run.sets) sets += " --set " + shell_quote(set);
      fmt::print("{} seed {}{}\n", run.id, run.seed, sets);
    }
    fmt::print("cosched sweep: {} runs ({} complete, {} to run)\n", plan.runs.size(), status.completed,
               status.total - status.completed);
    return 0;
  }
  const auto plan = sweep::expand_sweep(o.sweep_file, o.out_dir, o.quick);
  print_warnings(plan);
  sweep::write_plan(plan, o.out_dir);
  if (o.executor == "slurm") return submit_to_slurm(plan, o.out_dir, o);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  sweep::RunnerOptions runner{o.jobs > 0 ? o.jobs : cores, o.run_timeout_s,
                              !o.quiet && ::isatty(STDERR_FILENO), 0, 1};
  return finish(plan, o.out_dir, sweep::run_pending(plan, o.out_dir, self_path(), runner), o.quiet);
}

}  // namespace cosched::cli
