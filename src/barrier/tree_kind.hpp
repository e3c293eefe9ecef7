#pragma once
// The barrier notification tree kinds (Brim & Miller 3.2), one registry entry each: name and documentation
// line. Without Boost, so that the scenario configuration can name a kind; the trees are in tree.hpp.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::barrier {

enum class TreeKind { Flat, Binary, Binomial, Skewed, OrderAwareSkewed };

struct TreeKindEntry {
  TreeKind kind;
  std::string_view name;
  std::string_view description;
};
const std::vector<TreeKindEntry>& tree_kinds();
std::optional<TreeKind> tree_kind_named(std::string_view name);
std::string_view tree_kind_name(TreeKind kind);
// "flat, binary, ..." for error messages.
std::string tree_kind_names();

}  // namespace cosched::barrier
