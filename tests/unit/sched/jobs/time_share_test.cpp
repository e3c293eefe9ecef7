// Time sharing at the job level (docs/models/now-streams.md section 3.4): least-loaded placement up to mpl.

#include "sched/jobs/time_share.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sched/jobs/job_stream_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace stream_test;

TEST(JobTimeShare, LeastLoadedWorkstationsUpToTheLevel) {
  TimeShareJobScheduler ts(4, 2);
  auto start = [&](int id, int processes, SimTime now) {
    ts.submit({id, now, processes, 100}, now);
    return ts.decide(now);
  };
  auto a = start(0, 2, 0);  // all empty: ties by number
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].workstations, (std::vector<int>{0, 1}));
  EXPECT_EQ(a[0].row, -1);
  auto b = start(1, 3, 1);  // loads 1 1 0 0: 2 and 3 (empty), then 0 (lower number of the two at 1)
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].workstations, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(ts.load(), (std::vector<int>{2, 1, 1, 1}));
  auto c = start(2, 3, 2);  // workstation 0 is at the level: 1, 2, 3
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].workstations, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(ts.load(), (std::vector<int>{2, 2, 2, 2}));
  EXPECT_TRUE(start(3, 1, 3).empty()) << "every workstation holds mpl = 2 processes";
  ts.finished(0, 4);  // loads 1 1 2 2
  auto d = ts.decide(4);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].job, 3);
  EXPECT_EQ(d[0].workstations, (std::vector<int>{0}));
}

TEST(JobTimeShare, AHeadThatDoesNotFitBlocksTheQueue) {
  TimeShareJobScheduler ts(3, 1);
  ts.submit({0, 0, 2, 1}, 0);
  ASSERT_EQ(ts.decide(0).size(), 1u);  // on 0 and 1
  ts.submit({1, 1, 2, 1}, 1);          // one workstation below the level
  ts.submit({2, 1, 1, 1}, 1);          // would fit on 2
  EXPECT_TRUE(ts.decide(1).empty());
  ts.finished(0, 2);
  auto both = ts.decide(2);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].workstations, (std::vector<int>{0, 1}));
  EXPECT_EQ(both[1].workstations, (std::vector<int>{2}));
}

}  // namespace
}  // namespace cosched::sched
