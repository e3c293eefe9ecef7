#include "numa/reference_table.hpp"

#include <algorithm>
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

// Each page of the runs as references: one of the entry's type, or (hot-cold) one per type of the mix.
std::vector<Reference> references(const config::NumaTable& table, int pages) {
  std::vector<Reference> out;
  const bool mix = table.shape != "entries";
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
  if (cold == 0) return {{hot, 1.0 / hot, config::NumaAccess::Compute}};
  return {{hot, table.hot_refs / hot, config::NumaAccess::Compute},
          {cold, (1 - table.hot_refs) / cold, config::NumaAccess::Compute}};
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
