#include "cli/summary_text.hpp"

#include <fmt/format.h>

namespace cosched::cli {
namespace {

std::string percent(const nlohmann::ordered_json& value) {
  return value.is_null() ? "n/a" : fmt::format("{:.2f}%", value.get<double>());
}

std::string number(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "unfinished";
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  return fmt::format("{:.6g}", value.get<double>());
}

}  // namespace

std::string summary_text(const nlohmann::ordered_json& s, const std::string& out_dir) {
  const std::string unit = s.value("time_unit", "");
  std::string text =
      fmt::format("cosched: scenario '{}' (model {}, seed {})\n", s.at("scenario").get<std::string>(),
                  s.at("model").get<std::string>(), s.at("seed").get<unsigned long long>());
  text += fmt::format("  makespan     {} {}\n", number(s.at("makespan")), unit);
  if (s.contains("spins")) {
    text += fmt::format("  SSR          {} ({} of {} spins successful)\n", percent(s.at("ssr")),
                        s["spins"]["successful"].get<long long>(), s["spins"]["total"].get<long long>());
  }
  text += fmt::format("  {:<16} {:>5} {:>14} {:>9} {:>15}\n", "job", "copy", "completion", "SSR",
                      "spins ok/total");
  for (const auto& job : s.at("jobs")) {
    text += fmt::format("  {:<16} {:>5} {:>14} {:>9} {:>15}\n", job.at("name").get<std::string>(),
                        job.at("copy").get<int>(), number(job.at("completion_time")), percent(job.at("ssr")),
                        fmt::format("{}/{}", job["spins"]["successful"].get<long long>(),
                                    job["spins"]["total"].get<long long>()));
  }
  text += fmt::format("  events       {}   wall {:.3f} s\n", s.at("events").get<unsigned long long>(),
                      s.at("wall_seconds").get<double>());
  text += fmt::format("  results      {}\n", out_dir);
  return text;
}

}  // namespace cosched::cli
