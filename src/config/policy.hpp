#pragma once
// The one shape of every policy family (NOW local schedulers, NOW job schedulers, ...): a policy declares, in
// its own source file, a PolicySpec (its name, a documentation line, its keys with their documentation and
// checks, the parameter struct its keys fill, its cross-key check and its resolved form) beside its family's
// factory; a family's registry lists the entries (PolicyRegistry), and the section readers ask the registry,
// holding no policy's keys. docs/architecture.md, "Adding a policy".

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "config/field.hpp"
#include "config/keys.hpp"
#include "config/policy_choice.hpp"
#include "util/registry.hpp"

namespace cosched::config {

// One key of the family's mapping that a policy takes: its name, its documentation (what it sets, its type,
// default, bounds or choices and unit), and the reader that checks a given value and stores it in the
// parameters (a located error on a bad one, or a refusal with the policy's own reason).
struct PolicyKey {
  std::string_view name;
  std::string_view doc;
  void (*read)(const Field& field, PolicyParams& params);
  // The policy needs it: a scenario that leaves it out is refused, `missing_hint` completing the error
  // ("missing required key 'spin' for algorithm fixed-spin (HINT)").
  bool required = false;
  std::string_view missing_hint = {};
};

// What every policy declares, whatever its family.
struct PolicySpec {
  std::string_view name;
  std::string_view doc;
  std::span<const PolicyKey> keys;  // besides the family's `policy` key, in the order they are checked
  // The parameters before the keys are read: the policy's defaults.
  std::unique_ptr<PolicyParams> (*defaults)();
  // Adds the resolved keys to the resolved scenario's object of the family (after its `policy`).
  void (*to_json)(const PolicyParams& params, nlohmann::ordered_json& out);
  // Refusals that need several keys, once every key was read (may be null).
  void (*check)(MapReader& map, const PolicyParams& params) = nullptr;
};

// A PolicySpec's `to_json` for a policy without keys: its resolved form is its name alone.
inline void no_keys_json(const PolicyParams&, nlohmann::ordered_json&) {}

// A PolicySpec's `defaults` for a policy whose defaults are its struct's member initializers.
template <typename Params>
std::unique_ptr<PolicyParams> default_params() {
  return std::make_unique<Params>();
}

// ---- typed keys: a member of the policy's parameter struct and the reader of its value ----

namespace detail {
template <typename Member>
struct MemberOf;
template <typename Class, typename Value>
struct MemberOf<Value Class::*> {
  using Params = Class;
};
template <auto member>
auto& member_in(PolicyParams& params) {
  using Params = typename MemberOf<decltype(member)>::Params;
  return static_cast<Params&>(params).*member;
}
}  // namespace detail

// The parameters a key reader was handed, as the policy's own struct.
template <typename Params>
Params& params_as(PolicyParams& params) {
  return static_cast<Params&>(params);
}

// A duration with a unit (positive, or zero too when `zero` is Zero::Allowed).
enum class Zero { Refused, Allowed };
template <auto member, Zero zero = Zero::Refused>
constexpr PolicyKey duration_key(std::string_view name, std::string_view doc) {
  return {name, doc, [](const Field& f, PolicyParams& p) {
            detail::member_in<member>(p) = duration(f, zero == Zero::Allowed);
          }};
}

// One of the names of `names` (a Names table with static storage).
template <auto member, const auto& names>
constexpr PolicyKey choice_key(std::string_view name, std::string_view doc) {
  return {name, doc,
          [](const Field& f, PolicyParams& p) { detail::member_in<member>(p) = choice(f, names); }};
}

// A key of a family's mapping as the family orders and refuses it, for the families whose keys are checked in
// an order of their own (NOW waiting algorithms); the others check their keys in the order the registry first
// lists them and refuse a key of other policies as "applies to policy X only".
struct FamilyKey {
  std::string_view name;
  int check;  // its place in the order keys are checked, 0 first
  // The refusal when the chosen policy does not take it: {owners}, the policies that do ("a, b and c");
  // {policy}, the one chosen.
  std::string_view refusal;
};

// What a family's registry says of itself.
struct PolicyFamily {
  std::string_view what;  // the family in an error: "local scheduling policy", "waiting algorithm"
  std::string_view path;  // the key naming the policy, in an error: "scheduler.policy", "wait.algorithm"
  std::string_view policy_key = "policy";  // that key in its mapping
  std::string_view noun = "policy";        // a policy of the family in a refusal: policy, algorithm
  std::string_view nouns = "policies";     // and several
  std::string_view last = ", ";            // what its list of names puts before the last one
  std::string_view one_of = "one of ";     // what comes before that list in "expected ..."
  // A key only other policies take is refused ("applies to policy X only", or its FamilyKey's refusal);
  // false: it is left to the map's unknown-key error.
  bool refuse_others = true;
  // The policy when the mapping names none (empty: the policy key is required).
  std::string_view default_policy = {};
  // A missing required key's error names the policy: "missing required key 'spin' for algorithm fixed-spin".
  bool missing_names_policy = true;
  std::span<const FamilyKey> keys = {};  // its keys in the order an unknown key's error lists them (optional)
  // Refusals that need several of the family's keys, before the entry's own check (may be null).
  void (*check)(MapReader& map, const PolicyParams& params) = nullptr;
};

// Reading a family's mapping, by the rules of PolicyFamily and PolicySpec. choose_policy: the policy key
// (required, unless the family has a default), as an index into `specs`. read_policy_keys: then every key of
// every policy, the chosen policy's into its parameters (made by its defaults, then prepared by `init`, which
// may be empty: a family's context, such as the scheduler keys its values derive from), the others' refused
// or left unknown; then the family's and the policy's checks.
std::size_t choose_policy(MapReader& map, const PolicyFamily& family,
                          std::span<const PolicySpec* const> specs);
std::unique_ptr<PolicyParams> read_policy_keys(MapReader& map, const PolicyFamily& family,
                                               std::span<const PolicySpec* const> specs, std::size_t index,
                                               const std::function<void(PolicyParams&)>& init = {});

// A family's registry: its entries in the order error messages list them. `Entry` has a `PolicySpec spec`
// and the family's own factory and traits.
template <typename Entry>
class PolicyRegistry {
 public:
  PolicyRegistry(std::span<const Entry* const> entries, PolicyFamily family)
      : entries_(entries), family_(family) {
    for (const Entry* entry : entries_) specs_.push_back(&entry->spec);
  }

