#pragma once
// The one shape of every policy family (NOW local schedulers, NOW job schedulers, ...): a policy declares, in
// its own source file, a PolicySpec (its name, a documentation line, its keys with their documentation and
// checks, the parameter struct its keys fill, its cross-key check and its resolved form) beside its family's
// factory; a family's registry lists the entries (PolicyRegistry), and the section readers ask the registry,
// holding no policy's keys. docs/architecture.md, "Adding a policy".

#include <fmt/format.h>

#include <algorithm>
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

namespace cosched::config {

// One key of the family's mapping that a policy takes: its name, its documentation (what it sets, its type,
// default, bounds or choices and unit), and the reader that checks a given value and stores it in the
// parameters (a located error on a bad one, or a refusal with the policy's own reason).
struct PolicyKey {
  std::string_view name;
  std::string_view doc;
  void (*read)(const Field& field, PolicyParams& params);
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

// An integer from `min` to `max`, refused as "expected <expected>".
template <auto member, std::int64_t min, std::int64_t max>
constexpr PolicyKey integer_key(std::string_view name, std::string_view doc) {
  return {name, doc, [](const Field& f, PolicyParams& p) {
            const auto value = f.integer();
            if (value < min || value > max) f.fail(fmt::format("an integer from {} to {}", min, max));
            detail::member_in<member>(p) =
                static_cast<std::remove_reference_t<decltype(detail::member_in<member>(p))>>(value);
          }};
}

// A family's registry: its entries in the order error messages list them. `Entry` has a `PolicySpec spec`
// and the family's own factory and traits.
template <typename Entry>
class PolicyRegistry {
 public:
  // `what`: the family as an error names it ("local scheduling policy"); `key`: the mapping's key that names
  // the policy ("scheduler.policy"); `last`: what its list of names puts before the last one (", " or " and
  // ").
  constexpr PolicyRegistry(std::span<const Entry* const> entries, std::string_view what, std::string_view key,
                           std::string_view last = ", ")
      : entries_(entries), what_(what), key_(key), last_(last) {}

  std::span<const Entry* const> entries() const { return entries_; }

  // The entry of that name, or null.
  const Entry* find(std::string_view name) const {
    for (const Entry* entry : entries_)
      if (entry->spec.name == name) return entry;
    return nullptr;
  }

  // The entry of that name; throws std::invalid_argument when there is none.
  const Entry& at(std::string_view name) const {
    if (const Entry* entry = find(name)) return *entry;
    throw std::invalid_argument(fmt::format("{}: unknown {} '{}'", key_, what_, name));
  }

  // "a, b, c" or "a, b and c", as error messages list them.
  std::string names() const {
    std::vector<std::string_view> all;
    for (const Entry* entry : entries_) all.push_back(entry->spec.name);
    return join(all, last_);
  }

  // The names of the entries that take `key`, in registry order.
  std::vector<std::string_view> taking(std::string_view key) const {
    std::vector<std::string_view> owners;
    for (const Entry* entry : entries_)
      for (const auto& own : entry->spec.keys)
        if (own.name == key) {
          owners.push_back(entry->spec.name);
          break;
        }
    return owners;
  }

  // Every key some entry takes, in the order the registry first lists them.
  std::vector<std::string_view> keys() const {
    std::vector<std::string_view> all;
    for (const Entry* entry : entries_)
      for (const auto& own : entry->spec.keys)
        if (std::find(all.begin(), all.end(), own.name) == all.end()) all.push_back(own.name);
    return all;
  }

  // What read() found: the chosen entry and its parameters, still open to the section reader (a calibration
  // may set a default), until choice() freezes them into the resolved scenario.
  struct Read {
    const Entry* entry;
    std::unique_ptr<PolicyParams> params;
    PolicyChoice choice() && { return PolicyChoice{std::string(entry->spec.name), std::move(params)}; }
  };

  // Reads the mapping's `policy` (required) and every key of every entry, in keys() order: the chosen entry's
  // into its parameters, the others' refused ("applies to policy ts only"); then the entry's check.
  Read read(MapReader& map) const {
    auto policy = map.required("policy");
    const std::string expected = "one of " + names();
    const Entry* entry = find(policy.scalar(expected));
    if (!entry) policy.fail(expected);
    std::unique_ptr<PolicyParams> params = entry->spec.defaults();
    for (const auto key : keys()) {
      auto field = map.optional(std::string(key));
      if (!field) continue;
      const PolicyKey* own = nullptr;
      for (const auto& candidate : entry->spec.keys)
        if (candidate.name == key) own = &candidate;
      if (!own) {
        const auto owners = taking(key);
        field->error(fmt::format("applies to {} {} only", owners.size() == 1 ? "policy" : "policies",
                                 join(owners, " and ")));
      }
      own->read(*field, *params);
    }
    if (entry->spec.check) entry->spec.check(map, *params);
    return Read{entry, std::move(params)};
  }

  // The policy of that name with its defaults, as a scenario that gives none of its keys has it.
  PolicyChoice defaults(std::string_view name) const {
    return PolicyChoice{std::string(name), at(name).spec.defaults()};
  }

  // `out["policy"]` and the chosen policy's resolved keys.
  void to_json(const PolicyChoice& choice, nlohmann::ordered_json& out) const {
    out["policy"] = choice.name;
    at(choice.name).spec.to_json(*choice.params, out);
  }

 private:
  static std::string join(const std::vector<std::string_view>& items, std::string_view last) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out += i + 1 == items.size() ? last : ", ";
      out += items[i];
    }
    return out;
  }

  std::span<const Entry* const> entries_;
  std::string_view what_;
  std::string_view key_;
  std::string_view last_;
};

}  // namespace cosched::config
