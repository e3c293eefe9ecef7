#pragma once
// The typed, validated scenario: what a YAML file means once defaults and overrides are applied.
// Key names mirror docs/scenario-format.md; each model adds its own section to the variant.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cosched::config {

enum class EndCondition { AllJobs, FirstFinish };

// ---- SMP model (Tsafrir thesis, chapter 2) ----
using Cycles = std::int64_t;

enum class SmpPolicy { RoundRobin };

// The waiting algorithm a thread uses at a barrier. Fixed spin covers the three of the thesis:
// spin budget 0 (always block), a finite budget, or no limit (always spin).
struct SmpWait {
  enum class Algorithm { FixedSpin, Block, Spin };
  Algorithm algorithm = Algorithm::FixedSpin;
  Cycles spin_cycles = 0;     // budget for FixedSpin
  std::string spin_given;     // as written (e.g. "6%", "CS+"), for the record
};

// Standard deviation of the computation interval, in the thesis's direct or symbolic format (2.2.1).
struct Sigma {
  double cycles = 0;                   // the resolved standard deviation
  std::optional<double> density;       // symbolic format: percent of draws inside [mu - I, mu + I]
  std::optional<double> interval;      // symbolic format: I in cycles
  std::string given;                   // as written
};

struct SmpJobProfile {
  std::string name;
  int threads = 0;
  int barriers = 0;
  double compute_cycles = 0;  // mu
  std::string compute_given;
  Sigma sigma;
  int copies = 1;
  SmpWait wait;
};

struct SmpConfig {
  int cpus = 0;
  std::string platform_file;  // resolved path, empty when built from cpus
  SmpPolicy policy = SmpPolicy::RoundRobin;
  Cycles quantum = 0;
  Cycles cs_in = 0;
  Cycles cs_out = 0;
  bool shuffle = false;
  int nosync = 0;
  std::vector<SmpJobProfile> jobs;
};

struct Scenario {
  std::string file;  // the scenario file as named by the user
  std::string name;
  std::string model;
  std::uint64_t seed = 1;
  EndCondition end = EndCondition::AllJobs;
  std::variant<SmpConfig> model_config;
};

}  // namespace cosched::config
