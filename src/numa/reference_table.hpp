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

// The hot-cold shape (A5) of a space of `pages` pages as runs: the first round(hot_pages x pages) pages (at
// least one) share hot_refs of the references, the others the rest. Every page hot: the references spread
// evenly. Types per page: each run split, in the order compute, read, write, into the pages of each type,
// counted from the mix by largest remainder (ties to the earlier type). Types per reference: one run each,
// every page's references split by the mix (the runs' own types are unused).
std::vector<config::NumaTableEntry> hot_cold_runs(const config::NumaTable& table, int pages);

// `table` as resolved by the reader (hot-cold tables as their runs). Weights are fixed-point: the table's
// frequencies scaled so that they add up to about 2^40, each rounded to an integer, so that every sum the
// machine takes is exact.
ReferenceTable build_reference_table(const config::NumaTable& table, int pages);

}  // namespace cosched::numa
