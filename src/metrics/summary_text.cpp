#include "metrics/summary_text.hpp"

#include <fmt/format.h>

namespace cosched::metrics {
namespace {

using Json = nlohmann::ordered_json;

std::string percent(const Json& value) {
  return value.is_null() ? "n/a" : fmt::format("{:.2f}%", value.get<double>());
}

std::string number(const Json& value) {
  if (value.is_null()) return "unfinished";
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  return fmt::format("{:.6g}", value.get<double>());
}

std::string ratio(const Json& value) {
  return fmt::format("{:.1f}%", 100 * value.get<double>());
}

// The makespan, and the successful-spin rate when the run spun.
std::string makespan_lines(const Json& s) {
  std::string text =
      fmt::format("  makespan     {} {}\n", number(s.at("makespan")), s.value("time_unit", ""));
  if (s.contains("spins")) {
    text += fmt::format("  SSR          {} ({} of {} spins successful)\n", percent(s.at("ssr")),
                        s["spins"]["successful"].get<long long>(), s["spins"]["total"].get<long long>());
  }
  return text;
}

// A line per job instance: completion time, SSR, spins.
std::string job_lines(const Json& jobs) {
  std::string text = fmt::format("  {:<16} {:>5} {:>14} {:>9} {:>15}\n", "job", "copy", "completion", "SSR",
                                 "spins ok/total");
  for (const auto& job : jobs) {
    text += fmt::format("  {:<16} {:>5} {:>14} {:>9} {:>15}\n", job.at("name").get<std::string>(),
                        job.at("copy").get<int>(), number(job.at("completion_time")), percent(job.at("ssr")),
                        fmt::format("{}/{}", job["spins"]["successful"].get<long long>(),
                                    job["spins"]["total"].get<long long>()));
  }
  return text;
}

// A NOW job's time breakdown (B&M's figure 4): each of the five states as a share of their sum, which is the
// processes' mean time to completion.
std::string time_share_lines(const Json& jobs) {
  static constexpr const char* kStates[] = {"compute", "communicate", "synchronize", "idle", "switch"};
  std::string text = fmt::format("  {:<16} {:>5}", "time shares", "copy");
  for (const char* state : kStates) text += fmt::format(" {:>12}", state);
  text += "\n";
  for (const auto& job : jobs) {
    const auto& time = job.at("time");
    double total = 0;
    for (const char* state : kStates) total += time.at(state).get<double>();
    text += fmt::format("  {:<16} {:>5}", job.at("name").get<std::string>(), job.at("copy").get<int>());
    for (const char* state : kStates)
      text += fmt::format(
          " {:>12}", total > 0 ? fmt::format("{:.1f}%", 100 * time.at(state).get<double>() / total) : "n/a");
    text += "\n";
  }
  return text;
}

}  // namespace

std::string smp_summary_lines(const Json& s) {
  std::string text = makespan_lines(s) + job_lines(s.at("jobs"));
  // Jobs with a parallel loop or a task tree: what their threads did at user level.
  for (const auto& job : s.at("jobs")) {
    if (!job.contains("user_level") || job["user_level"]["iterations"].is_null()) continue;
    const auto& u = job["user_level"];
    text += fmt::format(
        "  {:<16} {:>5} user level: {} iterations in {} chunks, {} tasks, {} dispatches ({} cycles), "
        "{} steals, {} cycles waiting for work\n",
        job.at("name").get<std::string>(), job.at("copy").get<int>(), u["iterations"].get<long long>(),
        u["chunks"].get<long long>(), u["tasks"].get<long long>(), u["dispatches"].get<long long>(),
        u["dispatch_cycles"].get<long long>(), u["steals"].get<long long>(),
        u["waiting_for_work"].get<long long>());
  }
  return text;
}

std::string now_summary_lines(const Json& s) {
  std::string text = makespan_lines(s);
  // An open workload (issue 24): one line for the stream; its jobs, possibly thousands, are in jobs.csv.
  if (s.contains("stream")) {
    const auto& st = s.at("stream");
    return text +
           fmt::format(
               "  stream       {} jobs ({} skipped) under {}: utilization {}, mean response {} s, mean "
               "bounded slowdown {} (p90 {})\n",
               st.at("jobs").get<long long>(), st.at("skipped").get<long long>(),
               st.at("job_scheduler").get<std::string>(), ratio(st.at("utilization")),
               number(st.at("mean_response")), number(st.at("mean_bounded_slowdown")),
               number(st.at("p90_bounded_slowdown")));
  }
  if (s.contains("noise")) {
    const auto& n = s.at("noise");
    const auto share = [](const Json& v) { return fmt::format("{:.3g}%", 100 * v.get<double>()); };
    text += fmt::format("  noise        {} injected per workstation ({} configured), {} detours each",
                        share(n.at("net_injected_mean")), share(n.at("net_configured")),
                        number(n.at("detours_per_workstation")));
    text += n.at("slowdown").is_null()
                ? std::string("; no baseline under platform.network shared\n")
                : fmt::format("; slowdown {} against the run without noise, {} s lost per iteration\n",
                              number(n.at("slowdown")), number(n.at("lost_per_iteration_s")));
  }
  return text + job_lines(s.at("jobs")) + time_share_lines(s.at("jobs"));
}

std::string numa_summary_lines(const Json& s) {
  std::string text =
      fmt::format("  clocks       {} ({} slices, ended by {})\n", s.at("clocks").get<long long>(),
                  s.at("slices").get<int>(), s.at("ended_by").get<std::string>());
  const auto& r = s.at("rates");
  text += fmt::format("  rates        net {}  calibrated {}  maximum {}\n", ratio(r.at("net")),
                      ratio(r.at("calibrated")), ratio(r.at("maximum")));
  const auto& b = s.at("breakdown");
  text += fmt::format("  breakdown    effective {}  sync {}  comm {}  idle {}  (disk {}, not in the total)\n",
                      ratio(b.at("effective")), ratio(b.at("sync")), ratio(b.at("comm")), ratio(b.at("idle")),
                      ratio(b.at("disk")));
  long long replaced = 0;
  for (const auto& [key, value] : s.at("pages_replaced").items()) replaced += value.get<long long>();
  text += fmt::format("  pages        {} replaced ({} other's copies), {} copies and {} migrations moved\n",
                      replaced, s["pages_replaced"]["other_copy"].get<long long>(),
                      s["page_transfers"]["copies"].get<long long>(),
                      s["page_transfers"]["migrations"].get<long long>());
  text += fmt::format("  {:<16} {:>5} {:>7} {:>7} {:>12} {:>8}\n", "process", "copy", "threads", "slices",
                      "eff/thread", "net");
  for (const auto& job : s.at("jobs"))
    text +=
        fmt::format("  {:<16} {:>5} {:>7} {:>7} {:>12.0f} {:>8}\n", job.at("name").get<std::string>(),
                    job.at("copy").get<int>(), job.at("threads").get<int>(), job.at("slices_run").get<int>(),
                    job.at("effective_per_thread").get<double>(), ratio(job["rates"]["net"]));
  return text;
}

}  // namespace cosched::metrics
