#include "sched/jobs/fcfs.hpp"

#include <stdexcept>

namespace cosched::sched {

std::vector<int> DedicatedWorkstations::take(int count) {
  if (count > free_) throw std::logic_error("dedicated workstations: taking more than are free");
  std::vector<int> taken;
  for (std::size_t w = 0; w < busy_.size() && static_cast<int>(taken.size()) < count; ++w) {
    if (busy_[w]) continue;
    busy_[w] = true;
    taken.push_back(static_cast<int>(w));
  }
  free_ -= count;
  return taken;
}

void DedicatedWorkstations::release(const std::vector<int>& workstations) {
  for (int w : workstations) busy_[static_cast<std::size_t>(w)] = false;
  free_ += static_cast<int>(workstations.size());
}

FcfsJobScheduler::FcfsJobScheduler(int workstations)
    : queue_("fcfs", workstations), workstations_(workstations) {}

void FcfsJobScheduler::submit(const StreamJob& job, SimTime) {
  queue_.push(job);
}

void FcfsJobScheduler::finished(int job, SimTime) {
  workstations_.release(queue_.finish(job));
}

std::vector<JobStart> FcfsJobScheduler::decide(SimTime now) {
  // Strict FCFS (Mu'alem & Feitelson 2001, abstract: "allocating such partitions in the order in which
  // the jobs arrive"): only the head may start, so a blocked head blocks the queue.
  std::vector<JobStart> starts;
  while (!queue_.empty() && queue_.waiting().front().processes <= workstations_.free()) {
    std::vector<int> where = workstations_.take(queue_.waiting().front().processes);
    const StreamJob job = queue_.start(0, where, now);
    starts.push_back(JobStart{job.id, std::move(where), -1});
  }
  return starts;
}

namespace {

constexpr char kFcfsName[] = "fcfs";
const config::PolicyKey kFcfsKeys[] = {
    mpl_key<kFcfsName, 1>("multiprogramming level: 1 only, one job per workstation")};

}  // namespace

const JobSchedulerEntry kFcfsEntry{
    {kFcfsName,
     "first-come first-served on dedicated workstations: the queue's head starts when enough are free",
     kFcfsKeys, config::default_params<config::JobSchedulerParams>, mpl_json},
    true,
    false,
    [](const config::PolicyParams&, int workstations) -> std::unique_ptr<JobScheduler> {
      return std::make_unique<FcfsJobScheduler>(workstations);
    }};

}  // namespace cosched::sched
