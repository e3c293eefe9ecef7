#pragma once
// What the job schedulers' tests share (tests/unit/sched/jobs/): a hand-made stream and the NOW engine's
// calls in the interface's order. Times in arbitrary units (the schedulers only compare them).

#include <map>
#include <set>
#include <vector>

#include "sched/jobs/job_scheduler.hpp"

namespace cosched::sched::stream_test {

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
inline std::map<int, Schedule> drive(JobScheduler& scheduler, const std::vector<Job>& jobs) {
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
inline const std::vector<Job> kStream = {
    {{0, 0, 2, 10}, 10}, {{1, 1, 3, 5}, 5}, {{2, 2, 1, 4}, 4},
    {{3, 3, 1, 20}, 20}, {{4, 4, 1, 5}, 3}, {{5, 5, 1, 2}, 2},
};

}  // namespace cosched::sched::stream_test
