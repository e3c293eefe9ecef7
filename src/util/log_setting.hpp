#pragma once
// The --log settings cosched hands to SimGrid (xbt_log_control_set), checked before the run: SimGrid aborts,
// exits or throws on a setting it cannot parse, and cosched must refuse those with one line instead.

#include <optional>
#include <string>

namespace cosched::util {

// Nothing when SimGrid 3.32's parser (src/xbt/log.cpp, _xbt_log_parse_setting) takes `setting`; otherwise
// what was expected, one line. Taken as SimGrid takes them: `no_loc` alone, or settings separated by spaces
// (quotes and backslash escapes as its tokenizer reads them), each `CATEGORY.OPTION:VALUE` (or `=VALUE`) with
// OPTION any prefix of threshold (VALUE a priority, any case), additivity, appender (file:F, rollfile:F,
// splitfile:F, stderr or stdout) or fmt, tried in that order.
std::optional<std::string> log_setting_error(const std::string& setting);

}  // namespace cosched::util
