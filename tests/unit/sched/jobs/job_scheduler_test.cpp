// The job-level schedulers of open workloads (docs/models/now-streams.md section 3): FCFS and EASY schedules
// of a hand-made stream derived by hand, gang matrix placement and time-share placement. Times in
// arbitrary units (the schedulers only compare them).

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "sched/jobs/easy.hpp"
#include "sched/jobs/fcfs.hpp"
#include "sched/jobs/gang.hpp"
#include "sched/jobs/job_scheduler_registry.hpp"
#include "sched/jobs/time_share.hpp"

namespace cosched::sched {
namespace {

struct Job {
  StreamJob job;
  SimTime run = 0;  // how long it actually runs once started
};

struct Schedule {
  SimTime start = -1;
  SimTime end = -1;
  std::vector<int> workstations;
};

// The NOW engine's calls in the interface's order: at each instant the finishes (by job id), then the
// submits (by job id), then one decide(); a started job finishes `run` later.
std::map<int, Schedule> drive(JobScheduler& scheduler, const std::vector<Job>& jobs) {
  std::map<int, Schedule> out;
  std::set<SimTime> instants;
  for (const auto& j : jobs) instants.insert(j.job.submit);
  while (!instants.empty()) {
    const SimTime now = *instants.begin();
    instants.erase(instants.begin());
    for (const auto& [id, s] : out)
      if (s.end == now) scheduler.finished(id, now);
    for (const auto& j : jobs)
      if (j.job.submit == now) scheduler.submit(j.job, now);
    for (const JobStart& start : scheduler.decide(now)) {
      const SimTime end = now + jobs[static_cast<std::size_t>(start.job)].run;
      out[start.job] = Schedule{now, end, start.workstations};
      instants.insert(end);
    }
  }
  return out;
}

// Four workstations. J1 (3 processes) finds only 2 free behind J0 and blocks the queue until J0 ends at 10.
// J4 asks for 5 but runs 3 (an overestimate); J3 asks for 20.
//   id submit procs estimate run
const std::vector<Job> kStream = {
    {{0, 0, 2, 10}, 10}, {{1, 1, 3, 5}, 5}, {{2, 2, 1, 4}, 4},
    {{3, 3, 1, 20}, 20}, {{4, 4, 1, 5}, 3}, {{5, 5, 1, 2}, 2},
};

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

TEST(JobScheduler, RefusesJobsLargerThanThePlatformAndUnknownFinishes) {
  FcfsJobScheduler fcfs(4);
  EXPECT_THROW(fcfs.submit({0, 0, 5, 1}, 0), std::invalid_argument);
  EXPECT_THROW(fcfs.submit({0, 0, 0, 1}, 0), std::invalid_argument);
  fcfs.submit({1, 0, 1, 1}, 0);
  EXPECT_THROW(fcfs.submit({1, 0, 1, 1}, 0), std::invalid_argument) << "the same id twice";
  EXPECT_THROW(fcfs.finished(1, 0), std::logic_error) << "job 1 was never started";
}

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

TEST(JobSchedulerRegistry, EntriesAsDocumented) {
  const auto& registry = job_schedulers();
  EXPECT_EQ(registry.names().rfind("fcfs, easy, gang", 0), 0u) << registry.names();
  const auto* fcfs = registry.find("fcfs");
  ASSERT_NE(fcfs, nullptr);
  EXPECT_TRUE(fcfs->dedicated);
  EXPECT_FALSE(fcfs->gang_rows);
  const auto* easy = registry.find("easy");
  ASSERT_NE(easy, nullptr);
  EXPECT_TRUE(easy->dedicated);
  const auto* gang = registry.find("gang");
  ASSERT_NE(gang, nullptr);
  EXPECT_FALSE(gang->dedicated);
  EXPECT_TRUE(gang->gang_rows);
  const auto* ts = registry.find("time-share");
  ASSERT_NE(ts, nullptr);
  EXPECT_FALSE(ts->dedicated);
  EXPECT_FALSE(ts->gang_rows);
  EXPECT_EQ(registry.find("batch"), nullptr);
  for (const auto* entry : registry.entries())
    EXPECT_TRUE(std::any_of(entry->spec.keys.begin(), entry->spec.keys.end(),
                            [](const auto& key) { return key.name == "mpl"; }))
        << entry->spec.name << " declares mpl (1 only for the dedicated ones)";

  // The factories build the policy named: a gang of 2 rows places two full-width jobs, time-share with
  // mpl 2 as well, fcfs only one.
  for (const auto& [name, expected] : std::vector<std::pair<std::string, std::size_t>>{
           {"fcfs", 1}, {"easy", 1}, {"gang", 2}, {"time-share", 2}}) {
    config::JobSchedulerParams params;
    params.mpl = 2;
    auto scheduler = registry.at(name).make(params, 3);
    scheduler->submit({0, 0, 3, 1}, 0);
    scheduler->submit({1, 0, 3, 1}, 0);
    EXPECT_EQ(scheduler->decide(0).size(), expected) << name;
  }
}

}  // namespace
}  // namespace cosched::sched
