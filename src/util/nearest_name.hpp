#pragma once
// "Did you mean ...?": the valid name nearest to a misspelt one, for the errors on unknown keys.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::util {

// The edit distance of a and b counting insertions, deletions, substitutions and the swap of two adjacent
// characters as one edit each (the optimal string alignment distance).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name of `names` nearest to `given`, when it is close enough to be a misspelling: at most one edit in a
// name of up to 4 characters, two up to 8, three beyond. The first of equally near names wins; none when
// `given` is itself a name.
std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& names);

}  // namespace cosched::util
