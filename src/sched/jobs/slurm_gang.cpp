#include "sched/jobs/slurm_gang.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace cosched::sched {

SlurmTimeSlicer::SlurmTimeSlicer(std::vector<int> capacity)
    : capacity_(std::move(capacity)), used_(capacity_.size(), 0) {}

bool SlurmTimeSlicer::fits(const Entry& entry) const {
  return std::all_of(entry.demand.begin(), entry.demand.end(), [&](const Demand& d) {
    return used_[static_cast<std::size_t>(d.resource)] + d.units <=
           capacity_[static_cast<std::size_t>(d.resource)];
  });
}

void SlurmTimeSlicer::hold(const Entry& entry, int sign) {
  for (const Demand& d : entry.demand) used_[static_cast<std::size_t>(d.resource)] += sign * d.units;
}

bool SlurmTimeSlicer::add(int job, std::vector<Demand> demand) {
  for (const Demand& d : demand)
    if (d.resource < 0 || d.resource >= static_cast<int>(capacity_.size()) || d.units < 1 ||
        d.units > capacity_[static_cast<std::size_t>(d.resource)])
      throw std::invalid_argument(
          fmt::format("slurm-gang: job {} asks {} unit(s) of resource {}", job, d.units, d.resource));
  if (std::any_of(queue_.begin(), queue_.end(), [&](const Entry& e) { return e.job == job; }))
    throw std::logic_error(fmt::format("slurm-gang: job {} added twice", job));
  Entry entry{job, std::move(demand), false};
  entry.running = fits(entry);
  if (entry.running) hold(entry, +1);
  queue_.push_back(std::move(entry));
  return queue_.back().running;
}

std::vector<int> SlurmTimeSlicer::remove(int job) {
  auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Entry& e) { return e.job == job; });
  if (it == queue_.end()) throw std::logic_error(fmt::format("slurm-gang: job {} ended, never added", job));
  if (it->running) hold(*it, -1);
  queue_.erase(it);
  // Slurm's _update_active_row: the running jobs stay; the suspended ones that fit, in queue order, join.
  std::vector<int> resumed;
  for (auto& entry : queue_) {
    if (entry.running || !fits(entry)) continue;
    entry.running = true;
    hold(entry, +1);
    resumed.push_back(entry.job);
  }
  return resumed;
}

SlurmTimeSlicer::Changes SlurmTimeSlicer::cycle() {
  Changes changes;
  if (!any_suspended()) return changes;
  std::vector<bool> was_running;
  std::stable_partition(queue_.begin(), queue_.end(), [](const Entry& e) { return !e.running; });
  for (auto& entry : queue_) {
    was_running.push_back(entry.running);
    if (entry.running) hold(entry, -1);
    entry.running = false;
  }
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    auto& entry = queue_[i];
    entry.running = fits(entry);
    if (entry.running) hold(entry, +1);
    if (entry.running != was_running[i])
      (entry.running ? changes.resumed : changes.suspended).push_back(entry.job);
  }
  return changes;
}

bool SlurmTimeSlicer::running(int job) const {
  auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Entry& e) { return e.job == job; });
  return it != queue_.end() && it->running;
}

bool SlurmTimeSlicer::any_suspended() const {
  return std::any_of(queue_.begin(), queue_.end(), [](const Entry& e) { return !e.running; });
}

std::vector<int> SlurmTimeSlicer::queue() const {
  std::vector<int> jobs;
  for (const auto& entry : queue_) jobs.push_back(entry.job);
  return jobs;
}

SlurmGangJobScheduler::SlurmGangJobScheduler(int workstations, const SlurmGangParams& params)
    : allocation_(workstations, params.mpl, "slurm-gang"),
      slicer_(std::vector<int>(static_cast<std::size_t>(std::max(workstations, 0)), 1)),
      time_slice_(params.time_slice),
      resume_delay_(params.suspend_resume) {
  if (time_slice_ <= 0)
    throw std::invalid_argument(
        fmt::format("job_scheduler.time_slice: expected a positive duration, got {} ns", time_slice_));
}

void SlurmGangJobScheduler::submit(const StreamJob& job, SimTime now) {
  allocation_.submit(job, now);
}

void SlurmGangJobScheduler::signal(const std::vector<int>& jobs, bool run) {
  for (int job : jobs) signals_.push_back({job, run, run ? resume_delay_ : 0});
}

void SlurmGangJobScheduler::finished(int job, SimTime now) {
  allocation_.finished(job, now);
  signal(slicer_.remove(job), true);
}

