#pragma once
// The policy a scenario chose in one family, as the resolved scenario holds it (config/policy.hpp has the
// registries that read it). Apart so that config/scenario.hpp needs no field reader.

#include <memory>
#include <stdexcept>
#include <string>

namespace cosched::config {

// A policy's own parameters: each policy derives its struct from this (or from its family's base), beside
// its code.
struct PolicyParams {
  virtual ~PolicyParams() = default;
};

// The registry entry's name and the parameters its keys gave.
struct PolicyChoice {
  std::string name;
  std::shared_ptr<const PolicyParams> params;

  // The parameters as the policy's own struct (or its family's base); the entry named `name` declares which.
  template <typename Params>
  const Params& as() const {
    if (!params) throw std::logic_error("policy '" + name + "': parameters not read");
    return dynamic_cast<const Params&>(*params);
  }
};

}  // namespace cosched::config
