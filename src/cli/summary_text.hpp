#pragma once
// The short human summary `cosched run` prints on stdout.

#include <nlohmann/json.hpp>
#include <string>

namespace cosched::cli {

std::string summary_text(const nlohmann::ordered_json& summary, const std::string& out_dir);

}  // namespace cosched::cli
