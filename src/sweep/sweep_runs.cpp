#include "sweep/sweep_runs.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "config/input_error.hpp"
#include "metrics/result_files.hpp"
#include "metrics/run_record.hpp"
#include "scenario/models.hpp"

namespace cosched::sweep {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop(int signal) {
  g_stop_signal = signal;
}

// While a sweep runs, SIGINT and SIGTERM only ask it to stop: it then ends its children itself.
class StopRequests {
 public:
  StopRequests() {
    g_stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &previous_int_);
    ::sigaction(SIGTERM, &action, &previous_term_);
  }
  ~StopRequests() {
    ::sigaction(SIGINT, &previous_int_, nullptr);
    ::sigaction(SIGTERM, &previous_term_, nullptr);
  }

 private:
  struct sigaction previous_int_ {
  }, previous_term_{};
};

fs::path run_dir(const std::string& out_dir, const std::string& id) {
  return fs::path(out_dir) / "runs" / id;
}
fs::path failure_file(const std::string& out_dir, const std::string& id) {
  return fs::path(out_dir) / "failed" / (id + ".txt");
}
bool complete(const std::string& out_dir, const std::string& id) {
  std::error_code ec;
  return fs::exists(run_dir(out_dir, id) / "summary.json", ec);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string tail_lines(const std::string& text, std::size_t lines) {
  std::size_t at = text.size();
  while (at > 0 && text[at - 1] == '\n') --at;
  for (std::size_t seen = 0; at > 0; --at)
    if (text[at - 1] == '\n' && ++seen == lines) break;
  return text.substr(at);
}

struct Child {
  std::size_t run;
  Clock::time_point started;
  bool killed_for_time = false;
};

pid_t spawn(const std::string& self, const std::string& base, const PlannedRun& run,
            const std::string& out_dir) {
  std::vector<std::string> args = {self,
                                   "run",
                                   base,
                                   "--out",
                                   run_dir(out_dir, run.id).string(),
                                   "--quiet",
                                   "--seed",
                                   std::to_string(run.seed)};
  for (const auto& set : run.sets) {
    args.push_back("--set");
    args.push_back(set);
  }
  const std::string log = (fs::path(out_dir) / "logs" / (run.id + ".stderr")).string();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  // The child: default signals, stdout discarded, stderr kept for the failure record.
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  const int null = ::open("/dev/null", O_WRONLY);
  const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (null >= 0) ::dup2(null, STDOUT_FILENO);
  if (err >= 0) ::dup2(err, STDERR_FILENO);
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(self.c_str(), argv.data());
  // The reason goes to the run's stderr log, which the failure record quotes.
  const char* reason = ::strerror(errno);
  const char prefix[] = "cosched sweep: could not start the run: execv: ";
  if (::write(STDERR_FILENO, prefix, sizeof prefix - 1) >= 0 &&
      ::write(STDERR_FILENO, reason, ::strlen(reason)) >= 0)
    (void)!::write(STDERR_FILENO, "\n", 1);
  ::_exit(127);
}

std::string describe_status(int status, bool killed_for_time, double timeout) {
  if (killed_for_time) return fmt::format("killed after the run timeout of {:g} s", timeout);
  if (WIFEXITED(status)) return fmt::format("exit {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return "unknown";
}

void show_progress(std::size_t done, std::size_t failed, std::size_t total, Clock::time_point start) {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::string eta = "?";
  if (done + failed > 0 && done + failed < total)
    eta = fmt::format("{:.0f} s", elapsed / static_cast<double>(done + failed) *
                                      static_cast<double>(total - done - failed));
  fmt::print(stderr, "\r\033[Kcosched sweep: {}/{} runs done, {} failed, {:.0f} s elapsed, about {} left",
             done, total, failed, elapsed, done + failed < total ? eta : std::string("0 s"));
  std::fflush(stderr);
}

}  // namespace

std::string job_instance(const std::string& name, int copy, bool several_copies) {
  return several_copies ? fmt::format("{}#{}", name, copy) : name;
}

RunnerOutcome run_pending(const SweepPlan& plan, const std::string& out_dir, const std::string& self,
                          const RunnerOptions& options) {
  RunnerOutcome outcome;
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    if (i % options.slices != options.slice) continue;
    if (complete(out_dir, plan.runs[i].id)) {
      ++outcome.skipped;
    } else {
      pending.push_back(i);
    }
  }
  fs::create_directories(fs::path(out_dir) / "runs");
  fs::create_directories(fs::path(out_dir) / "logs");
  fs::create_directories(fs::path(out_dir) / "failed");
  StopRequests stop;
  const auto start = Clock::now();
  std::map<pid_t, Child> running;
  std::size_t next = 0;
  const int jobs = std::max(1, options.jobs);
  while ((next < pending.size() || !running.empty())) {
    if (g_stop_signal) break;
    while (static_cast<int>(running.size()) < jobs && next < pending.size()) {
      const std::size_t index = pending[next++];
      running[spawn(self, plan.base_file, plan.runs[index], out_dir)] = Child{index, Clock::now()};
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0 && running.count(pid)) {
      const Child child = running[pid];
      running.erase(pid);
      const auto& run = plan.runs[child.run];
      if (g_stop_signal) break;  // a child ended by the same interruption is not a failure of its run
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && complete(out_dir, run.id)) {
        ++outcome.completed;
        std::error_code ec;
        fs::remove(failure_file(out_dir, run.id), ec);
      } else {
        ++outcome.failed;
        const std::string err = read_text(fs::path(out_dir) / "logs" / (run.id + ".stderr"));
        metrics::write_atomically(
            failure_file(out_dir, run.id),
            describe_status(status, child.killed_for_time, options.run_timeout_s.value_or(0)) + "\n" +
                tail_lines(err, 5));
      }
      if (options.progress) show_progress(outcome.completed, outcome.failed, pending.size(), start);
      continue;
    }
    if (options.run_timeout_s) {
      for (auto& [child_pid, child] : running) {
        const double ran = std::chrono::duration<double>(Clock::now() - child.started).count();
        if (ran > *options.run_timeout_s && !child.killed_for_time) {
          child.killed_for_time = true;
          ::kill(child_pid, SIGKILL);
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (g_stop_signal) {
    outcome.signal = g_stop_signal;
    for (const auto& [pid, child] : running) ::kill(pid, SIGTERM);
    for (const auto& [pid, child] : running) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  if (options.progress) fmt::print(stderr, "\r\033[K");
  return outcome;
}

SweepStatus sweep_status(const SweepPlan& plan, const std::string& out_dir) {
  SweepStatus status;
  status.total = plan.runs.size();
  for (const auto& run : plan.runs) {
    std::error_code ec;
    if (complete(out_dir, run.id)) {
      ++status.completed;
    } else if (fs::exists(failure_file(out_dir, run.id), ec)) {
      ++status.failed;
    } else {
      ++status.pending;
    }
  }
  return status;
}

std::size_t collect(const SweepPlan& plan, const std::string& out_dir) {
  std::vector<std::string> columns = {"run_id", "seed"};
  // Each axis's column; an axis over the scenario's `seed` sets the run's seed, whose column it shares.
  std::vector<std::size_t> axis_column;
  for (const auto& path : plan.axis_paths) {
    axis_column.push_back(path == "seed" ? 1 : columns.size());
    if (path != "seed") columns.push_back(path);
  }
  const std::size_t fixed = columns.size();
  std::map<std::string, std::size_t> index;  // column -> position
  std::vector<std::map<std::size_t, std::string>> rows;
  const auto models = config::model_names();
  for (const auto& run : plan.runs) {
    if (!complete(out_dir, run.id)) continue;
    metrics::SummaryCells summary;
    try {
      summary = metrics::read_summary(run_dir(out_dir, run.id) / "summary.json", models);
    } catch (const metrics::UnreadableSummary&) {
      continue;  // cannot happen for a summary written by cosched; such a run stays pending
    }
    std::map<std::size_t, std::string> row;
    row[0] = run.id;
    row[1] = std::to_string(run.seed);
    for (std::size_t a = 0; a < run.values.size(); ++a)
      if (axis_column[a] != 1) row[axis_column[a]] = metrics::csv_cell(run.values[a]);
    std::vector<std::pair<std::string, std::string>> cells;
    for (const auto& cell : summary.run)
      if (cell.first != "seed") cells.push_back(cell);  // the run's seed has its own column
    std::map<std::string, int> copies;
    for (const auto& job : summary.jobs) ++copies[job.name];
    for (const auto& job : summary.jobs) {
      const std::string prefix = "job." + job_instance(job.name, job.copy, copies[job.name] > 1) + ".";
      for (const auto& [field, text] : job.fields) cells.emplace_back(prefix + field, text);
    }
    for (const auto& [column, text] : cells) {
      auto [it, inserted] = index.emplace(column, fixed + index.size());
      if (inserted) columns.push_back(column);
      row[it->second] = text;
    }
    rows.push_back(std::move(row));
  }
  std::string csv;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c) csv += ",";
    csv += metrics::csv_cell(columns[c]);
  }
  csv += "\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) csv += ",";
      if (auto it = row.find(c); it != row.end()) csv += it->second;
    }
    csv += "\n";
  }
  metrics::write_atomically(fs::path(out_dir) / "results.csv", csv);

  std::string failures = "run_id,status,stderr_tail,sets\n";
  for (const auto& run : plan.runs) {
    std::error_code ec;
    if (complete(out_dir, run.id) || !fs::exists(failure_file(out_dir, run.id), ec)) continue;
    const std::string record = read_text(failure_file(out_dir, run.id));
    const auto newline = record.find('\n');
    std::string sets;
    for (const auto& set : run.sets) sets += (sets.empty() ? "" : " ") + set;
    failures += fmt::format("{},{},{},{}\n", run.id, metrics::csv_cell(record.substr(0, newline)),
                            metrics::csv_cell(newline == std::string::npos ? "" : record.substr(newline + 1)),
                            metrics::csv_cell(sets));
  }
  metrics::write_atomically(fs::path(out_dir) / "failures.csv", failures);
  return rows.size();
}

}  // namespace cosched::sweep
