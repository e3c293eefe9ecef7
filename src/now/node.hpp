#pragma once
// One workstation of the NOW model: its CPU, its local scheduler and the processes placed on it.
// Pure C++ (no SimGrid): the workstation's actor (now/simulation.cpp) hands it the messages that arrive
// and wakes it at its timers; it answers with the messages to send. docs/models/now.md states the rules.

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "barrier/keepalive.hpp"
#include "barrier/protocol.hpp"
#include "config/scenario.hpp"
#include "message/now_message.hpp"
#include "metrics/message_trace.hpp"
#include "metrics/timeline.hpp"
#include "now/job_tracker.hpp"
#include "now/message_ring.hpp"
#include "now/node_results.hpp"
#include "now/spin_wait.hpp"
#include "sched/now/local_scheduler.hpp"
#include "wait/now/now_wait.hpp"
#include "workload/noise.hpp"
#include "workload/now_program.hpp"

namespace cosched::now {

// A process's program, boxed: its 2.5 KB random engine stays out of the Process's cache lines.
// A NEWS program's partners are kept here too: they take no draw, and a read then does not touch the box.
class BoxedProgram {
 public:
  explicit BoxedProgram(workload::ProcessProgram program)
      : program_(std::make_unique<workload::ProcessProgram>(std::move(program))),
        news_(program_->news_partners()) {}
  workload::Phase next_phase() { return program_->next_phase(); }
  int read_partner(std::int64_t read) {
    return news_ ? workload::news_partner(*news_, read) : program_->read_partner(read);
  }

