#pragma once
// A one-line progress display on stderr, only when stderr is a terminal and --quiet is not given.

#include <chrono>

#include "metrics/progress.hpp"

namespace cosched::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  metrics::ProgressSink sink();
  void clear();

 private:
  void show(const metrics::Progress& progress);

  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace cosched::cli
