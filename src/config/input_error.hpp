#pragma once
// Errors in what the user gave us (scenario files, --set overrides, arguments).
// They end the program with exit code 2 and one line naming where the problem is.

#include <stdexcept>
#include <string>

namespace cosched::config {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace cosched::config
