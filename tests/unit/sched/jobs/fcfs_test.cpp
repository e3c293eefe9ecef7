// FCFS (docs/models/now-streams.md section 3.1): the schedule of the shared hand-made stream, derived by
// hand.

#include "sched/jobs/fcfs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sched/jobs/job_stream_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace stream_test;

TEST(JobFcfs, TheHeadBlocksEveryLaterJob) {
  FcfsJobScheduler fcfs(4);
  auto s = drive(fcfs, kStream);
  // t=0  J0 on {0,1}. t=1..5: J1 needs 3, 2 are free: everybody waits behind it.
  // t=10 J0 ends: J1 on {0,1,2} (to 15), J2 on {3} (to 14); J3 needs 1, none is free.
  // t=14 J2 ends: J3 on {3} (to 34). t=15 J1 ends: J4 on {0} (to 18), J5 on {1} (to 17).
  EXPECT_EQ(s[0].start, 0);
  EXPECT_EQ(s[0].workstations, (std::vector<int>{0, 1}));
  EXPECT_EQ(s[1].start, 10);
  EXPECT_EQ(s[1].workstations, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(s[2].start, 10) << "J2 fits at 2 but may not overtake J1";
  EXPECT_EQ(s[2].workstations, (std::vector<int>{3}));
  EXPECT_EQ(s[3].start, 14);
  EXPECT_EQ(s[3].workstations, (std::vector<int>{3}));
  EXPECT_EQ(s[4].start, 15);
  EXPECT_EQ(s[4].workstations, (std::vector<int>{0}));
  EXPECT_EQ(s[5].start, 15);
  EXPECT_EQ(s[5].workstations, (std::vector<int>{1}));
}

}  // namespace
}  // namespace cosched::sched
