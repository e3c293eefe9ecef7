#include "config/policy.hpp"

#include <algorithm>
#include <optional>

namespace cosched::config {
namespace {

// Every key some policy takes, in the order the specs first list them.
std::vector<std::string_view> listed_keys(std::span<const PolicySpec* const> specs) {
  std::vector<std::string_view> all;
  for (const PolicySpec* spec : specs)
    for (const auto& key : spec->keys)
      if (std::find(all.begin(), all.end(), key.name) == all.end()) all.push_back(key.name);
  return all;
}

// The policies that take `key`, in registry order.
std::vector<std::string_view> owners_of(std::span<const PolicySpec* const> specs, std::string_view key) {
  std::vector<std::string_view> owners;
  for (const PolicySpec* spec : specs)
    if (std::any_of(spec->keys.begin(), spec->keys.end(), [&](const PolicyKey& k) { return k.name == key; }))
      owners.push_back(spec->name);
  return owners;
}

const PolicyKey* own_key(const PolicySpec& spec, std::string_view name) {
  for (const auto& key : spec.keys)
    if (key.name == name) return &key;
  return nullptr;
}

}  // namespace

std::size_t choose_policy(MapReader& map, const PolicyFamily& family,
                          std::span<const PolicySpec* const> specs) {
  std::vector<std::string_view> names;
  for (const PolicySpec* spec : specs) names.push_back(spec->name);
  const std::string expected = std::string(family.one_of) + util::join_list(names, family.last);
  auto chosen = std::find(names.begin(), names.end(), family.default_policy);
  const auto policy = family.default_policy.empty()
                          ? std::optional(map.required(std::string(family.policy_key)))
                          : map.optional(std::string(family.policy_key));
  if (policy) {
    chosen = std::find(names.begin(), names.end(), policy->scalar(expected));
    if (chosen == names.end()) policy->fail(expected);
  }
  return static_cast<std::size_t>(chosen - names.begin());
}

std::unique_ptr<PolicyParams> read_policy_keys(MapReader& map, const PolicyFamily& family,
                                               std::span<const PolicySpec* const> specs, std::size_t index,
                                               const std::function<void(PolicyParams&)>& init) {
  const PolicySpec& spec = *specs[index];
  auto params = spec.defaults();
  if (init) init(*params);

  // The family's keys, each asked for once in the order an unknown key's error lists them, then checked in
  // their check order (without a family table: both are the order the specs first list them).
  struct Slot {
    std::string_view name;
    int check;
    std::string_view refusal;
    std::optional<Field> given;
  };
  std::vector<Slot> slots;
  if (!family.refuse_others) {
    for (const auto& key : spec.keys) slots.push_back({key.name, static_cast<int>(slots.size()), {}, {}});
  } else if (family.keys.empty()) {
    for (const auto key : listed_keys(specs)) slots.push_back({key, static_cast<int>(slots.size()), {}, {}});
  } else {
    for (const auto& key : family.keys) slots.push_back({key.name, key.check, key.refusal, {}});
  }
  for (auto& slot : slots) slot.given = map.optional(std::string(slot.name));
  std::vector<const Slot*> in_check_order;
  for (const auto& slot : slots) in_check_order.push_back(&slot);
  std::stable_sort(in_check_order.begin(), in_check_order.end(),
                   [](const Slot* a, const Slot* b) { return a->check < b->check; });

  for (const Slot* slot : in_check_order) {
    const PolicyKey* own = own_key(spec, slot->name);
    if (own && own->required && !slot->given && !family.missing_names_policy)
      map.field().error(fmt::format("missing required key '{}'", slot->name));
    if (own && own->required && !slot->given)
      map.field().error(
          fmt::format("missing required key '{}' for {} {}{}", slot->name, family.noun, spec.name,
                      own->missing_hint.empty() ? std::string() : fmt::format(" ({})", own->missing_hint)));
    if (!slot->given) continue;
    if (own) {
      own->read(*slot->given, *params);
      continue;
    }
    const auto owners = owners_of(specs, slot->name);
    if (slot->refusal.empty())
      slot->given->error(fmt::format("applies to {} {} only", owners.size() == 1 ? family.noun : family.nouns,
                                     util::join_list(owners, " and ")));
    slot->given->error(fmt::format(fmt::runtime(slot->refusal),
                                   fmt::arg("owners", util::join_list(owners, " and ")),
                                   fmt::arg("policy", spec.name)));
  }
  if (family.check) family.check(map, *params);
  if (spec.check) spec.check(map, *params);
  return params;
}

}  // namespace cosched::config
