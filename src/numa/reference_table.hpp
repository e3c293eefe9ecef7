#pragma once
// A memory space's reference-frequency table (thesis 4.2.3) in the form the machine samples from: the
// entries that touch memory (reads and writes; "other activity" only adds to the total), each with an
// integer weight, and for each page its entries. docs/models/numa.md section 1.

#include <cstdint>
#include <vector>

#include "config/scenario.hpp"

namespace cosched::numa {

struct ReferenceTable {
  int pages = 0;
  std::vector<int> entry_page;  // the page (index in the space) each memory entry references
  std::vector<std::int64_t> entry_weight;
  std::vector<bool> entry_write;
  std::int64_t total = 0;  // every entry's weight, "other activity" included
  // The memory entries of page i: page_entries[page_first[i] .. page_first[i + 1]).
  std::vector<int> page_first, page_entries;
  // Per page: the weight of its reads and of its writes.
  std::vector<std::int64_t> page_read, page_write;
};

// Weights are fixed-point: the table's frequencies scaled so that they add up to about 2^40, each rounded to
// an integer, so that every sum the machine takes is exact.
ReferenceTable build_reference_table(const config::NumaTable& table, int pages);

}  // namespace cosched::numa
