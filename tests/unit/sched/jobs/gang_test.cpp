// Gang scheduling at the job level (docs/models/now-streams.md section 3.3): first-fit placement into the
// Ousterhout matrix's rows.

#include "sched/jobs/gang.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sched/jobs/job_stream_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace stream_test;

TEST(JobGang, FirstFitIntoTheFirstRowWithRoom) {
  GangJobScheduler gang(4, 2);
  auto start = [&](int id, int processes, SimTime now) {
    gang.submit({id, now, processes, 100}, now);
    return gang.decide(now);
  };
  auto a = start(0, 3, 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].row, 0);
  EXPECT_EQ(a[0].workstations, (std::vector<int>{0, 1, 2}));
  auto b = start(1, 2, 1);  // row 0 has 1 free column
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].row, 1);
  EXPECT_EQ(b[0].workstations, (std::vector<int>{0, 1}));
  auto c = start(2, 1, 2);  // first fit: back to row 0's last column
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].row, 0);
  EXPECT_EQ(c[0].workstations, (std::vector<int>{3}));
  auto d = start(3, 2, 3);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].row, 1);
  EXPECT_EQ(d[0].workstations, (std::vector<int>{2, 3}));
  EXPECT_TRUE(start(4, 3, 4).empty()) << "both rows are full";

  // C ends: row 0's column 3 is free. The head E (3) does not fit; F (1) would, but waits behind it.
  gang.finished(2, 5);
  EXPECT_EQ(gang.cell(0, 3), -1);
  EXPECT_TRUE(start(5, 1, 5).empty()) << "no job overtakes a blocked head";
  // A ends: row 0 is empty. E takes its first three columns, F the last.
  gang.finished(0, 6);
  auto ef = gang.decide(6);
  ASSERT_EQ(ef.size(), 2u);
  EXPECT_EQ(ef[0].job, 4);
  EXPECT_EQ(ef[0].row, 0);
  EXPECT_EQ(ef[0].workstations, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ef[1].job, 5);
  EXPECT_EQ(ef[1].row, 0);
  EXPECT_EQ(ef[1].workstations, (std::vector<int>{3}));
  // B and D end: row 1 frees entirely and takes a job of the whole width.
  gang.finished(1, 7);
  gang.finished(3, 7);
  auto g = start(6, 4, 7);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].row, 1);
  EXPECT_EQ(g[0].workstations, (std::vector<int>{0, 1, 2, 3}));
  for (int w = 0; w < 4; ++w) EXPECT_EQ(gang.cell(1, w), 6);
}

TEST(JobGang, AFreedRowIsReusedBeforeALaterOne) {
  GangJobScheduler gang(2, 3);
  gang.submit({0, 0, 2, 1}, 0);
  gang.submit({1, 0, 2, 1}, 0);
  gang.submit({2, 0, 2, 1}, 0);
  auto rows = gang.decide(0);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].row, 0);
  EXPECT_EQ(rows[1].row, 1);
  EXPECT_EQ(rows[2].row, 2);
  gang.finished(1, 1);
  gang.submit({3, 1, 1, 1}, 1);
  auto again = gang.decide(1);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].row, 1) << "the first row with room is the freed one";
  EXPECT_EQ(again[0].workstations, (std::vector<int>{0}));
}

}  // namespace
}  // namespace cosched::sched
