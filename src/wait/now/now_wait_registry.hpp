#pragma once
// The NOW model's waiting algorithms a scenario may name in workload.jobs[i].wait.algorithm. Each algorithm
// declares its entry beside its code (its name, a line of documentation, the keys of the `wait` mapping it
// takes with their checks, its parameters, their resolved form for summary.json, and its factory); this
// registry lists them, with the family's keys in the order they are checked and refused. Adding an
// algorithm: one new file behind NowWaitAlgorithm with its entry, and one line in now_wait_registry.cpp
// (docs/models/now.md section 5).

#include <nlohmann/json.hpp>

#include "config/field.hpp"
#include "config/policy.hpp"
#include "wait/now/now_wait.hpp"

namespace cosched::wait {

// Every algorithm, in the order error messages list them.
const config::PolicyRegistry<NowWaitEntry>& now_waits();

// Reads a job's `wait` mapping: the algorithm and the keys of every algorithm (scenario/now_section.cpp).
config::PolicyChoice read_now_wait(const config::Field& field);
// The resolved `wait` object of summary.json.
nlohmann::ordered_json now_wait_json(const config::PolicyChoice& wait);

}  // namespace cosched::wait
