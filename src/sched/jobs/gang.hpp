#pragma once
// Gang scheduling of a job stream (docs/models/now-streams.md section 3.3): an Ousterhout (1982) matrix
// of `mpl` rows, each row a full set of the workstations; a job takes as many columns of one row as it
// has processes, and the workstations' gang local schedulers give each row in turn all workstations for a
// global time slot (JobStart::row; sched/now/gang.hpp for the closed-workload matrix).

#include <map>
#include <vector>

#include "sched/jobs/job_scheduler.hpp"
#include "sched/jobs/queue.hpp"

namespace cosched::sched {

class GangJobScheduler final : public JobScheduler {
 public:
  GangJobScheduler(int workstations, int mpl);
  void submit(const StreamJob& job, SimTime now) override;
  void finished(int job, SimTime now) override;
  std::vector<JobStart> decide(SimTime now) override;

  // The job in each cell, -1 for a free one: cell(row, workstation).
  int cell(int row, int workstation) const {
    return rows_[static_cast<std::size_t>(row)][static_cast<std::size_t>(workstation)];
  }
  int rows() const { return static_cast<int>(rows_.size()); }

 private:
  JobQueue queue_;
  std::vector<std::vector<int>> rows_;  // [row][workstation]: job id or -1
  std::vector<int> free_;               // free cells of each row
  std::map<int, int> row_of_;           // running job -> its row
};

// The job scheduler of every policy on gang's matrix (gang, fcs, buffered, paired-gang): first-fit placement
// into job_scheduler.mpl rows. A JobSchedulerEntry's `make`.
std::unique_ptr<JobScheduler> make_gang_rows(const config::PolicyParams& params, int workstations);

extern const JobSchedulerEntry kGangJobEntry;

}  // namespace cosched::sched
