#pragma once
// The one entry point that the fuzz target (scenario_fuzzer.cpp) and the corpus replay test
// (corpus_replay_test.cpp) share: a byte string is a scenario file, and each of its lines that starts with
// "#set " is also passed as a --set override (the rest of the line, PATH=VALUE). YAML reads those lines as
// comments, so one input fuzzes the file and the override path together.

#include <string>
#include <string_view>
#include <vector>

namespace cosched::fuzz {

inline constexpr std::string_view kSetPrefix = "#set ";

// The overrides carried by an input: the rest of each line that starts with kSetPrefix, in order.
std::vector<std::string> overrides_of(std::string_view input);

enum class Outcome { Valid, InputError };

// Writes `input` to `file`, loads it with its overrides and validates it (config::load_scenario), then
// renders the resolved scenario as a run writes it into summary.json. Returns Valid, or InputError when the
// loader refused the input with config::InputError (whose message then goes to `*error`, if given). Any other
// exception propagates: the contract is that every input ends in one of the two outcomes.
Outcome check_scenario_input(std::string_view input, const std::string& file, std::string* error = nullptr);

}  // namespace cosched::fuzz
