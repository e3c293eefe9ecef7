// The queue and the checks every job scheduler shares (src/sched/jobs/queue.cpp), through fcfs.

#include "sched/jobs/queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sched/jobs/fcfs.hpp"

namespace cosched::sched {
namespace {

TEST(JobScheduler, RefusesJobsLargerThanThePlatformAndUnknownFinishes) {
  FcfsJobScheduler fcfs(4);
  EXPECT_THROW(fcfs.submit({0, 0, 5, 1}, 0), std::invalid_argument);
  EXPECT_THROW(fcfs.submit({0, 0, 0, 1}, 0), std::invalid_argument);
  fcfs.submit({1, 0, 1, 1}, 0);
  EXPECT_THROW(fcfs.submit({1, 0, 1, 1}, 0), std::invalid_argument) << "the same id twice";
  EXPECT_THROW(fcfs.finished(1, 0), std::logic_error) << "job 1 was never started";
}

}  // namespace
}  // namespace cosched::sched
