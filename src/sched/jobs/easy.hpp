#pragma once
// EASY backfilling on dedicated workstations (Lifka 1995; Mu'alem & Feitelson 2001, IEEE TPDS 12(6);
// docs/models/now-streams.md section 3.2): FCFS, except that while the queue's head waits for
// workstations, a later job may start at once if it does not delay the head's reservation.

#include <optional>
#include <vector>

#include "sched/jobs/fcfs.hpp"
#include "sched/jobs/job_scheduler.hpp"
#include "sched/jobs/queue.hpp"

namespace cosched::sched {

class EasyJobScheduler final : public JobScheduler {
 public:
  explicit EasyJobScheduler(int workstations);
  void submit(const StreamJob& job, SimTime now) override;
  void finished(int job, SimTime now) override;
  std::vector<JobStart> decide(SimTime now) override;

  // The blocked head's reservation as the last decide() computed it: when enough workstations are
  // expected free for it (the shadow time) and how many workstations beyond its need are expected free
  // then (the extra nodes). Nothing when the queue was empty or its head started.
  struct Reservation {
    SimTime shadow = 0;
    int extra = 0;
  };
  std::optional<Reservation> reservation() const { return reservation_; }

 private:
  Reservation reserve(const StreamJob& head, SimTime now) const;
  JobStart start(std::size_t index, SimTime now);

  JobQueue queue_;
  DedicatedWorkstations workstations_;
  std::optional<Reservation> reservation_;
};

extern const JobSchedulerEntry kEasyEntry;

}  // namespace cosched::sched