 private:
  std::unique_ptr<workload::ProcessProgram> program_;
  std::optional<std::array<int, 4>> news_;
};

// A job instance as every workstation sees it (read-only during the run).
struct JobLayout {
  std::string name;
  int copy = 0;
  int processes = 0;
  int barriers = 0;
  int tickets = 100;
  int nice = 0;
  std::vector<int> workstation_of;                      // by rank
  std::shared_ptr<const barrier::Protocol> barrier;     // who sends which barrier messages
  std::shared_ptr<const barrier::KeepAlive> keepalive;  // the root's keep-alives; null: none (B&M 3.4)
  std::shared_ptr<const wait::NowWaitAlgorithm> wait;
  workload::ProgramSpec program;
  // wait.prefetch (B&M 4, docs/models/now.md section 5.3): each read's partner gets a wake-up this long
  // (in the reader's dedicated time) before the read; -1: off.
  Nanos prefetch_lead = -1;
};

struct NodeParams {
  int workstation = 0;
  Nanos overhead = 0;        // o: CPU time to send, and to handle, one message
  Nanos context_switch = 0;  // W
  std::uint64_t seed = 1;
  bool timeline = false;  // record each process's state intervals (output.timeline)
  // The run's recorder of messages for the traces (output.trace_messages), shared by every node; null: off.
  metrics::MessageRecorder* messages = nullptr;
  // The run's noise sources (docs/models/now.md section 8); null or empty: none.
  const std::vector<workload::NoiseSource>* noise = nullptr;
  // The layout of the workstation's noise daemon (section 8.2), when a source has as: daemon.
  const JobLayout* daemon = nullptr;
  // Buffered coscheduling (docs/models/now-streams.md section 3.7): strobes every `strobe` from time 0;
  // each message whose send ends leaves at the first strobe after, plus `exchange`. 0: messages leave as
  // their sends end.
  Nanos strobe = 0;
  Nanos exchange = 0;
};

class alignas(64) Node {
 public:
  Node(NodeParams params, std::unique_ptr<sched::LocalScheduler> scheduler,
       const std::vector<JobLayout>* jobs, JobTracker* tracker);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  void add_process(int job, int rank);
  // Admits every process at time 0 and dispatches the first.
  void start();
  // An open workload's job starts here (docs/models/now-streams.md section 5): its process `rank` is added
  // and admitted at `now`, which is not before the node's time; the caller has processed the node's timers
  // up to `now`, and delivers the messages arriving at `now` after.
  void start_process(int job, int rank, Nanos now);
  // An open workload's event at `now` (now/stream.hpp's ProcessStart): rank `rank` of `job` starts, or, for
  // a rank below 0, `job` was suspended or resumed and the local scheduler reconsiders what runs.
  void stream_event(int job, int rank, Nanos now);
  // Processes every timer due at or before `now` (timers before messages of the same instant).
  void advance(Nanos now) {
    const Nanos next = next_timer_time();
    if (next >= 0 && next <= now) process_timers<false>(now);
    now_ = now;
  }
  // Processes the timers due at or before `limit` as long as none puts a message on the network; stops
  // before the first that would. For running ahead of SimGrid's clock up to a time no message can
  // arrive before.
  void advance_quietly(Nanos limit);
  // Processes every timer due at or before `limit`, the messages it sends leaving at the end of their
  // sends (Envelope::leaves): for running ahead to a time no message can arrive before.
  void run_ahead(Nanos limit) { process_timers<false>(limit); }
  // A message arrived at `now` (call advance(now) first).
  void deliver(Nanos now, const Message& message);
  std::optional<Nanos> next_timer() const;
  // The same, -1 for none (cheaper in an engine's inner loop).
  Nanos next_timer_time() const {
    if (only_cpu_timer()) return cpu_timer_;      // most nodes, most of the time
    if (unfinished_ == 0) return release_time();  // its processes are done: only held messages are left
    const Nanos tick = tick_time();
    Nanos next = cpu_timer_ < 0 ? tick : (tick >= 0 && tick < cpu_timer_ ? tick : cpu_timer_);
    if (keepalive_timer_ >= 0 && (next < 0 || keepalive_timer_ < next)) next = keepalive_timer_;
    if (detour_.start >= 0 && (next < 0 || detour_.start < next)) next = detour_.start;
    if (daemon_event_.start >= 0 && (next < 0 || daemon_event_.start < next)) next = daemon_event_.start;
    const Nanos release = release_time();
    if (release >= 0 && (next < 0 || release < next)) next = release;
    return next;
  }
  // A lower bound of when the node next puts a message on the network if no message arrives before:
  // the end of the send in progress, or else the next timer plus the overhead of a send (a send can only
  // start at an event). Until then the actor need only wake for arriving messages.
  std::optional<Nanos> next_send_bound() const;
  // Messages to put on the network, each at its `leaves` (the end of its send); empties the outbox.
  std::vector<Envelope>& outbox() { return *outbox_; }
  // Puts the node's messages in `outbox` (which must outlive the node's sends) rather than its own; an
  // engine that empties it after each node's turn may give all its nodes one (it then stays in cache).
  void share_outbox(std::vector<Envelope>* outbox) { outbox_ = outbox; }
  // Every process has finished and every message it sent has left.
  bool finished() const { return unfinished_ == 0 && held_.empty(); }

  // Results.
  struct ProcessReport {
    int job;
    int rank;
    TimeBreakdown time;
    WaitCounts waits;
    Diagnostics diagnostics;
    BarrierRecord barrier;  // the last barrier it arrived at (the run's barriers are in JobTracker)
    std::optional<sched::FcsRecord> fcs;  // its class under flexible coscheduling
  };
  // Flexible coscheduling: each change of a process's class, as its slot ends (docs/models/now-streams.md
  // section 3.6).
  struct ClassChange {
    Nanos time;
    int job;
    int rank;
    sched::FcsClass cls;
  };
  const std::vector<ClassChange>& class_changes() const { return fcs_changes_; }
  // Per-process breakdowns, closed at each job's completion time.
  std::vector<ProcessReport> reports() const;
  Nanos cpu_busy() const { return busy_; }
  Nanos cpu_spinning() const { return spinning_; }
  std::int64_t messages_sent() const { return messages_sent_; }
  std::int64_t messages_received() const { return messages_received_; }
  std::uint64_t events() const { return events_; }
  // Noise (section 8): the CPU time its detours took plus the work its daemon's events gave it, and how
  // many busy periods of detours it had; its daemon's work, and the CPU time the daemon ran.
  Nanos noise_time() const { return noise_time_ + daemon_work_; }
  std::int64_t detours() const { return detours_; }
  Nanos daemon_work() const { return daemon_work_; }
  Nanos daemon_ran() const;
  int workstation() const { return params_.workstation; }
  // Each process's state intervals (the categories of TimeBreakdown, in the order of timeline_states()),
  // closed at its job's completion as reports() closes the breakdowns, with the job's index; empty unless
  // NodeParams::timeline.
  std::vector<std::pair<int, metrics::TimelineLane>> timeline() const;
  static const std::vector<std::string>& timeline_states();
  // The names of Message::Kind in the traces, in its order.
  static const std::vector<std::string>& message_kinds();

