#pragma once
// The SMP model's waiting algorithms a scenario may name in workload.jobs[i].wait.algorithm. Each algorithm
// declares its entry beside its code (its name, a line of documentation, the keys of the `wait` mapping it
// takes with their checks and defaults, its parameters, their resolved form for summary.json, and its
// factory); this registry lists them. Adding an algorithm: one new file behind SmpWaitAlgorithm
// (wait/smp/smp_wait.hpp) with its entry, and one line in smp_wait_registry.cpp.

#include <memory>
#include <nlohmann/json.hpp>

#include "config/field.hpp"
#include "config/policy.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {

// Every algorithm, in the order error messages list them.
const config::PolicyRegistry<SmpWaitEntry>& smp_waits();

// Reads a job's `wait` mapping: the algorithm, then its keys, their values and defaults derived from the
// scheduler's quantum and context switch CS = cs_in + cs_out (scenario/smp_section.cpp).
config::PolicyChoice read_smp_wait(const config::Field& field, Cycles quantum, Cycles context_switch);
// The resolved `wait` object of summary.json.
nlohmann::ordered_json smp_wait_json(const config::PolicyChoice& wait);
// The algorithm a job's threads share (one waiter per job instance).
std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const config::PolicyChoice& wait);

}  // namespace cosched::wait
