#include "scenario/numa_section.hpp"

#include <stdexcept>

namespace cosched::config {

// Placeholder while the section reader is written (issue 22): refuses every numa scenario.
NumaConfig read_numa(MapReader&, const std::string&, EndCondition) {
  throw std::logic_error("the numa model's section reader is not written yet");
}

nlohmann::ordered_json numa_json(const NumaConfig&) { return nlohmann::ordered_json::object(); }

}  // namespace cosched::config
