#include "cli/summary_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "scenario/models.hpp"

namespace cosched::cli {

// The header, the model's own lines (its registry entry's), then the run's cost, where its files went and
// their names.
std::string summary_text(const nlohmann::ordered_json& s, const std::string& out_dir,
                         const std::vector<std::string>& files) {
  const auto model = s.at("model").get<std::string>();
  return fmt::format("cosched: scenario '{}' (model {}, seed {})\n", s.at("scenario").get<std::string>(),
                     model, s.at("seed").get<unsigned long long>()) +
         config::find_model(model)->summary_lines(s) +
         fmt::format("  events       {}   wall {:.3f} s\n  results      {} ({})\n",
                     s.at("events").get<unsigned long long>(), s.at("wall_seconds").get<double>(), out_dir,
                     fmt::join(files, ", "));
}

}  // namespace cosched::cli
