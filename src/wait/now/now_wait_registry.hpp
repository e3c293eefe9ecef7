#pragma once
// The NOW model's waiting algorithms a scenario may name in workload.jobs[i].wait.algorithm. Each is one
// entry: its name, a line of documentation, the keys of the `wait` mapping it takes with their checks, their
// resolved form for summary.json, and its factory. Adding an algorithm: one new file behind
// NowWaitAlgorithm and one entry in the table of now_wait_registry.cpp (docs/models/now.md section 5).

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/field.hpp"
#include "config/scenario.hpp"
#include "wait/now/now_wait.hpp"

namespace cosched::wait {

// One key of the `wait` mapping that an algorithm takes: its name, the reader that checks its value (a
// located error on a bad one, or a refusal with the algorithm's own reason) and stores it, and whether the
// algorithm requires it (`example` then completes the error naming the missing key).
struct NowWaitKey {
  std::string_view name;
  void (*read)(const config::Field& field, config::NowWait& wait);
  bool required = false;
  std::string_view example = {};
};

struct NowWaitEntry {
  std::string_view name;
  std::string_view doc;
  // The keys of `wait` this algorithm reads, besides `algorithm`. Keys are checked in the registry's key
  // order; a key that this entry does not list is refused with that key's refusal.
  std::span<const NowWaitKey> keys;
  // Refusals that come after every key was read (may be null): `wait` holds the values read.
  void (*check)(config::MapReader& map, const config::NowWait& wait);
  // Adds the algorithm's resolved keys to the resolved scenario's `wait` object (after `algorithm`).
  void (*to_json)(const config::NowWait& wait, nlohmann::ordered_json& out);
  // The algorithm for these keys, with the platform its defaults derive from (resume not yet set).
  std::unique_ptr<NowWaitAlgorithm> (*make)(const config::NowWait& wait, const WaitPlatform& platform);
  // The algorithm needs the root's replies to arrivals (informed waiting): barrier kind root only.
  bool root_replies = false;
};

// Every algorithm, in the order error messages list them.
std::span<const NowWaitEntry> now_waits();
// The entry of that name; nothing when there is none.
const NowWaitEntry* find_now_wait(std::string_view name);
// The entry of that name; throws std::invalid_argument when there is none.
const NowWaitEntry& now_wait(std::string_view name);
// "block, spin-fixed, pairwise, block-immediately, spin, large-initial-spin", for error messages.
std::string now_wait_names();
// Every key of `wait` besides `algorithm`, in the order they are checked.
std::vector<std::string_view> now_wait_keys();

// Reads a job's `wait` mapping: the algorithm and the keys of every algorithm (scenario/now_section.cpp).
config::NowWait read_now_wait(const config::Field& field);
// The resolved `wait` object of summary.json.
nlohmann::ordered_json now_wait_json(const config::NowWait& wait);

}  // namespace cosched::wait