 private:
  enum class ProcState : std::uint8_t { Ready, Running, Blocked, Finished };
  enum class Activity : std::uint8_t { Compute, AwaitRead, AwaitBarrier, Done };
  enum class Category : std::uint8_t {
    Compute,
    Communicate,
    Synchronize,
    Switching,
    Ready,
    BlockedRead,
    BlockedBarrier,
    Finished
  };
  // Stolen: a detour took the CPU while it was idle (section 8).
  enum class CpuState : std::uint8_t { Idle, Switching, Running, Stolen };
  // Detour: a detour took the CPU from the running process's computation or spin (section 8).
  enum class Op : std::uint8_t { None, Handle, Send, Compute, Spin, Detour };

  struct alignas(64) Process {
    Process(int job_index, int rank_in_job, workload::ProcessProgram process_program)
        : job(job_index), rank(rank_in_job), program(std::move(process_program)) {}
    // Laid out by cache line: what a read's events touch first; barriers, keep-alives, diagnostics after.
    // Line 1: the state and the step.
    int job = 0;
    int rank = 0;
    int barrier = 0;  // the phase / barrier it works toward
    ProcState state = ProcState::Ready;
    Activity activity = Activity::Compute;
    Category category = Category::Ready;
    PartnerState read_partner = PartnerState::Running;  // diagnostics: the current read's partner's state
    bool reply_received = false;
    bool prefetches = false;  // wait.prefetch with a NEWS pattern: it wakes its reads' partners
    bool daemon = false;    // the workstation's noise daemon (section 8.2): it computes its work, then blocks
    bool spins = false;     // its scheduler keeps it spinning, process by process (FCS's CS class)
    std::int64_t step = 0;  // 0..reads-1: chunk then read; reads: residual then barrier
    Nanos compute_left = 0;
    Nanos since = 0;
    // Lines 1 and 2: the wait's spin state and rules.
    SpinWait wait;
    // Line 3: the phase and the program; line 4: the time.
    workload::Phase phase;
    BoxedProgram program;
    TimeBreakdown time;
    // Line 5.
    Nanos read_started = 0;
    Nanos woken_at = -1;
    WaitCounts waits;
    // The messages: each ring's bookkeeping and first slot, in which most of its messages pass.
    MessageRing<Message> inbox;     // arrived, not yet handled
    MessageRing<Envelope> to_send;  // messages it must still send (o each)
    // Diagnostics.
    Diagnostics diagnostics;
    BarrierRecord barrier_record;    // the last barrier it arrived at
    Nanos barrier_arrived = 0;       // when it arrived at the barrier it waits at
    barrier::BarrierState barriers;  // barrier messages handled
    Nanos phase_started = 0;         // when its current phase began (its last pass, or 0)
    // Informed waiting: what the root told it of the barrier `told_barrier` (a BarrierReply) and when.
    int told_barrier = -1;
    int told_arrived = 0;
    Nanos told_elapsed = 0;
    Nanos told_at = 0;
    // The root: the barrier it first knew of an arrival at, and when (what its replies measure from).
    int opened_barrier = -1;
    Nanos opened_at = 0;
    std::int64_t prefetched = 0;       // wait.prefetch: reads of the current phase whose partner was woken
    barrier::KeepAliveRoot keepalive;  // the root's keep-alive state (section 4.6)
  };

