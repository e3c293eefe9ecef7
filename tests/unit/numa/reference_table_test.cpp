// A space's reference-frequency table as the machine draws from it (src/numa/reference_table.cpp;
// docs/models/ numa.md section 1.1): the hot-cold shape's runs with types per page (the mix as shares of
// pages, rounded by largest remainder) and per reference, and the weights the machine samples. Values derived
// by hand.

#include "numa/reference_table.hpp"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace cosched::numa {
namespace {

using config::NumaAccess;
using TypedRun = std::tuple<int, NumaAccess>;

std::vector<TypedRun> typed_runs(double compute, double read, double write, int pages) {
  config::NumaTable table;
  table.hot_pages = 1;  // one run: every page hot
  table.compute = compute, table.read = read, table.write = write;
  std::vector<TypedRun> out;
  for (const auto& e : hot_cold_runs(table, pages)) out.emplace_back(e.pages, e.type);
  return out;
}

TEST(NumaReferenceTable, PagesOfEachTypeAreTheMixRoundedByLargestRemainder) {
  using enum NumaAccess;
  // The sets' mix, 0.5 / 0.35 / 0.15: 64 pages are 32, 22.4 and 9.6 -> 32, 22, 10.
  EXPECT_EQ(typed_runs(0.5, 0.35, 0.15, 64), (std::vector<TypedRun>{{32, Compute}, {22, Read}, {10, Write}}));
  // Short runs lack the smallest shares: 1 page is compute; 2 are 1, 0.7, 0.3 -> compute and read; 3 are
  // 1.5, 1.05, 0.45 -> 2 compute, 1 read.
  EXPECT_EQ(typed_runs(0.5, 0.35, 0.15, 1), (std::vector<TypedRun>{{1, Compute}}));
  EXPECT_EQ(typed_runs(0.5, 0.35, 0.15, 2), (std::vector<TypedRun>{{1, Compute}, {1, Read}}));
  EXPECT_EQ(typed_runs(0.5, 0.35, 0.15, 3), (std::vector<TypedRun>{{2, Compute}, {1, Read}}));
  // A tie (14.5 and 35.5 in decimal, not quite in binary) goes to the earlier type, read.
  EXPECT_EQ(typed_runs(0, 0.29, 0.71, 50), (std::vector<TypedRun>{{15, Read}, {35, Write}}));
  EXPECT_EQ(typed_runs(0.5, 0.25, 0.25, 10), (std::vector<TypedRun>{{5, Compute}, {3, Read}, {2, Write}}));
}

TEST(NumaReferenceTable, PerPageTypesPutEachPagesWeightOnItsOneType) {
  config::NumaTable table;
  table.hot_pages = 1;
  table.compute = 0.5, table.read = 0.25, table.write = 0.25;
  table.entries = hot_cold_runs(table, 4);  // pages 0-1 compute, 2 read, 3 write
  const auto per_page = build_reference_table(table, 4);
  EXPECT_EQ(per_page.page_read[0] + per_page.page_write[0], 0) << "a compute page is no memory reference";
  EXPECT_GT(per_page.page_read[2], 0);
  EXPECT_EQ(per_page.page_write[2], 0) << "a read page is never written";
  EXPECT_EQ(per_page.page_read[3], 0);
  EXPECT_EQ(per_page.page_write[3], per_page.page_read[2]) << "each page a quarter of the references";
  EXPECT_EQ(per_page.total, 4 * per_page.page_read[2]);

  table.types = config::NumaTypes::PerReference;
  table.entries = hot_cold_runs(table, 4);  // one run: every page read and written
  const auto mixed = build_reference_table(table, 4);
  for (int page = 0; page < 4; ++page) {
    EXPECT_GT(mixed.page_read[page], 0);
    EXPECT_EQ(mixed.page_write[page], mixed.page_read[page]) << "read 0.25 and write 0.25 of every page's";
  }
}

}  // namespace
}  // namespace cosched::numa
