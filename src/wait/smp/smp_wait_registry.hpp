#pragma once
// The SMP model's waiting algorithms a scenario may name in workload.jobs[i].wait.algorithm. Each is one
// entry: its name, a line of documentation, the keys of the `wait` mapping it takes with their checks and
// defaults, their resolved form for summary.json, and its factory. Adding an algorithm: one new file behind
// SmpWaitAlgorithm (wait/smp/smp_wait.hpp) and one entry in the table of smp_wait_registry.cpp.

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "wait/smp/smp_wait.hpp"

namespace cosched::wait {

// What the keys' values and defaults derive from: the scheduler keys read before the workload.
struct SmpWaitScheduler {
  Cycles quantum = 0;
  Cycles context_switch = 0;  // CS = cs_in + cs_out (thesis 7.5)
};

// One key of the `wait` mapping that an algorithm takes, read in the entry's key order (which is also the
// order an unknown key's error lists them in). `read` gets the key's field, or null when the scenario leaves
// it out: it then sets the default, or refuses the missing key at `wait_map`.
struct SmpWaitKey {
  std::string_view name;
  void (*read)(const config::Field* given, const config::Field& wait_map, const SmpWaitScheduler& scheduler,
               config::SmpWait& wait);
};

struct SmpWaitEntry {
  std::string_view name;
  std::string_view doc;
  std::span<const SmpWaitKey> keys;  // besides `algorithm`
  // Adds the algorithm's resolved keys to the resolved scenario's `wait` object (after `algorithm`).
  void (*to_json)(const config::SmpWait& wait, nlohmann::ordered_json& out);
  std::unique_ptr<SmpWaitAlgorithm> (*make)(const config::SmpWait& wait);
};

// Every algorithm, in the order error messages list them.
std::span<const SmpWaitEntry> smp_waits();
// The entry of that name; nothing when there is none.
const SmpWaitEntry* find_smp_wait(std::string_view name);
// "fixed-spin, block, ..., load-based or granularity-aware", for error messages.
std::string smp_wait_names();

// Reads a job's `wait` mapping: the algorithm, then its keys (config/smp_section.cpp).
config::SmpWait read_smp_wait(const config::Field& field, const SmpWaitScheduler& scheduler);
// The resolved `wait` object of summary.json.
nlohmann::ordered_json smp_wait_json(const config::SmpWait& wait);
// The algorithm a job's threads share (one waiter per job instance).
std::unique_ptr<SmpWaitAlgorithm> make_smp_wait(const config::SmpWait& wait);

}  // namespace cosched::wait
