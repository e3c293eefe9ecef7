#include "calibrate/noise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <thread>

#include "calibrate/measurements.hpp"

namespace cosched::calibrate {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The loop's shortest iteration: the least of 100,000 gaps between two clock readings.
std::int64_t shortest_iteration() {
  std::int64_t best = INT64_MAX;
  std::int64_t previous = now_ns();
  for (int i = 0; i < 100'000; ++i) {
    const std::int64_t now = now_ns();
    best = std::min(best, now - previous);
    previous = now;
  }
  return std::max<std::int64_t>(best, 0);
}

// One CPU's loop from `start` to `end` (steady-clock ns): every gap above the threshold is a detour of the
// gap less the loop's own iteration, starting where the loop lost the CPU.
void selfish_detour(CpuNoise& out, const NoisePlan& plan, std::int64_t start, std::int64_t end) {
  out.detours.reserve(plan.capacity);
  out.loop_ns = shortest_iteration();
  while (now_ns() < start) {
  }
  std::int64_t previous = now_ns();
  std::int64_t iterations = 0;
  while (previous < end) {
    const std::int64_t now = now_ns();
    ++iterations;
    if (now - previous > std::max(plan.threshold_ns, out.loop_ns)) {
      if (out.detours.size() == plan.capacity) {
        out.truncated = true;
        out.stopped = previous - start;
        break;
      }
      out.detours.push_back({previous - start, now - previous - out.loop_ns});
    }
    previous = now;
  }
  out.iterations = iterations;
}

}  // namespace

double NoiseMeasurement::net_fraction() const {
  if (cpus.empty() || span_ns <= 0) return 0;
  double taken = 0;
  for (const auto& cpu : cpus)
    for (const auto& d : cpu.detours) taken += static_cast<double>(d.duration);
  return taken / (static_cast<double>(span_ns) * static_cast<double>(cpus.size()));
}

std::int64_t NoiseMeasurement::detour_count() const {
  std::int64_t count = 0;
  for (const auto& cpu : cpus) count += static_cast<std::int64_t>(cpu.detours.size());
  return count;
}

double NoiseMeasurement::detours_per_second() const {
  if (cpus.empty() || span_ns <= 0) return 0;
  return static_cast<double>(detour_count()) / static_cast<double>(cpus.size()) * 1e9 /
         static_cast<double>(span_ns);
}

std::int64_t NoiseMeasurement::duration_quantile(double q) const {
  std::vector<std::int64_t> all;
  for (const auto& cpu : cpus)
    for (const auto& d : cpu.detours) all.push_back(d.duration);
  if (all.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(all.size())));
  const std::size_t at = std::clamp<std::size_t>(rank, 1, all.size()) - 1;
  std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(at), all.end());
  return all[at];
}

NoiseMeasurement measure_noise(const NoisePlan& plan,
                               const std::function<void(const std::string&)>& progress) {
  NoiseMeasurement m;
  m.plan = plan;
  const std::vector<int> cpus = allowed_cpu_list();
  m.cpus.resize(cpus.size());
  if (progress) progress(fmt::format("noise on {} CPUs for {} s", cpus.size(), plan.seconds));
  // Every loop starts at once, half a second from now (time for the threads to be pinned and to time
  // their loops), and runs `seconds`.
  const std::int64_t start = now_ns() + 500'000'000;
  const std::int64_t end = start + static_cast<std::int64_t>(plan.seconds * 1e9);
  std::vector<std::exception_ptr> errors(cpus.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    m.cpus[i].cpu = cpus[i];
    threads.emplace_back([&, i] {
      try {
        pin(pthread_self(), cpus[i]);
        selfish_detour(m.cpus[i], plan, start, end);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  // The span every CPU measured whole: a CPU whose detours filled their memory stopped early, and the trace
  // ends there rather than replay the rest of its span as quiet.
  m.span_ns = end - start;
  for (const auto& cpu : m.cpus)
    if (cpu.truncated) m.span_ns = std::min(m.span_ns, cpu.stopped);
  for (auto& cpu : m.cpus) {
    while (!cpu.detours.empty() && cpu.detours.back().start >= m.span_ns) cpu.detours.pop_back();
    // A detour the span's end cuts (a loop reads past `end` once) keeps its part within the span.
    if (!cpu.detours.empty()) {
      auto& last = cpu.detours.back();
      last.duration = std::min(last.duration, m.span_ns - last.start);
      if (last.duration <= 0) cpu.detours.pop_back();
    }
  }
  return m;
}

std::string noise_trace_csv(const NoiseMeasurement& m, const std::string& host) {
  std::string out = fmt::format(
      "# cosched noise trace: cosched calibrate --noise on {}\n"
      "# method: selfish detour, a clock-reading loop per CPU, gaps above {} ns (less the loop's own "
      "iteration)\n"
      "# net noise {:.4f}%, {:.1f} detours per CPU-second, durations p50 {} ns, p99 {} ns, max {} ns\n"
      "# span_ns: {}\n# cpus: {}\n",
      host, m.plan.threshold_ns, 100 * m.net_fraction(), m.detours_per_second(), m.duration_quantile(0.5),
      m.duration_quantile(0.99), m.duration_quantile(1.0), m.span_ns, m.cpus.size());
  for (std::size_t i = 0; i < m.cpus.size(); ++i)
    out += fmt::format("# cpu {}: the operating system's CPU {}, loop {} ns{}\n", i, m.cpus[i].cpu,
                       m.cpus[i].loop_ns, m.cpus[i].truncated ? ", truncated (more detours than kept)" : "");
  out += "cpu,start_ns,duration_ns\n";
  for (std::size_t i = 0; i < m.cpus.size(); ++i)
    for (const auto& d : m.cpus[i].detours) out += fmt::format("{},{},{}\n", i, d.start, d.duration);
  return out;
}

std::string noise_text(const NoiseMeasurement& m) {
  std::string out = fmt::format("Noise (selfish detour, gaps above {} ns, {} s per CPU)\n",
                                m.plan.threshold_ns, static_cast<double>(m.span_ns) * 1e-9);
  out += fmt::format("  {:<6} {:>8} {:>10} {:>12} {:>10}\n", "cpu", "loop ns", "detours", "detours/s",
                     "net noise");
  for (const auto& cpu : m.cpus) {
    double taken = 0;
    for (const auto& d : cpu.detours) taken += static_cast<double>(d.duration);
    out +=
        fmt::format("  {:<6} {:>8} {:>10} {:>12.1f} {:>9.4f}%{}\n", cpu.cpu, cpu.loop_ns, cpu.detours.size(),
                    static_cast<double>(cpu.detours.size()) * 1e9 / static_cast<double>(m.span_ns),
                    100 * taken / static_cast<double>(m.span_ns), cpu.truncated ? " (truncated)" : "");
  }
  out += fmt::format(
      "  all: net noise {:.4f}%, {:.1f} detours per CPU-second; durations p50 {} ns, p90 {} ns, "
      "p99 {} ns, max {} ns\n",
      100 * m.net_fraction(), m.detours_per_second(), m.duration_quantile(0.5), m.duration_quantile(0.9),
      m.duration_quantile(0.99), m.duration_quantile(1.0));
  return out;
}

}  // namespace cosched::calibrate