  std::span<const Entry* const> entries() const { return entries_; }
  const PolicyFamily& family() const { return family_; }

  // The entry of that name, or null.
  const Entry* find(std::string_view name) const {
    for (const Entry* entry : entries_)
      if (entry->spec.name == name) return entry;
    return nullptr;
  }

  // The entry of that name; throws std::invalid_argument when there is none.
  const Entry& at(std::string_view name) const {
    if (const Entry* entry = find(name)) return *entry;
    throw std::invalid_argument(fmt::format("{}: unknown {} '{}'", family_.path, family_.what, name));
  }

  // "a, b, c" or "a, b and c", as error messages list them.
  std::string names() const {
    std::vector<std::string_view> all;
    for (const Entry* entry : entries_) all.push_back(entry->spec.name);
    return util::join_list(all, family_.last);
  }

  // What read() found: the chosen entry and its parameters, still open to the section reader (a calibration
  // may set a default), until choice() freezes them into the resolved scenario.
  struct Read {
    const Entry* entry;
    std::unique_ptr<PolicyParams> params;
    PolicyChoice choice() && { return PolicyChoice{std::string(entry->spec.name), std::move(params)}; }
  };

  // The entry `map` names (choose_policy), and its parameters from the keys (read_policy_keys), in two steps
  // for a family whose other keys come between them; read() does both. The caller finishes the map.
  const Entry& choose(MapReader& map) const { return *entries_[choose_policy(map, family_, specs_)]; }
  Read read_keys(MapReader& map, const Entry& entry,
                 const std::function<void(PolicyParams&)>& init = {}) const {
    const auto index =
        static_cast<std::size_t>(std::find(entries_.begin(), entries_.end(), &entry) - entries_.begin());
    return Read{&entry, read_policy_keys(map, family_, specs_, index, init)};
  }
  Read read(MapReader& map, const std::function<void(PolicyParams&)>& init = {}) const {
    return read_keys(map, choose(map), init);
  }

  // The policy of that name with its defaults, as a scenario that gives none of its keys has it.
  PolicyChoice defaults(std::string_view name) const {
    return PolicyChoice{std::string(name), at(name).spec.defaults()};
  }

  // The policy key (`policy`, `algorithm`) and the chosen policy's resolved keys.
  void to_json(const PolicyChoice& choice, nlohmann::ordered_json& out) const {
    out[std::string(family_.policy_key)] = choice.name;
    at(choice.name).spec.to_json(*choice.params, out);
  }

 private:
  std::span<const Entry* const> entries_;
  PolicyFamily family_;
  std::vector<const PolicySpec*> specs_;
};

}  // namespace cosched::config
