#include "scenario_input.hpp"

#include <fstream>
#include <stdexcept>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"

namespace cosched::fuzz {

std::vector<std::string> overrides_of(std::string_view input) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < input.size()) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    std::string_view line = input.substr(start, end - start);
    if (line.starts_with(kSetPrefix)) out.emplace_back(line.substr(kSetPrefix.size()));
    start = end + 1;
  }
  return out;
}

Outcome check_scenario_input(std::string_view input, const std::string& file, std::string* error) {
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(input.data(), static_cast<std::streamsize>(input.size()));
    if (!out.flush()) throw std::runtime_error("cannot write the fuzz input to " + file);
  }
  try {
    auto scenario = config::load_scenario(file, overrides_of(input));
    // What a run records as "resolved" in summary.json, rendered as metrics/result_files.cpp does.
    const std::string text =
        config::resolved_json(scenario).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    if (text.empty()) throw std::logic_error("the resolved scenario rendered as nothing");
  } catch (const config::InputError& e) {
    if (error) *error = e.what();
    return Outcome::InputError;
  }
  return Outcome::Valid;
}

}  // namespace cosched::fuzz
