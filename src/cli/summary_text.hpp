#pragma once
// The short human summary `cosched run` prints on stdout.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cosched::cli {

// `files`: the names of the result files the run wrote into out_dir, listed after it.
std::string summary_text(const nlohmann::ordered_json& summary, const std::string& out_dir,
                         const std::vector<std::string>& files);

}  // namespace cosched::cli
