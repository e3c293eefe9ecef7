#pragma once
// The job-level scheduler of an open workload on the NOW (issue 24; docs/models/now-streams.md): it stands in
// front of the workstations' local schedulers, receives the stream's jobs as they are submitted and decides
// when each starts and on which workstations. Pure decision logic, like the local schedulers: it never
// advances time and never touches SimGrid. The NOW engines (now/stream.cpp) tell it what happened, in time
// order, and start the jobs it returns.
//
// Policies (sched/jobs/job_scheduler_registry.cpp): fcfs and easy on dedicated workstations (one process per
// workstation, each job alone on its workstations); gang (an Ousterhout matrix of `mpl` rows: the job's
// processes share each workstation with the other rows' jobs, one row owning all workstations per global
// slot); time-share (up to `mpl` processes per workstation, the local schedulers and the jobs' waiting
// algorithms doing the rest: implicit coscheduling); fcs (gang's matrix, its workstations classing their
// processes and filling idle slots: flexible coscheduling); buffered (gang's matrix, every message held until
// the next global strobe: buffered coscheduling, strobe); paired-gang (gang's matrix, its rows sharing slots
// in pairs by their measured CPU use); slurm-gang (Slurm's time slicer, which suspends and resumes whole
// jobs: take_signals, next_wakeup).

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/policy.hpp"
#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

// A job of the stream as the scheduler sees it (times in simulated nanoseconds, already scaled).
struct StreamJob {
  int id = 0;  // index in the stream, in submit order
  SimTime submit = 0;
  int processes = 0;     // one per allocated processor of the SWF record
  SimTime estimate = 0;  // the user's requested time (EASY's estimate); the run time when the trace has none
};

// A decision: start `job` now on these workstations (one per process, by rank). `row` is its gang row
// (gang only; -1 otherwise). `suspended`: it is allocated its workstations but stopped until a JobSignal
// resumes it (slurm-gang only).
struct JobStart {
  int job = 0;
  std::vector<int> workstations;
  int row = -1;
  bool suspended = false;
};

// A decision of a policy that suspends and resumes started jobs (slurm-gang): `job` stops, or runs again
// `delay` after the decision reaches its workstations (the resumption's cost).
struct JobSignal {
  int job = 0;
  bool run = false;
  SimTime delay = 0;
};

class JobScheduler {
 public:
  virtual ~JobScheduler() = default;
  // Called in time order; several events at the same time come in this order: finishes (by job id), then
  // submits (by job id), then one call to decide().
  virtual void submit(const StreamJob& job, SimTime now) = 0;
  // A job it started has finished (its last process passed its last barrier) at `now`.
  virtual void finished(int job, SimTime now) = 0;
  // The jobs to start at `now`, in the order they are started; each is started exactly when returned.
  virtual std::vector<JobStart> decide(SimTime now) = 0;
  // The suspensions and resumptions of started jobs decided since the last call (by finished() and
  // decide()), in the order decided; asked after each decide().
  virtual std::vector<JobSignal> take_signals() { return {}; }
  // The next time the policy acts of its own accord (a time slicer's wake-up): decide() is then called
  // with nothing new. Nothing: it acts only on submits and finishes. Asked after each decide().
  virtual std::optional<SimTime> next_wakeup() const { return std::nullopt; }
};

// Buffered coscheduling's strobes (docs/models/now-streams.md section 3.7): a global strobe every `interval`
// from time 0, and each message leaving `exchange` after the first strobe that follows the end of its send.
struct MessageStrobe {
  SimTime interval = 0;
  SimTime exchange = 0;
};

// A job scheduler as its registry lists it (sched/jobs/job_scheduler_registry.hpp); each policy declares its
// own beside its code: what every policy declares (its parameters derive from config::JobSchedulerParams),
// and the family's traits and factory.
struct JobSchedulerEntry {
  config::PolicySpec spec;
  // Each job alone on its workstations, one process per workstation (fcfs, easy).
  bool dedicated = false;
  // The workstations run the gang local scheduler over the policy's rows (JobStart::row).
  bool gang_rows = false;
  std::unique_ptr<JobScheduler> (*make)(const config::PolicyParams& params, int workstations);
  // The workstations run the gang local scheduler over the jobs the policy has running (JobStart::suspended,
  // JobSignal).
  bool suspends = false;
  // Sets what the policy adds to the workstations' gang matrix (fcs: its classification thresholds;
  // paired-gang: its pairing rule); null: nothing.
  void (*configure_matrix)(const config::PolicyParams& params, GangMatrix& matrix) = nullptr;
  // The strobes its workstations buffer their messages to, given the gang slot (buffered); null: none, each
  // message leaves as its send ends.
  MessageStrobe (*strobe)(const config::PolicyParams& params, SimTime slot) = nullptr;
  // Its workstations share what each measured in a slot as the slot ends, and every one decides the next
  // slots on all the reports (paired-gang): a slot must exceed how far one workstation's events may be
  // processed ahead of (L) or behind (o) another's.
  bool shares_slot_reports = false;
  // The local scheduler it needs (gang_rows, suspends): gang.
  bool needs_gang() const { return gang_rows || suspends; }
};

// Choice (docs/models/now-streams.md section 3): at most 16 jobs per workstation under the time-sharing
// policies. The sources studied 2 to 6 (the sweep asks for 2 and 4); each row or process costs
// memory on every workstation (Batat & Feitelson 2000), so a bound keeps typos out without limiting a study.
inline constexpr int kMaxMpl = 16;

// job_scheduler.mpl of `policy`, which takes 1 to `max` (1: it runs one job per workstation).
template <const char* policy, int max>
constexpr config::PolicyKey mpl_key(std::string_view doc) {
  return {"mpl", doc, [](const config::Field& f, config::PolicyParams& params) {
            const auto mpl = f.positive_integer();
            if (mpl > max)
              f.fail(max == 1
                         ? fmt::format("1 (policy {} runs one job per workstation)", policy)
                         : fmt::format("a multiprogramming level from 1 to {} for policy {}", max, policy));
            config::params_as<config::JobSchedulerParams>(params).mpl = static_cast<int>(mpl);
          }};
}

// A time-sharing policy's check: with mpl 1 it shares no workstation, so it is fcfs under another name.
// Warned about, not refused (docs/models/now-streams.md section 3): mpl is a natural sweep axis and 1 its
// baseline. The warning names job_scheduler.mpl, or the mapping when mpl was left at its default of 1.
inline void warn_single_level(config::MapReader& map, const config::PolicyParams& params,
                              std::string_view what) {
  if (static_cast<const config::JobSchedulerParams&>(params).mpl != 1) return;
  const auto& section = map.field();
  const auto mpl = section.node()["mpl"];
  (mpl ? section.child(mpl, "mpl") : section)
      .warn(fmt::format("{}; set mpl to 2 or more for jobs to share workstations", what));
}

// The resolved form every job scheduler has: its mpl.
inline void mpl_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  out["mpl"] = static_cast<const config::JobSchedulerParams&>(params).mpl;
}

}  // namespace cosched::sched
