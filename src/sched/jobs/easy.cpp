#include "sched/jobs/easy.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosched::sched {

EasyJobScheduler::EasyJobScheduler(int workstations)
    : queue_("easy", workstations), workstations_(workstations) {}

void EasyJobScheduler::submit(const StreamJob& job, SimTime) {
  queue_.push(job);
}

void EasyJobScheduler::finished(int job, SimTime) {
  workstations_.release(queue_.finish(job));
}

JobStart EasyJobScheduler::start(std::size_t index, SimTime now) {
  std::vector<int> where = workstations_.take(queue_.waiting()[index].processes);
  const StreamJob job = queue_.start(index, where, now);
  return JobStart{job.id, std::move(where), -1};
}

EasyJobScheduler::Reservation EasyJobScheduler::reserve(const StreamJob& head, SimTime now) const {
  // Mu'alem & Feitelson 2001 (their account of EASY): the running jobs, by the time they are expected to end
  // (start + estimate), free their workstations one after another; the shadow time is when enough are
  // free for the head, and the extra nodes are those free then beyond what the head needs.
  // Choice (now-streams.md 3.2): a job past its estimate is not killed (a NOW job ends when its work
  // ends), so its expected end is "any moment now": max(start + estimate, now).
  std::vector<std::pair<SimTime, int>> ends;  // (expected end, workstations it frees)
  for (const auto& [id, running] : queue_.running())
    ends.emplace_back(std::max(running.start + running.job.estimate, now),
                      static_cast<int>(running.workstations.size()));
  std::sort(ends.begin(), ends.end());
  int free = workstations_.free();
  for (const auto& [end, count] : ends) {
    free += count;
    if (free >= head.processes) return Reservation{end, free - head.processes};
  }
  // Unreachable: a job is never larger than the platform (JobQueue::push), and every running job ends.
  throw std::logic_error("easy: the head's reservation needs more workstations than the platform has");
}

std::vector<JobStart> EasyJobScheduler::decide(SimTime now) {
  std::vector<JobStart> starts;
  reservation_.reset();
  // The head starts whenever it fits, as under FCFS.
  while (!queue_.empty() && queue_.waiting().front().processes <= workstations_.free())
    starts.push_back(start(0, now));
  if (queue_.empty()) return starts;
  // The head is blocked: reserve for it, then backfill the later jobs in queue order (Lifka 1995;
  // Mu'alem & Feitelson 2001): a job that fits the free workstations starts now if it is
  // expected to end by the shadow time (now + estimate <= shadow), or else if it needs no more than the
  // extra nodes, which it then uses up. Only the head holds a reservation ("aggressive" backfilling).
  Reservation reservation = reserve(queue_.waiting().front(), now);
  for (std::size_t index = 1; index < queue_.waiting().size();) {
    const StreamJob& job = queue_.waiting()[index];
    const bool fits = job.processes <= workstations_.free();
    const bool ends_in_time = now + job.estimate <= reservation.shadow;
    if (fits && (ends_in_time || job.processes <= reservation.extra)) {
      if (!ends_in_time) reservation.extra -= job.processes;
      starts.push_back(start(index, now));
    } else {
      ++index;
    }
  }
  reservation_ = reservation;
  return starts;
}

namespace {

constexpr char kEasyName[] = "easy";
const config::PolicyKey kEasyKeys[] = {
    mpl_key<kEasyName, 1>("multiprogramming level: 1 only, one job per workstation")};

}  // namespace

const JobSchedulerEntry kEasyEntry{
    {kEasyName,
     "EASY backfilling on dedicated workstations: later jobs start early if they do not delay the head's "
     "reservation (Lifka 1995; Mu'alem & Feitelson 2001)",
     kEasyKeys, config::default_params<config::JobSchedulerParams>, mpl_json},
    true,
    false,
    [](const config::PolicyParams&, int workstations) -> std::unique_ptr<JobScheduler> {
      return std::make_unique<EasyJobScheduler>(workstations);
    }};

}  // namespace cosched::sched
