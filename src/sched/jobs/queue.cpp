#include "sched/jobs/queue.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace cosched::sched {

JobQueue::JobQueue(std::string_view policy, int workstations) : policy_(policy), workstations_(workstations) {
  if (workstations < 1)
    throw std::invalid_argument(
        fmt::format("job scheduler {}: expected at least one workstation, got {}", policy, workstations));
}

void JobQueue::push(const StreamJob& job) {
  if (job.processes < 1 || job.processes > workstations_)
    throw std::invalid_argument(
        fmt::format("job scheduler {}: job {} has {} processes, expected 1 to {} (one per workstation)",
                    policy_, job.id, job.processes, workstations_));
  if (!seen_.insert(job.id).second)
    throw std::invalid_argument(fmt::format("job scheduler {}: job {} submitted twice", policy_, job.id));
  waiting_.push_back(job);
}

StreamJob JobQueue::start(std::size_t index, std::vector<int> workstations, SimTime now) {
  const StreamJob job = waiting_.at(index);
  waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(index));
  running_.emplace(job.id, Running{job, now, std::move(workstations)});
  return job;
}

std::vector<int> JobQueue::finish(int job) {
  auto it = running_.find(job);
  if (it == running_.end())
    throw std::logic_error(fmt::format("job scheduler {}: job {} finished but is not running", policy_, job));
  std::vector<int> where = std::move(it->second.workstations);
  running_.erase(it);
  return where;
}

}  // namespace cosched::sched
