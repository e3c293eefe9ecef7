// EASY backfilling (docs/models/now-streams.md section 3.2): the schedule of the shared hand-made stream and
// the reservation, derived by hand.

#include "sched/jobs/easy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sched/jobs/job_stream_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace stream_test;

TEST(JobEasy, BackfillsWhatDoesNotDelayTheHeadsReservation) {
  EasyJobScheduler easy(4);
  auto s = drive(easy, kStream);
  // t=0  J0 on {0,1} (expected end 10).
  // t=1  J1 (3) blocked: with J0's 2 back at 10 there are 4: shadow 10, extra 4 - 3 = 1.
  // t=2  J2 (1, est 4): 2 + 4 = 6 <= 10: backfilled on {2}, ends by the shadow time (extra stays 1).
  // t=3  J3 (1, est 20): 3 + 20 > 10, but 1 <= extra 1: backfilled on {3} on the extra node (extra 0).
  // t=4  J4: nothing free.
  // t=6  J2 ends, {2} free. Shadow: J0 at 10 gives 1 + 2 = 3: shadow 10, extra 0.
  //      J4 (1, est 5): 6 + 5 = 11 > 10 and 1 > extra 0: refused. J5 (1, est 2): 8 <= 10: on {2}.
  // t=8  J5 ends: J4 refused again (8 + 5 = 13 > 10, extra 0).
  // t=10 J0 ends: J1 starts on {0,1,2}. J4 heads the queue: nothing free; J1 (end 15) will free 3:
  //      shadow 15, extra 2.
  // t=15 J1 ends: J4 on {0} (to 18). J3 ends at 23.
  EXPECT_EQ(s[0].start, 0);
  EXPECT_EQ(s[1].start, 10);
  EXPECT_EQ(s[1].workstations, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(s[2].start, 2) << "ends by the shadow time";
  EXPECT_EQ(s[2].workstations, (std::vector<int>{2}));
  EXPECT_EQ(s[3].start, 3) << "runs past the shadow time on the extra node";
  EXPECT_EQ(s[3].workstations, (std::vector<int>{3}));
  EXPECT_EQ(s[4].start, 15) << "would have run past the shadow time with no extra node left";
  EXPECT_EQ(s[4].workstations, (std::vector<int>{0}));
  EXPECT_EQ(s[5].start, 6) << "overtakes J4: it ends by the shadow time";
  EXPECT_EQ(s[5].workstations, (std::vector<int>{2}));
  ASSERT_TRUE(easy.reservation().has_value() == false) << "the queue is empty at the end";
}

TEST(JobEasy, TheReservationAsComputed) {
  EasyJobScheduler easy(4);
  easy.submit({0, 0, 2, 10}, 0);
  ASSERT_EQ(easy.decide(0).size(), 1u);
  easy.submit({1, 1, 3, 5}, 1);
  EXPECT_TRUE(easy.decide(1).empty());
  ASSERT_TRUE(easy.reservation().has_value());
  EXPECT_EQ(easy.reservation()->shadow, 10) << "J0 started at 0 with estimate 10";
  EXPECT_EQ(easy.reservation()->extra, 1) << "4 free at 10, the head needs 3";
}

TEST(JobEasy, AJobPastItsEstimateIsExpectedToEndNow) {
  // J0 (est 5) still runs at 7: it is not killed, and its expected end is now, not 5 (in the past).
  EasyJobScheduler easy(2);
  easy.submit({0, 0, 1, 5}, 0);
  ASSERT_EQ(easy.decide(0).size(), 1u);
  easy.submit({1, 7, 2, 3}, 7);
  easy.submit({2, 7, 1, 1}, 7);
  const auto starts = easy.decide(7);
  ASSERT_TRUE(easy.reservation().has_value());
  EXPECT_EQ(easy.reservation()->shadow, 7);
  EXPECT_EQ(easy.reservation()->extra, 0);
  EXPECT_TRUE(starts.empty()) << "J2 (7 + 1 > 7, no extra node) would delay the head";
}

}  // namespace
}  // namespace cosched::sched