std::vector<JobStart> SlurmGangJobScheduler::decide(SimTime now) {
  // At a time slice's end, the rotation first (a choice: a job allocated at that instant joins the new
  // active set, not the old one); then the allocations, in FIFO order.
  if (now > 0 && now % time_slice_ == 0) {
    const auto changes = slicer_.cycle();
    signal(changes.suspended, false);
    signal(changes.resumed, true);
  }
  last_decision_ = now;
  auto starts = allocation_.decide(now);
  for (auto& start : starts) {
    std::vector<SlurmTimeSlicer::Demand> demand;
    for (int w : start.workstations) demand.push_back({w, 1});
    start.suspended = !slicer_.add(start.job, std::move(demand));
  }
  return starts;
}

std::vector<JobSignal> SlurmGangJobScheduler::take_signals() {
  return std::exchange(signals_, {});
}

std::optional<SimTime> SlurmGangJobScheduler::next_wakeup() const {
  // The time slicer wakes every time_slice from the start of the run ("This thread sleeps for the configured
  // SchedulerTimeSlice interval. When it wakes up, it checks each partition for suspended jobs."); a wake-up
  // with no job suspended does nothing, so only those with one are events.
  if (!slicer_.any_suspended()) return std::nullopt;
  return (last_decision_ / time_slice_ + 1) * time_slice_;
}

namespace {

const config::PolicyKey kSlurmGangKeys[] = {
    config::duration_key<&SlurmGangParams::time_slice>(
        "time_slice",
        "SchedulerTimeSlice: how long the active jobs run before the suspended ones rotate in (duration, "
        "default 30s)"),
    {"oversubscribe",
     "OverSubscribe=FORCE:N: jobs allocated each workstation at once, one running, the others suspended (1 "
     "to "
     "16, default 4)",
     [](const config::Field& f, config::PolicyParams& params) {
       const auto jobs = f.positive_integer();
       if (jobs > kMaxMpl) f.fail(fmt::format("a number of jobs per workstation from 1 to {}", kMaxMpl));
       config::params_as<SlurmGangParams>(params).mpl = static_cast<int>(jobs);
     }},
    config::duration_key<&SlurmGangParams::suspend_resume, config::Zero::Allowed>(
        "suspend_resume",
        "the cost of a resumption: a resumed job runs this long after its workstations stopped the job "
        "before it, the CPU idle meanwhile (duration, default 0)"),
};

void slurm_gang_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& slurm = static_cast<const SlurmGangParams&>(params);
  out["time_slice_s"] = static_cast<double>(slurm.time_slice) * 1e-9;
  out["oversubscribe"] = slurm.mpl;
  out["suspend_resume_s"] = static_cast<double>(slurm.suspend_resume) * 1e-9;
}

}  // namespace

const JobSchedulerEntry kSlurmGangEntry{
    {"slurm-gang",
     "Slurm's gang scheduling (PreemptMode=GANG, OverSubscribe=FORCE:N): FIFO allocation of up to N jobs per "
     "workstation, the jobs on disjoint workstations running, the others suspended and rotated in every "
     "time_slice",
     kSlurmGangKeys, config::default_params<SlurmGangParams>, slurm_gang_json,
     [](config::MapReader& map, const config::PolicyParams& params) {
       const auto& slurm = static_cast<const SlurmGangParams&>(params);
       const auto& section = map.field();
       // A resumption that takes a whole time slice would be overtaken by the next rotation's suspension:
       // the job would never run again.
       if (slurm.suspend_resume >= slurm.time_slice)
         section.child(section.node()["suspend_resume"], "suspend_resume")
             .fail(fmt::format("a duration shorter than time_slice ({:g} s; a resumption costing a whole "
                               "time slice never lets the job run)",
                               static_cast<double>(slurm.time_slice) * 1e-9));
       if (slurm.mpl != 1) return;
       const auto key = section.node()["oversubscribe"];
       (key ? section.child(key, "oversubscribe") : section)
           .warn(
               "slurm-gang with oversubscribe 1 allocates each workstation to one job at a time: no job is "
               "ever suspended, and the jobs start as under policy fcfs; set oversubscribe to 2 or more for "
               "jobs to share workstations");
     }},
    false,
    false,
    [](const config::PolicyParams& params, int workstations) -> std::unique_ptr<JobScheduler> {
      return std::make_unique<SlurmGangJobScheduler>(workstations,
                                                     static_cast<const SlurmGangParams&>(params));
    },
    true};

}  // namespace cosched::sched
