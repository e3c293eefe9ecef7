#include "util/log_setting.hpp"

#include <strings.h>

#include <array>
#include <boost/tokenizer.hpp>
#include <string_view>
#include <vector>

namespace cosched::util {
namespace {

constexpr std::string_view kExpected =
    "expected CATEGORY.thresh:LEVEL (LEVEL one of trace, debug, verbose, info, warning, error, critical), "
    "CATEGORY.OPTION:VALUE with OPTION a prefix of threshold, additivity, appender or fmt, or no_loc, "
    "e.g. cosched_now_wait.thresh:debug";

constexpr std::array<const char*, 7> kPriorities = {"trace",   "debug", "verbose", "info",
                                                    "warning", "error", "critical"};

// SimGrid compares the option with strncmp(option, name, option length): any prefix, the empty one included.
bool prefix_of(std::string_view option, std::string_view name) {
  return option.size() <= name.size() && name.substr(0, option.size()) == option;
}

std::optional<std::string> one_setting_error(std::string_view setting) {
  setting.remove_prefix(std::min(setting.find_first_not_of(' '), setting.size()));
  const auto option_at = setting.find_first_of(".:= ");
  const auto value_at = setting.find_first_of(":= ", option_at == std::string_view::npos ? 0 : option_at);
  if (option_at == std::string_view::npos || setting[option_at] != '.' ||
      value_at == std::string_view::npos || (setting[value_at] != ':' && setting[value_at] != '='))
    return std::string(kExpected);
  const auto option = setting.substr(option_at + 1, value_at - option_at - 1);
  const std::string value(setting.substr(value_at + 1));
  if (prefix_of(option, "threshold")) {
    for (const char* priority : kPriorities)
      if (strcasecmp(value.c_str(), priority) == 0) return std::nullopt;
    return "expected a priority after '" + std::string(option) +
           ":', one of trace, debug, verbose, info, warning, error, critical";
  }
  if (prefix_of(option, "additivity") || prefix_of(option, "fmt")) return std::nullopt;
  if (prefix_of(option, "appender")) {
    for (std::string_view file : {"file:", "rollfile:", "splitfile:"})
      if (value.starts_with(file)) return std::nullopt;
    if (value == "stderr" || value == "stdout") return std::nullopt;
    return "expected an appender after '" + std::string(option) +
           ":', one of file:FILE, rollfile:FILE, splitfile:FILE, stderr or stdout";
  }
  return std::string(kExpected);
}

}  // namespace

std::optional<std::string> log_setting_error(const std::string& setting) {
  if (setting == "no_loc") return std::nullopt;
  // SimGrid's split: boost::escaped_list_separator<char>("\\", " ", "\"'"), empty entries skipped.
  std::vector<std::string> settings;
  try {
    boost::tokenizer<boost::escaped_list_separator<char>> tokens(
        setting, boost::escaped_list_separator<char>("\\", " ", "\"'"));
    for (const auto& token : tokens)
      if (!token.empty()) settings.push_back(token);
  } catch (const boost::escaped_list_error& error) {
    return std::string("expected settings separated by spaces (") + error.what() + ")";
  }
  if (settings.empty()) return std::string(kExpected);
  for (const auto& one : settings)
    if (auto error = one_setting_error(one)) return error;
  return std::nullopt;
}

}  // namespace cosched::util