  Process& running() { return processes_[cpu_process_]; }
  // No scheduler ticks, no noise and no keep-alive timer pending: the CPU's timer is the node's only one.
  bool only_cpu_timer() const { return only_cpu_timer_; }
  // The scheduler's next tick, -1 for none.
  Nanos tick_time() const {
    if (!ticks_) return -1;
    const auto tick = scheduler_->next_tick();
    return tick ? *tick : -1;
  }
  const JobLayout& layout(const Process& p) const { return p.job >= 0 ? (*jobs_)[p.job] : *params_.daemon; }
  static wait::WaitKind wait_kind(const Process& p) {
    return p.activity == Activity::AwaitRead ? wait::WaitKind::Read : wait::WaitKind::Barrier;
  }
  static void add_time(TimeBreakdown& time, Category category, Nanos elapsed);
  void set_category(Process& p, Category category);
  void change_category(Process& p, Category category);
  void on_cpu_timer();
  // Whether process p spins without end at its waits (gang; FCS's CS processes, whose class the node
  // keeps in p.spins: it changes only when measure_processes says so).
  bool spins_always(const Process& p) const { return always_spin_ || (spin_by_process_ && p.spins); }
  sched::ProcessActivity activity_of(const Process& p) const;
  void measure_processes();
  void run_cpu();
  void step_cpu();  // run_cpu's body, inlined where it runs at nearly every event
  void start_phase(Process& p);
  void program_next(Process& p);
  bool wait_satisfied(const Process& p) const;
  void send_barrier_messages(Process& p, const std::vector<barrier::Outgoing>& messages);
  void open_barrier(Process& p, int barrier);
  void prefetch(Process& p);
  const wait::Observation& observe(const Process& p, wait::WaitKind kind) const;
  void complete_wait(Process& p);
  void finish_handle(Process& p, const Message& m);
  void start_op(Op op, Nanos end);
  void leave_cpu(sched::LeaveReason reason);
  void block(Process& p);
  [[gnu::cold]] void log_wait_decision(const Process& p, SpinWait::Next next, int window_messages) const;
  void dispatch();
  void reschedule_check();
  void begin_wait(Process& p, Activity activity);
  void advance_step(Process& p);
  void interrupt_op();
  void start_handle(Process& p);
  // Processes the timers due at or before `limit`; quietly: stops before the end of a send (returning false).
  template <bool kQuietly>
  bool process_timers(Nanos limit);
  // Keep-alives (section 4.6): queue a round, the root's timers, and the root taking the CPU to send.
  void queue_keepalives(Process& p, const std::vector<int>& targets);
  void on_keepalive_timer();
  void update_keepalive_timer();
  void update_only_cpu_timer() {
    only_cpu_timer_ =
        !ticks_ && keepalive_timer_ < 0 && detour_.start < 0 && daemon_event_.start < 0 && held_.empty();
  }
  // Buffered coscheduling (section 3.7): when the held messages next leave, -1 for none; a message whose send
  // just ended is held; the held messages due at now_ leave.
  Nanos release_time() const { return held_.empty() ? -1 : held_.front().leaves; }
  void hold(const Envelope& sent);
  void release_held();
  // A message goes on the network at now_ (its `leaves`; the traces record it).
  void leave(Envelope& sent);
  // A detour takes the CPU (section 8): the operation in progress waits for its end.
  void begin_detour();
  // A daemon event (section 8.2): work for the daemon, which is admitted or woken.
  void daemon_event();
  void wants_cpu(Process& p);
  bool interruptible() const { return op_ == Op::Compute || op_ == Op::Spin || op_ == Op::None; }
  // The process runs and may take its next step now: the CPU is not switching, sending or handling.
  bool steps_now(const Process& p) const {
    return p.state == ProcState::Running && cpu_state_ == CpuState::Running && interruptible();
  }
  // The running process leaves the CPU before its next step: a preemption is pending or its quantum is over.
  bool must_leave_cpu() const { return leave_pending_ || now_ >= quantum_end_; }
  // Asks the scheduler for the running process's slice again (slices_move): an earlier end replaces it.
  void shorten_quantum();

