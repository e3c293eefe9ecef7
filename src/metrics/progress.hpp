#pragma once
// Progress of a long run, reported by a model's actor and shown by the command line on a terminal.

#include <functional>
#include <string>

namespace cosched::metrics {

struct Progress {
  std::string simulated_time;  // e.g. "120400 cycles" or "3.2 s"
  double fraction_done = 0;    // barriers completed / barriers in the run
};

using ProgressSink = std::function<void(const Progress&)>;

// What a model's run tells its caller while it runs.
struct RunHooks {
  ProgressSink progress;          // now and then, from the simulation
  std::function<void()> started;  // once the scenario is fully checked, before the simulation starts
  // A result file beside summary.json (name, content), such as timeline.csv; ignored when empty.
  std::function<void(const std::string&, std::string)> extra_file;
};

}  // namespace cosched::metrics
