#include "sched/jobs/time_share.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace cosched::sched {

TimeShareJobScheduler::TimeShareJobScheduler(int workstations, int mpl, std::string_view policy)
    : queue_(policy, workstations), mpl_(mpl), load_(static_cast<std::size_t>(workstations), 0) {
  if (mpl < 1)
    throw std::invalid_argument(
        fmt::format("job_scheduler.mpl: expected at least 1 process per workstation, got {}", mpl));
}

void TimeShareJobScheduler::submit(const StreamJob& job, SimTime) {
  queue_.push(job);
}

void TimeShareJobScheduler::finished(int job, SimTime) {
  for (int w : queue_.finish(job)) --load_[static_cast<std::size_t>(w)];
}

std::vector<int> TimeShareJobScheduler::place(int processes) const {
  // Least loaded first, ties by lowest number (now-streams.md 3.4): the workstations below the level,
  // ordered by (processes there, number). One process per workstation, as in every NOW job (now.md 4).
  std::vector<int> open;
  for (int w = 0; w < queue_.workstations(); ++w)
    if (load_[static_cast<std::size_t>(w)] < mpl_) open.push_back(w);
  if (static_cast<int>(open.size()) < processes) return {};
  std::stable_sort(open.begin(), open.end(), [&](int a, int b) {
    return load_[static_cast<std::size_t>(a)] < load_[static_cast<std::size_t>(b)];
  });
  open.resize(static_cast<std::size_t>(processes));
  // Ranks take the chosen workstations in ascending order (choice: a deterministic layout for the record).
  std::sort(open.begin(), open.end());
  return open;
}

std::vector<JobStart> TimeShareJobScheduler::decide(SimTime now) {
  std::vector<JobStart> starts;
  // Strict FCFS order, as under gang (now-streams.md 3.4, a choice).
  while (!queue_.empty()) {
    std::vector<int> where = place(queue_.waiting().front().processes);
    if (where.empty()) break;
    for (int w : where) ++load_[static_cast<std::size_t>(w)];
    const StreamJob job = queue_.start(0, where, now);
    starts.push_back(JobStart{job.id, std::move(where), -1});
  }
  return starts;
}

namespace {

constexpr char kTimeShareName[] = "time-share";
const config::PolicyKey kTimeShareKeys[] = {
    mpl_key<kTimeShareName, kMaxMpl>("processes per workstation (1 to 16, default 1)")};

}  // namespace

const JobSchedulerEntry kTimeShareEntry{
    {kTimeShareName,
     "time sharing with implicit coscheduling: up to mpl processes per workstation, placed on the "
     "least-loaded workstations",
     kTimeShareKeys, config::default_params<config::JobSchedulerParams>, mpl_json,
     [](config::MapReader& map, const config::PolicyParams& params) {
       warn_single_level(map, params,
                         "time-share with mpl 1 places one process per workstation: the same run as policy "
                         "fcfs, event for event");
     }},
    false,
    false,
    [](const config::PolicyParams& params, int workstations) -> std::unique_ptr<JobScheduler> {
      return std::make_unique<TimeShareJobScheduler>(
          workstations, static_cast<const config::JobSchedulerParams&>(params).mpl);
    }};

}  // namespace cosched::sched
