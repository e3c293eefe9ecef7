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

}  // namespace cosched::metrics
