#pragma once
// Tables of named entries (the user-level kinds of an SMP job) and lists of names: an entry found by
// name, the names listed in table order.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::util {

// The entry called `name`, or nullptr.
template <typename Entry>
const Entry* find_named(std::span<const Entry> table, std::string_view name) {
  for (const auto& entry : table)
    if (entry.name == name) return &entry;
  return nullptr;
}

// "a, b, c" or, with a last separator, "a, b and c".
inline std::string join_list(const std::vector<std::string_view>& items, std::string_view last = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : ", ";
    out += items[i];
  }
  return out;
}

// The table's names in order, joined as join_list does.
template <typename Entry>
std::string names_of(std::span<const Entry> table, std::string_view last = ", ") {
  std::vector<std::string_view> names;
  for (const auto& entry : table) names.push_back(entry.name);
  return join_list(names, last);
}

}  // namespace cosched::util
