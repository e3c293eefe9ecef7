#include "cli/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace cosched::cli {

ProgressLine::ProgressLine(bool enabled)
    : enabled_(enabled && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() {
  clear();
}

metrics::ProgressSink ProgressLine::sink() {
  if (!enabled_) return {};
  return [this](const metrics::Progress& progress) { show(progress); };
}

void ProgressLine::show(const metrics::Progress& progress) {
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string extra;
  // The time left if the barriers still to pass go as fast as those passed.
  if (progress.fraction_done > 0.001 && progress.fraction_done < 1)
    extra +=
        fmt::format(", about {:.0f} s left", elapsed * (1 - progress.fraction_done) / progress.fraction_done);
  fmt::print(stderr, "\r\033[Kcosched: simulated {}, {:.1f}% of barriers done{}, {:.1f} s elapsed",
             progress.simulated_time, 100.0 * progress.fraction_done, extra, elapsed);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::clear() {
  if (shown_) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

}  // namespace cosched::cli