  // What nearly every event reads or writes comes first, in four cache lines.
  // The clock and the CPU.
  Nanos now_ = 0;
  Nanos cpu_timer_ = -1;        // -1: none
  Nanos keepalive_timer_ = -1;  // the earliest root keep-alive timer of the node's processes; -1: none
  Nanos quantum_end_ = 0;
  Nanos op_start_ = 0;
  Nanos op_end_ = 0;
  CpuState cpu_state_ = CpuState::Idle;
  Op op_ = Op::None;
  bool leave_pending_ = false;
  bool ticks_;        // the scheduler has ticks at all (LocalScheduler::ticks)
  bool slices_move_;  // a wake-up may bring the quantum's end sooner (LocalScheduler::slices_move)
  // !ticks_ && keepalive_timer_ < 0, kept by update_keepalive_timer(): one byte to test at every event.
  bool only_cpu_timer_;
  bool always_spin_;
  bool spin_by_process_;  // the scheduler says, process by process, which ones spin without end (FCS)
  bool measures_;         // the scheduler is told each process's activity at its ticks (FCS)
  bool logs_;             // a decision-line category is on (settings are made before the run)
  int cpu_process_ = -1;
  int unfinished_ = 0;
  // The processes, and where messages go.
  std::vector<Process> processes_;
  std::vector<ClassChange> fcs_changes_;
  // The local process id of each job's process here (a job has at most one process per workstation):
  // sorted by job, and by job in a table as well when the run has at most kTableJobs jobs.
  // The table spares each message a search, for a word per job of the run on every workstation.
  struct LocalProcess {
    int job;
    int id;
  };
  static constexpr std::size_t kTableJobs = 256;
  std::vector<int> by_job_;  // by job, -1 for none; empty when the run has more than kTableJobs jobs
  int local_id(int job, int rank) const;
  std::vector<Envelope>* outbox_;  // own_outbox_, or one shared (share_outbox)
  // Counts and times.
  std::uint64_t events_ = 0;
  std::int64_t messages_received_ = 0;
  std::int64_t messages_sent_ = 0;
  std::int64_t messages_handled_ = 0;
  Nanos slice_start_ = 0;
  Nanos busy_since_ = 0;
  Nanos busy_ = 0;
  Nanos spinning_ = 0;
  // The parameters, and the scheduler, jobs and tracker it reports to.
  NodeParams params_;
  std::unique_ptr<sched::LocalScheduler> scheduler_;
  const std::vector<JobLayout>* jobs_;
  JobTracker* tracker_;
  std::unique_ptr<metrics::TimelineRecorder> timeline_;  // null unless NodeParams::timeline
  // Less often.
  std::vector<LocalProcess> local_;  // sorted by job (see by_job_)
  Message handling_;
  int last_process_ = -1;  // the process that ran just before, when no gap followed
  sched::LeaveReason pending_reason_ = sched::LeaveReason::Preempted;
  std::vector<Envelope> own_outbox_;
  // Buffered coscheduling: the messages sent and not yet left, each with the time it leaves, in the order
  // sent (and so of leaving).
  std::deque<Envelope> held_;
  // Noise (section 8): the workstation's detours, the next one (start -1: none), and what they took.
  std::unique_ptr<workload::NoiseStream> noise_;
  workload::Detour detour_{-1, 0};
  Nanos noise_time_ = 0;
  std::int64_t detours_ = 0;
  // The daemon (section 8.2): its events, its process (-1: none), whether the scheduler knows it yet.
  std::unique_ptr<workload::NoiseStream> daemon_noise_;
  workload::Detour daemon_event_{-1, 0};
  int daemon_id_ = -1;
  bool daemon_admitted_ = false;
  Nanos daemon_work_ = 0;
};

// The timeline of a run: every process of every node, by job (scenario order) and rank; timeline.csv writes
// it, and so do the traces (metrics/trace.hpp).
std::vector<metrics::TimelineLane> timeline_lanes(const std::vector<std::unique_ptr<Node>>& nodes);
std::string timeline_csv(const std::vector<std::unique_ptr<Node>>& nodes);

}  // namespace cosched::now
