#include "numa/reference_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace cosched::numa {
namespace {

constexpr double kScale = 1099511627776.0;  // 2^40

struct Reference {
  int page;
  double frequency;
  config::NumaAccess type;
};

// The counts of compute, read and write pages in a run of `pages` pages: the mix's shares, rounded by
// largest remainder so that they add up to `pages`.
std::array<int, 3> typed_pages(const config::NumaTable& table, int pages) {
  const std::array<double, 3> exact = {table.compute * pages, table.read * pages, table.write * pages};
  std::array<int, 3> count{};
  int left = pages;
  for (int t = 0; t < 3; ++t) left -= count[t] = static_cast<int>(std::floor(exact[t] + 1e-9));
  for (; left > 0; --left) {
    int best = 0;
    for (int t = 1; t < 3; ++t)
      if (exact[t] - count[t] > exact[best] - count[best] + 1e-9) best = t;  // ties: the earlier type
    ++count[best];
  }
  return count;
}

// A run of `pages` pages with `frequency` each, as written for the table's types.
void add_run(const config::NumaTable& table, int pages, double frequency,
             std::vector<config::NumaTableEntry>& runs) {
  if (table.types == config::NumaTypes::PerReference) {
    runs.push_back({pages, frequency, config::NumaAccess::Compute});
    return;
  }
  const auto count = typed_pages(table, pages);
  const config::NumaAccess type[] = {config::NumaAccess::Compute, config::NumaAccess::Read,
                                     config::NumaAccess::Write};
  for (int t = 0; t < 3; ++t)
    if (count[t] > 0) runs.push_back({count[t], frequency, type[t]});
}

// Each page of the runs as references: one of the entry's type, or (hot-cold, types per reference) one per
// type of the mix.
std::vector<Reference> references(const config::NumaTable& table, int pages) {
  std::vector<Reference> out;
  const bool mix = table.shape == "hot-cold" && table.types == config::NumaTypes::PerReference;
  int page = 0;
  for (const auto& entry : table.entries)
    for (int k = 0; k < entry.pages; ++k, ++page) {
      if (!mix) {
        out.push_back({page, entry.frequency, entry.type});
        continue;
      }
      out.push_back({page, entry.frequency * table.compute, config::NumaAccess::Compute});
      out.push_back({page, entry.frequency * table.read, config::NumaAccess::Read});
      out.push_back({page, entry.frequency * table.write, config::NumaAccess::Write});
    }
  if (page != pages)  // the section reader refuses such a table
    throw std::logic_error("a reference table's entries do not cover its space");
  return out;
}

}  // namespace

std::vector<config::NumaTableEntry> hot_cold_runs(const config::NumaTable& table, int pages) {
  const int hot = static_cast<int>(std::clamp<long long>(std::llround(table.hot_pages * pages), 1, pages));
  const int cold = pages - hot;
  std::vector<config::NumaTableEntry> runs;
  add_run(table, hot, cold == 0 ? 1.0 / hot : table.hot_refs / hot, runs);
  if (cold > 0) add_run(table, cold, (1 - table.hot_refs) / cold, runs);
  return runs;
}

ReferenceTable build_reference_table(const config::NumaTable& table, int pages) {
  const auto refs = references(table, pages);
  double sum = 0;
  for (const auto& r : refs) sum += r.frequency;
  ReferenceTable out;
  out.pages = pages;
  out.page_read.assign(pages, 0);
  out.page_write.assign(pages, 0);
  std::vector<std::vector<int>> by_page(pages);
  for (const auto& r : refs) {
    const auto weight = sum > 0 ? static_cast<std::int64_t>(std::llround(r.frequency / sum * kScale)) : 0;
    out.total += weight;
    if (r.type == config::NumaAccess::Compute || weight == 0) continue;
    const bool write = r.type == config::NumaAccess::Write;
    by_page[r.page].push_back(static_cast<int>(out.entry_page.size()));
    out.entry_page.push_back(r.page);
    out.entry_weight.push_back(weight);
    out.entry_write.push_back(write);
    (write ? out.page_write : out.page_read)[r.page] += weight;
  }
  out.page_first.push_back(0);
  for (const auto& entries : by_page) {
    out.page_entries.insert(out.page_entries.end(), entries.begin(), entries.end());
    out.page_first.push_back(static_cast<int>(out.page_entries.size()));
  }
  return out;
}

}  // namespace cosched::numa
