#include "sched/jobs/gang.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace cosched::sched {

GangJobScheduler::GangJobScheduler(int workstations, int mpl)
    : queue_("gang", workstations),
      rows_(static_cast<std::size_t>(std::max(mpl, 0)),
            std::vector<int>(static_cast<std::size_t>(workstations), -1)),
      free_(static_cast<std::size_t>(std::max(mpl, 0)), workstations) {
  if (mpl < 1)
    throw std::invalid_argument(fmt::format("job_scheduler.mpl: expected at least 1 gang row, got {}", mpl));
}

void GangJobScheduler::submit(const StreamJob& job, SimTime) {
  queue_.push(job);
}

void GangJobScheduler::finished(int job, SimTime) {
  const std::vector<int> where = queue_.finish(job);
  const auto row = static_cast<std::size_t>(row_of_.at(job));
  row_of_.erase(job);
  for (int w : where) rows_[row][static_cast<std::size_t>(w)] = -1;
  free_[row] += static_cast<int>(where.size());
}

std::vector<JobStart> GangJobScheduler::decide(SimTime now) {
  std::vector<JobStart> starts;
  // Strict FCFS order (now-streams.md 3.3, a choice): the head is placed when some row has room for it;
  // a later job never overtakes a blocked head.
  while (!queue_.empty()) {
    const StreamJob& head = queue_.waiting().front();
    // First fit (Ousterhout 1982's matrix; Feitelson 1996, "Packing schemes for gang scheduling"): the
    // first row with enough free columns; in it, the lowest-numbered free ones, contiguous or not
    // (choice: the NOW's star network makes every set of workstations alike).
    int row = 0;
    while (row < rows() && free_[static_cast<std::size_t>(row)] < head.processes) ++row;
    if (row == rows()) break;
    std::vector<int> where;
    auto& cells = rows_[static_cast<std::size_t>(row)];
    for (int w = 0; w < queue_.workstations() && static_cast<int>(where.size()) < head.processes; ++w)
      if (cells[static_cast<std::size_t>(w)] < 0) where.push_back(w);
    for (int w : where) cells[static_cast<std::size_t>(w)] = head.id;
    free_[static_cast<std::size_t>(row)] -= head.processes;
    row_of_[head.id] = row;
    const StreamJob job = queue_.start(0, where, now);
    starts.push_back(JobStart{job.id, std::move(where), row});
  }
  return starts;
}

std::unique_ptr<JobScheduler> make_gang_rows(const config::PolicyParams& params, int workstations) {
  return std::make_unique<GangJobScheduler>(workstations,
                                            static_cast<const config::JobSchedulerParams&>(params).mpl);
}

namespace {

constexpr char kGangName[] = "gang";
const config::PolicyKey kGangKeys[] = {
    mpl_key<kGangName, kMaxMpl>("gang rows: jobs sharing each workstation in turn (1 to 16, default 1)")};

}  // namespace

const JobSchedulerEntry kGangJobEntry{
    {kGangName,
     "gang scheduling: an Ousterhout matrix of mpl rows, first-fit placement of a job into a row, one row "
     "owning all workstations per global slot",
     kGangKeys, config::default_params<config::JobSchedulerParams>, mpl_json,
     [](config::MapReader& map, const config::PolicyParams& params) {
       warn_single_level(map, params,
                         "gang with mpl 1 has one row: each job has its workstations to itself and starts in "
                         "fcfs order, as under policy fcfs, the gang slots adding only their switches");
     }},
    false,
    true,
    make_gang_rows};

}  // namespace cosched::sched
