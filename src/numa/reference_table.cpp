#include "numa/reference_table.hpp"

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

// The hot-cold shape (A5): the first round(hot_pages x pages) pages (at least one) share hot_refs of the
// references, the others the rest; each page's references split by type in the table's mix.
std::vector<Reference> hot_cold(const config::NumaTable& table, int pages) {
  const int hot = std::max(1, std::min(pages, static_cast<int>(std::lround(table.hot_pages * pages))));
  const int cold = pages - hot;
  const double hot_share = cold == 0 ? 1.0 : table.hot_refs;
  std::vector<Reference> out;
  for (int page = 0; page < pages; ++page) {
    const double f = page < hot ? hot_share / hot : (1.0 - hot_share) / cold;
    out.push_back({page, f * table.compute, config::NumaAccess::Compute});
    out.push_back({page, f * table.read, config::NumaAccess::Read});
    out.push_back({page, f * table.write, config::NumaAccess::Write});
  }
  return out;
}

std::vector<Reference> listed(const config::NumaTable& table, int pages) {
  std::vector<Reference> out;
  int page = 0;
  for (const auto& entry : table.entries)
    for (int k = 0; k < entry.pages; ++k) out.push_back({page++, entry.frequency, entry.type});
  if (page != pages)  // the section reader refuses such a table
    throw std::logic_error("a reference table's entries do not cover its space");
  return out;
}

}  // namespace

ReferenceTable build_reference_table(const config::NumaTable& table, int pages) {
  const auto references = table.entries.empty() ? hot_cold(table, pages) : listed(table, pages);
  double sum = 0;
  for (const auto& r : references) sum += r.frequency;
  ReferenceTable out;
  out.pages = pages;
  out.page_read.assign(pages, 0);
  out.page_write.assign(pages, 0);
  std::vector<std::vector<int>> by_page(pages);
  for (const auto& r : references) {
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
