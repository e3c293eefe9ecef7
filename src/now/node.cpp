#include "now/node.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "util/log.hpp"
#include "util/normal.hpp"

XBT_LOG_EXTERNAL_CATEGORY(cosched_now_node);
XBT_LOG_EXTERNAL_CATEGORY(cosched_now_wait);
XBT_LOG_EXTERNAL_CATEGORY(cosched_barrier);

// Decision lines (README, "Why did it do that?"): who, when in simulated seconds (as in timeline.csv), why.
// The engines print the same lines. Nothing is formatted unless the category is on.
// logs_ first: one byte in the node's first cache line, cheaper than the category's threshold.
#define NOW_LOG_ON(category) (logs_ && XBT_LOG_ISENABLED(category, xbt_log_priority_debug))
#define NOW_LOG(category, p, format, ...)                                                          \
  do {                                                                                             \
    if (NOW_LOG_ON(category)) [[unlikely]]                                                         \
      COSCHED_COLD_CDEBUG(category, "ws %d t=%ss job %s#%d rank %d: " format, params_.workstation, \
                          at(now_).c_str(), layout(p).name.c_str(), layout(p).copy,                \
                          (p).rank __VA_OPT__(, ) __VA_ARGS__);                                    \
  } while (0)

namespace cosched::now {

using sched::LeaveReason;

namespace {

std::string at(Nanos time) {
  return metrics::format_time(time, metrics::TimelineTime::NanosAsSeconds);
}

const char* kind_name(Message::Kind kind) {
  switch (kind) {
    case Message::Kind::ReadRequest:
      return "read request";
    case Message::Kind::ReadReply:
      return "read reply";
    case Message::Kind::BarrierArrival:
      return "barrier arrival";
    case Message::Kind::BarrierNotice:
      return "barrier notice";
    case Message::Kind::BarrierReply:
      return "arrival reply";
    case Message::Kind::Wakeup:
      return "wake-up";
    case Message::Kind::KeepAlive:
      return "keep-alive";
  }
  return "message";
}

const char* wait_name(wait::WaitKind kind) {
  return kind == wait::WaitKind::Read ? "read" : "barrier";
}

const char* reason_name(LeaveReason reason) {
  switch (reason) {
    case LeaveReason::Blocked:
      return "blocked";
    case LeaveReason::Finished:
      return "finished";
    case LeaveReason::QuantumExpired:
      return "quantum expired";
    case LeaveReason::Preempted:
      return "preempted";
  }
  return "left";
}

}  // namespace

// [[gnu::always_inline]]: run at nearly every event from one or two callers; inlining saves the calls.

Node::Node(NodeParams params, std::unique_ptr<sched::LocalScheduler> scheduler,
           const std::vector<JobLayout>* jobs, JobTracker* tracker)
    : ticks_(scheduler->ticks()),
      slices_move_(scheduler->slices_move()),
      only_cpu_timer_(!ticks_),
      always_spin_(scheduler->processes_always_spin()),
      spin_by_process_(scheduler->spins_by_process()),
      measures_(scheduler->measures()),
      logs_(XBT_LOG_ISENABLED(cosched_now_node, xbt_log_priority_debug) ||
            XBT_LOG_ISENABLED(cosched_now_wait, xbt_log_priority_debug) ||
            XBT_LOG_ISENABLED(cosched_barrier, xbt_log_priority_debug)),
      outbox_(&own_outbox_),
      params_(params),
      scheduler_(std::move(scheduler)),
      jobs_(jobs),
      tracker_(tracker) {
  if (params_.timeline) timeline_ = std::make_unique<metrics::TimelineRecorder>();
  if (params_.noise && !params_.noise->empty()) {
    noise_ = std::make_unique<workload::NoiseStream>(params_.noise, params_.workstation, params_.seed);
    if (noise_->empty()) {
      noise_.reset();
    } else {
      detour_ = noise_->next();
    }
    if (params_.daemon) {
      daemon_noise_ =
          std::make_unique<workload::NoiseStream>(params_.noise, params_.workstation, params_.seed, true);
      if (daemon_noise_->empty()) {
        daemon_noise_.reset();
      } else {
        daemon_event_ = daemon_noise_->next();
      }
    }
  }
  update_only_cpu_timer();
}

void Node::add_process(int job, int rank) {
  const JobLayout& layout = (*jobs_)[job];
  const auto at = std::lower_bound(local_.begin(), local_.end(), job,
                                   [](const LocalProcess& l, int j) { return l.job < j; });
  if (at != local_.end() && at->job == job)
    throw std::logic_error("NOW node: two processes of one job on one workstation");
  local_.insert(at, LocalProcess{job, static_cast<int>(processes_.size())});
  if (jobs_->size() <= kTableJobs) {
    by_job_.resize(jobs_->size(), -1);
    by_job_[job] = static_cast<int>(processes_.size());
  }
  Process p(job, rank,
            workload::ProcessProgram(layout.program, rank, util::mix_seed(params_.seed, job + 1, rank)));
  if (!layout.barrier) throw std::logic_error("NOW node: a job without a barrier protocol");
  p.barriers = barrier::BarrierState(layout.barriers);
  if (layout.wait) p.wait.set_algorithm(*layout.wait);
  p.prefetches = layout.prefetch_lead >= 0 && layout.program.pattern == config::Pattern::News;
  processes_.push_back(std::move(p));
}

[[gnu::always_inline]] inline int Node::local_id(int job, int rank) const {
  int id = -1;
  if (!by_job_.empty()) {
    if (job >= 0 && static_cast<std::size_t>(job) < by_job_.size()) id = by_job_[job];
  } else {
    const auto at = std::lower_bound(local_.begin(), local_.end(), job,
                                     [](const LocalProcess& l, int j) { return l.job < j; });
    if (at != local_.end() && at->job == job) id = at->id;
  }
  if (id < 0 || processes_[id].rank != rank) return -1;
  return id;
}

void Node::start() {
  now_ = 0;
  for (std::size_t id = 0; id < processes_.size(); ++id) {
    auto& p = processes_[id];
    scheduler_->admit(static_cast<int>(id), p.job, {layout(p).tickets, layout(p).nice}, 0);
    if (spin_by_process_) p.spins = scheduler_->process_always_spins(static_cast<int>(id));
    start_phase(p);
  }
  unfinished_ = static_cast<int>(processes_.size());
  // The daemon (section 8.2): blocked, and unknown to the scheduler until its first event gives it work.
  if (daemon_noise_) {
    daemon_id_ = static_cast<int>(processes_.size());
    processes_.emplace_back(sched::kSystemJob, 0,
                            workload::ProcessProgram(params_.daemon->program, 0, params_.seed));
    auto& d = processes_.back();
    d.daemon = true;
    d.state = ProcState::Blocked;
    d.category = Category::BlockedBarrier;
  }
  if (timeline_) {
    *timeline_ = metrics::TimelineRecorder(static_cast<int>(processes_.size()));
    for (std::size_t id = 0; id < processes_.size(); ++id)
      timeline_->enter(static_cast<int>(id), now_, static_cast<int>(processes_[id].category),
                       params_.workstation);
  }
  if (!processes_.empty()) dispatch();
}

void Node::start_process(int job, int rank, Nanos now) {
  if (now < now_) throw std::logic_error("NOW node: a job started in the node's past");
  now_ = now;
  ++events_;
  add_process(job, rank);
  const int id = static_cast<int>(processes_.size()) - 1;
  auto& p = processes_[id];
  p.since = now_;
  scheduler_->admit(id, p.job, {layout(p).tickets, layout(p).nice}, now_);
  if (spin_by_process_) p.spins = scheduler_->process_always_spins(id);
  start_phase(p);
  ++unfinished_;
  if (timeline_)
    timeline_->enter(timeline_->add_process(), now_, static_cast<int>(p.category), params_.workstation);
  NOW_LOG(cosched_now_node, p, "starts: admitted");
  reschedule_check();
}

sched::ProcessActivity Node::activity_of(const Process& p) const {
  TimeBreakdown time = p.time;
  add_time(time, p.category, now_ - p.since);  // the interval it is in
  std::int64_t waits = p.barrier;              // barriers passed, and reads answered
  for (const auto& reads : p.diagnostics.reads) waits += reads.count;
  return {time.compute, time.communicate + time.synchronize + time.blocked_read + time.blocked_barrier,
          waits};
}

void Node::measure_processes() {
  for (std::size_t id = 0; id < processes_.size(); ++id) {
    auto& p = processes_[id];
    if (p.daemon || p.state == ProcState::Finished || p.category == Category::Finished) continue;
    const int process = static_cast<int>(id);
    if (!scheduler_->measure(process, activity_of(p), now_)) continue;
    fcs_changes_.push_back({now_, p.job, p.rank, scheduler_->fcs_record(process)->cls});
    p.spins = scheduler_->process_always_spins(process);
  }
}

void Node::stream_event(int job, int rank, Nanos now) {
  if (rank >= 0) {
    start_process(job, rank, now);
    return;
  }
  if (now < now_) throw std::logic_error("NOW node: a job suspended or resumed in the node's past");
  now_ = now;
  ++events_;
  reschedule_check();
}

std::optional<Nanos> Node::next_timer() const {
  const Nanos next = next_timer_time();
  return next >= 0 ? std::optional<Nanos>(next) : std::nullopt;
}

std::optional<Nanos> Node::next_send_bound() const {
  // Held messages leave at their time; nothing else sends before a send's end, or a timer plus a send.
  std::optional<Nanos> bound;
  if (cpu_state_ == CpuState::Running && op_ == Op::Send && params_.strobe == 0) {
    bound = op_end_;
  } else if (auto next = next_timer()) {
    bound = *next + params_.overhead;
  }
  const Nanos release = release_time();
  if (release >= 0 && (!bound || release < *bound)) bound = release;
  return bound;
}

void Node::advance_quietly(Nanos limit) {
  process_timers<true>(limit);
}

template <bool kQuietly>
bool Node::process_timers(Nanos limit) {
  // A workstation whose processes have all finished has nothing left to do: its scheduler's later ticks
  // are not events, whatever engine drives it and however far ahead.
  while (unfinished_ > 0 || !held_.empty()) {
    if (unfinished_ == 0) {  // the processes are done; only their last messages are still to leave
      if (release_time() > limit) return true;
      if (kQuietly) return false;
      now_ = release_time();
      ++events_;
      release_held();
      continue;
    }
    // (None, -1, compares as the largest unsigned value: one comparison.)
    const bool cpu_due = static_cast<std::uint64_t>(cpu_timer_) <= static_cast<std::uint64_t>(limit);
    // Scheduler ticks, keep-alive timers, detours, daemon events and held messages leaving, when the node has
    // any (most have none): the earliest first, and at one instant the tick, the CPU's timer (the work that
    // ends as a detour begins is done), a keep-alive (it sends nothing by itself), a detour, a daemon's
    // event, held messages leaving (which changes nothing on the node: quietly, it stops before them).
    if (!only_cpu_timer()) {
      static constexpr Nanos kNone = std::numeric_limits<Nanos>::max();
      const auto due = [limit](Nanos at) { return at >= 0 && at <= limit ? at : kNone; };
      const Nanos tick = due(tick_time());
      const Nanos keepalive = due(keepalive_timer_);
      const Nanos detour = due(detour_.start);
      const Nanos daemon = due(daemon_event_.start);
      const Nanos release = due(release_time());
      const Nanos first = std::min({tick, cpu_due ? cpu_timer_ : kNone, keepalive, detour, daemon, release});
      if (first == kNone) return true;
      if (tick == first) {
        now_ = tick;
        ++events_;
        if (measures_) measure_processes();
        scheduler_->tick(now_);
        reschedule_check();
        continue;
      }
      if (!cpu_due || cpu_timer_ != first) {
        if (kQuietly && keepalive != first && detour != first && daemon != first) return false;
        now_ = first;
        ++events_;
        if (keepalive == first) {
          on_keepalive_timer();
        } else if (detour == first) {
          begin_detour();
        } else if (daemon == first) {
          daemon_event();
        } else {
          release_held();
        }
        continue;
      }
    }
    if (!cpu_due) return true;
    // The end of a send puts its message on the network (unless buffered: then it leaves at a strobe).
    if (kQuietly && cpu_state_ == CpuState::Running && op_ == Op::Send && params_.strobe == 0) return false;
    now_ = cpu_timer_;
    cpu_timer_ = -1;
    ++events_;
    on_cpu_timer();
  }
  return true;
}
template bool Node::process_timers<false>(Nanos limit);
template bool Node::process_timers<true>(Nanos limit);

// Buffered coscheduling (docs/models/now-streams.md section 3.7, Petrini & Feng 2000): a message is
// buffered as its send ends, and leaves after the strobe that ends the strobe interval it was sent in, once
// the strobe's total exchange is done. A send ending on a strobe belongs to the interval it opens.
void Node::hold(const Envelope& sent) {
  const Nanos strobe = (now_ / params_.strobe + 1) * params_.strobe;
  held_.push_back(sent);
  held_.back().leaves = strobe + params_.exchange;
  update_only_cpu_timer();
}

void Node::release_held() {
  while (!held_.empty() && held_.front().leaves <= now_) {
    outbox_->push_back(held_.front());
    leave(outbox_->back());
    held_.pop_front();
  }
  update_only_cpu_timer();
}

void Node::leave(Envelope& sent) {
  sent.leaves = now_;
  if (params_.messages)
    sent.message.trace_id = static_cast<std::int32_t>(params_.messages->sent(
        params_.workstation, sent.workstation, static_cast<int>(sent.message.kind), now_));
}

void Node::add_time(TimeBreakdown& time, Category category, Nanos elapsed) {
  // The field of each category, indexed by Category (a table: this runs at every change of state).
  static constexpr Nanos TimeBreakdown::*kField[] = {
      &TimeBreakdown::compute,         &TimeBreakdown::communicate, &TimeBreakdown::synchronize,
      &TimeBreakdown::switching,       &TimeBreakdown::ready,       &TimeBreakdown::blocked_read,
      &TimeBreakdown::blocked_barrier, &TimeBreakdown::finished};
  static_assert(static_cast<int>(Category::Compute) == 0 && static_cast<int>(Category::Communicate) == 1 &&
                static_cast<int>(Category::Synchronize) == 2 && static_cast<int>(Category::Switching) == 3 &&
                static_cast<int>(Category::Ready) == 4 && static_cast<int>(Category::BlockedRead) == 5 &&
                static_cast<int>(Category::BlockedBarrier) == 6 && static_cast<int>(Category::Finished) == 7);
  time.*kField[static_cast<int>(category)] += elapsed;
}

[[gnu::always_inline]] inline void Node::set_category(Process& p, Category category) {
  // The same category goes on: its time is booked when it ends (the timeline merges it the same way).
  if (category != p.category) change_category(p, category);
}

void Node::change_category(Process& p, Category category) {
  add_time(p.time, p.category, now_ - p.since);
  p.category = category;
  p.since = now_;
  if (timeline_)
    timeline_->enter(static_cast<int>(&p - processes_.data()), now_, static_cast<int>(category),
                     params_.workstation);
}

void Node::start_phase(Process& p) {
  p.phase = p.program.next_phase();
  p.step = 0;
  p.compute_left = p.phase.reads > 0 ? p.phase.chunk : p.phase.residual;
  p.activity = Activity::Compute;
  p.phase_started = now_;
  p.prefetched = 0;
  if (p.prefetches) prefetch(p);
}

[[gnu::always_inline]] inline void Node::advance_step(Process& p) {
  ++p.step;
  p.compute_left = p.step < p.phase.reads ? p.phase.chunk : p.phase.residual;
  p.activity = Activity::Compute;
  if (p.prefetches) prefetch(p);
}

// wait.prefetch (B&M 4, docs/models/now.md section 5.3): at the start of the computation before read i,
// the process wakes the partner of every read j not yet prefetched with j - i <= A, A the fewest reads
// ahead whose distance in dedicated time, (j - i)(c + 2L + 4o) + c, reaches the lead: each read's partner
// is woken at least the lead before the read, except the first A of a phase, woken at its start.
// (Called only for a process that prefetches, Process::prefetches.)
void Node::prefetch(Process& p) {
  const JobLayout& job = layout(p);
  if (p.step >= p.phase.reads) return;
  const Nanos chunk = p.phase.chunk;
  const Nanos step = chunk + job.program.read_round_trip;
  const std::int64_t ahead =
      job.prefetch_lead > chunk && step > 0 ? (job.prefetch_lead - chunk + step - 1) / step : 0;
  const std::int64_t last = std::min(p.phase.reads - 1, p.step + ahead);
  for (; p.prefetched <= last; ++p.prefetched) {
    const int partner = p.program.read_partner(p.prefetched);
    if (partner == p.rank) continue;  // a local read: nobody to wake
    p.to_send.push_back({job.workstation_of[partner], {Message::Kind::Wakeup, p.job, p.rank, partner, 0}});
    ++p.diagnostics.wakeups_sent;
  }
}

void Node::open_barrier(Process& p, int barrier) {
  if (p.opened_barrier == barrier) return;
  p.opened_barrier = barrier;
  p.opened_at = now_;
}

void Node::begin_wait(Process& p, Activity activity) {
  p.activity = activity;
  p.reply_received = false;
  p.wait.begin();
}

// The computation before the current step is done: read, or arrive at the barrier.
[[gnu::always_inline]] inline void Node::program_next(Process& p) {
  const JobLayout& job = layout(p);
  if (p.step < p.phase.reads) {
    const int partner = p.program.read_partner(p.step);
    if (partner == p.rank) {  // a torus too small to have that neighbour: the data is local
      advance_step(p);
      return;
    }
    begin_wait(p, Activity::AwaitRead);
    p.read_started = now_;
    p.to_send.push_back(
        {job.workstation_of[partner], {Message::Kind::ReadRequest, p.job, p.rank, partner, 0}});
    return;
  }
  begin_wait(p, Activity::AwaitBarrier);
  p.barrier_arrived = now_;
  p.barrier_record = {now_, -1, 0};
  tracker_->barrier_arrived(p.job, p.barrier, now_);
  open_barrier(p, p.barrier);
  std::vector<barrier::Outgoing> out;
  job.barrier->arrive(p.barriers, p.rank, p.barrier, out);
  NOW_LOG(cosched_barrier, p, "arrives at barrier %d, sends %zu messages", p.barrier, out.size());
  send_barrier_messages(p, out);
  if (job.keepalive && p.rank == 0) {
    queue_keepalives(p, job.keepalive->root_arrives(p.keepalive, p.barrier, now_));
    update_keepalive_timer();
  }
}

void Node::send_barrier_messages(Process& p, const std::vector<barrier::Outgoing>& messages) {
  const JobLayout& job = layout(p);
  for (const auto& m : messages) {
    Message message{m.kind, p.job, p.rank, m.to, m.barrier};
    if (m.kind == Message::Kind::BarrierReply) {
      // The root tells how many have arrived, itself included once it has, and since when it knows of
      // the barrier (informed waiting, docs/models/now.md section 5.2).
      const bool here =
          p.barrier > m.barrier || (p.barrier == m.barrier && p.activity == Activity::AwaitBarrier);
      message.arrived = p.barriers.arrivals[m.barrier] + (here ? 1 : 0);
      message.elapsed = now_ - p.opened_at;
    }
    p.to_send.push_back({job.workstation_of[m.to], message});
  }
}

bool Node::wait_satisfied(const Process& p) const {
  if (p.activity == Activity::AwaitRead) return p.reply_received;
  return layout(p).barrier->passed(p.barriers, p.rank, p.barrier);
}

[[gnu::always_inline]] inline const wait::Observation& Node::observe(const Process& p,
                                                                     wait::WaitKind kind) const {
  // One Observation for all the thread's nodes, read by the wait algorithm at once (a fresh one costs a
  // `rep stos`), so every field is set here; a field added to Observation must be set here too:
  static_assert(sizeof(wait::Observation) == 112, "set every field of wait::Observation below");
  static thread_local wait::Observation seen;
  seen.kind = kind;
  seen.phase_length = p.wait.phase_length();
  seen.messages = p.wait.messages();
  const Nanos last_message = p.wait.last_message();
  seen.since_last_message = last_message >= 0 ? std::optional<Nanos>(now_ - last_message) : std::nullopt;
  seen.barrier_elapsed = 0;
  seen.arrived = std::nullopt;
  seen.told_elapsed = 0;
  seen.since_told = 0;
  seen.phase_elapsed = 0;
  seen.phase_dedicated = 0;
  if (kind == wait::WaitKind::Barrier) {
    seen.barrier_elapsed = now_ - p.barrier_arrived;
    seen.phase_elapsed = p.barrier_arrived - p.phase_started;
    seen.phase_dedicated = p.phase.budget;
    if (layout(p).wait->needs_arrival_replies()) {
      if (p.rank == 0) {  // the root knows
        seen.arrived = p.barriers.arrivals[p.barrier] + 1;
        seen.told_elapsed = now_ - p.opened_at;
      } else if (p.told_barrier == p.barrier) {
        seen.arrived = p.told_arrived;
        seen.told_elapsed = p.told_elapsed;
        seen.since_told = now_ - p.told_at;
      }
    }
  }
  return seen;
}

[[gnu::always_inline]] inline void Node::complete_wait(Process& p) {
  const bool barrier = p.activity == Activity::AwaitBarrier;
  if (p.wait.spun()) {
    (barrier ? p.waits.barrier_spins : p.waits.read_spins) += 1;
    if (!p.wait.blocked()) (barrier ? p.waits.barrier_spins_successful : p.waits.read_spins_successful) += 1;
  }
  p.wait.complete();
  if (!barrier) {
    auto& stats = p.diagnostics.reads[static_cast<int>(p.read_partner)];
    ++stats.count;
    stats.time += now_ - p.read_started;
    advance_step(p);
    return;
  }
  p.barrier_record.passed = now_;
  tracker_->barrier_passed(p.job, p.barrier, now_);
  const JobLayout& job = layout(p);
  if (job.keepalive && p.rank == 0) {
    job.keepalive->root_passes(p.keepalive);
    update_keepalive_timer();
  }
  std::vector<barrier::Outgoing> out;
  job.barrier->pass(p.rank, p.barrier, out);
  NOW_LOG(cosched_barrier, p, "passes barrier %d, sends %zu notices", p.barrier, out.size());
  send_barrier_messages(p, out);
  if (++p.barrier == job.barriers) {
    p.activity = Activity::Done;
  } else {
    start_phase(p);
  }
}

[[gnu::always_inline]] inline void Node::finish_handle(Process& p, const Message& m) {
  // Reads, most messages, by tests first: a switch is an indirect jump the mix of kinds mispredicts.
  if (m.kind == Message::Kind::ReadRequest) {
    // The Active Message handler sends the reply at once: it is the next thing this process sends.
    p.to_send.push_front(
        {layout(p).workstation_of[m.from], {Message::Kind::ReadReply, m.job, p.rank, m.from, 0, m.partner}});
    return;
  }
  if (m.kind == Message::Kind::ReadReply) {
    p.reply_received = true;
    p.read_partner = static_cast<PartnerState>(m.partner);
    return;
  }
  switch (m.kind) {
    case Message::Kind::ReadRequest:
    case Message::Kind::ReadReply:
      throw std::logic_error("Node::finish_handle: read messages are finished by the tests above");
    case Message::Kind::BarrierReply:
      ++p.diagnostics.arrival_replies;
      p.told_barrier = m.barrier;
      p.told_arrived = m.arrived;
      p.told_elapsed = m.elapsed;
      p.told_at = now_;
      // Informed waiting: the process decides afresh with what it was told.
      if (p.activity == Activity::AwaitBarrier && p.barrier == m.barrier) p.wait.decide_afresh();
      break;
    case Message::Kind::Wakeup:
      ++p.diagnostics.wakeups_received[m.partner];
      break;
    case Message::Kind::BarrierArrival:
    case Message::Kind::BarrierNotice: {
      if (m.kind == Message::Kind::BarrierArrival) open_barrier(p, m.barrier);
      std::vector<barrier::Outgoing> out;
      layout(p).barrier->receive(p.barriers, p.rank, m, out);
      NOW_LOG(cosched_barrier, p, "handles the %s of rank %d for barrier %d, sends %zu messages",
              kind_name(m.kind), m.from, m.barrier, out.size());
      send_barrier_messages(p, out);
      // The root handled a registration: a keep-alive round, when due (section 4.6).
      if (const auto& keepalive = layout(p).keepalive;
          keepalive && p.rank == 0 && m.kind == Message::Kind::BarrierArrival) {
        queue_keepalives(p, keepalive->registration(p.keepalive, m.barrier, m.from, now_));
        update_keepalive_timer();
      }
      break;
    }
    case Message::Kind::KeepAlive:
      ++p.diagnostics.keepalives_handled;  // its effect was its arrival (Node::deliver)
      break;
  }
}

void Node::queue_keepalives(Process& p, const std::vector<int>& targets) {
  if (targets.empty()) return;
  const JobLayout& job = layout(p);
  for (int to : targets)
    p.to_send.push_back({job.workstation_of[to], {Message::Kind::KeepAlive, p.job, p.rank, to, p.barrier}});
  for (int to : targets) p.keepalive.queued[to] = 1;
  ++p.diagnostics.keepalive_rounds;
  NOW_LOG(cosched_barrier, p, "keep-alive round at barrier %d: %zu keep-alives", p.barrier, targets.size());
}

void Node::update_keepalive_timer() {
  keepalive_timer_ = -1;
  for (const auto& p : processes_)
    if (p.keepalive.due >= 0 && (keepalive_timer_ < 0 || p.keepalive.due < keepalive_timer_))
      keepalive_timer_ = p.keepalive.due;
  update_only_cpu_timer();
}

void Node::on_keepalive_timer() {
  for (auto& p : processes_) {
    if (p.keepalive.due != now_ || p.state == ProcState::Finished) continue;
    const std::size_t before = p.to_send.size();
    queue_keepalives(p, layout(p).keepalive->timer(p.keepalive, now_));
    if (p.to_send.size() > before) wants_cpu(p);
  }
  update_keepalive_timer();
}

// A process that has something to send gets the CPU as a message would give it: at once if it runs and
// the CPU is not sending or handling, by waking it if it is blocked; a ready process waits for its turn.
[[gnu::always_inline]] inline void Node::wants_cpu(Process& p) {
  switch (p.state) {
    case ProcState::Running:
      if (steps_now(p)) {
        interrupt_op();
        step_cpu();
      }
      break;
    case ProcState::Blocked: {
      const int id = static_cast<int>(&p - processes_.data());
      NOW_LOG(cosched_now_wait, p, "woken: a message to handle or send");
      NOW_LOG(cosched_now_node, p, "wakes: ready");
      p.state = ProcState::Ready;
      p.woken_at = now_;
      set_category(p, Category::Ready);
      scheduler_->wake(id, now_);
      reschedule_check();
      break;
    }
    case ProcState::Ready:
    case ProcState::Finished:
      break;
  }
}

void Node::start_op(Op op, Nanos end) {
  op_ = op;
  op_start_ = now_;
  op_end_ = end;
  // Handling and sending a message are not interrupted, not even by the end of the quantum.
  cpu_timer_ = (op == Op::Compute || op == Op::Spin) ? std::min(end, quantum_end_) : end;
}

// The running process starts handling the message in handling_.
[[gnu::always_inline]] inline void Node::start_handle(Process& p) {
  set_category(p, Category::Compute);
  start_op(Op::Handle, now_ + params_.overhead);
}

[[gnu::always_inline]] inline void Node::interrupt_op() {
  auto& p = running();
  if (op_ == Op::Compute) p.compute_left -= now_ - op_start_;
  if (op_ == Op::Spin) spinning_ += now_ - op_start_;
  op_ = Op::None;
  cpu_timer_ = -1;
}

// Section 8: the CPU is taken from now_ to the detour's end. An idle CPU stays unavailable until then; a
// context switch, a handler and a send (which nothing interrupts) end the detour's length later; a
// computation or a spin stops, with what it did so far counted, and goes on when the detour ends.
void Node::begin_detour() {
  const workload::Detour detour = detour_;
  detour_ = noise_->next();
  if (detour_.start < 0) update_only_cpu_timer();
  ++detours_;
  noise_time_ += detour.duration;
  switch (cpu_state_) {
    case CpuState::Idle:
      cpu_state_ = CpuState::Stolen;
      cpu_timer_ = detour.end();
      return;
    case CpuState::Switching:
      cpu_timer_ += detour.duration;
      return;
    case CpuState::Stolen:
      throw std::logic_error("NOW node: a detour began during another (NoiseStream queues them)");
    case CpuState::Running:
      if (op_ == Op::Handle || op_ == Op::Send) {
        cpu_timer_ += detour.duration;
        op_end_ += detour.duration;
        return;
      }
      if (op_ == Op::Detour)
        throw std::logic_error("NOW node: a detour began during another (NoiseStream queues them)");
      interrupt_op();
      op_ = Op::Detour;
      op_start_ = now_;
      op_end_ = detour.end();
      cpu_timer_ = op_end_;
      return;
  }
}

// Section 8.2: the event's duration is work for the daemon; a daemon with nothing to do is blocked and
// wakes (admitted at its first event), one computing goes on with the more work, one ready or switching in
// will find it.
void Node::daemon_event() {
  const workload::Detour event = daemon_event_;
  daemon_event_ = daemon_noise_->next();
  if (daemon_event_.start < 0) update_only_cpu_timer();
  daemon_work_ += event.duration;
  auto& d = processes_[daemon_id_];
  d.compute_left += event.duration;
  if (d.state == ProcState::Blocked) {
    d.state = ProcState::Ready;
    d.woken_at = now_;
    set_category(d, Category::Ready);
    if (daemon_admitted_) {
      scheduler_->wake(daemon_id_, now_);
    } else {
      scheduler_->admit(daemon_id_, sched::kSystemJob, {layout(d).tickets, layout(d).nice}, now_);
      daemon_admitted_ = true;
    }
    reschedule_check();
    return;
  }
  if (cpu_process_ == daemon_id_ && op_ == Op::Compute) {
    interrupt_op();
    step_cpu();
  }
}

Nanos Node::daemon_ran() const {
  if (daemon_id_ < 0) return 0;
  const auto& d = processes_[daemon_id_];
  return d.time.compute + (d.category == Category::Compute ? now_ - d.since : 0);
}

[[gnu::always_inline]] inline void Node::on_cpu_timer() {
  if (cpu_state_ == CpuState::Stolen) {  // the end of a detour that took an idle CPU
    cpu_state_ = CpuState::Idle;
    cpu_timer_ = -1;
    dispatch();
    return;
  }
  if (cpu_state_ == CpuState::Switching) {
    cpu_state_ = CpuState::Running;
    slice_start_ = now_;
    quantum_end_ = now_ + scheduler_->time_slice(cpu_process_, now_);
    op_ = Op::None;
    NOW_LOG(cosched_now_node, running(), "switched in, quantum until t=%ss", at(quantum_end_).c_str());
    // A process woken during the switch may outrank the one switched in.
    if (scheduler_->should_preempt(cpu_process_, now_, 0)) {
      leave_cpu(scheduler_->preempt_reason());
      return;
    }
    run_cpu();
    return;
  }
  auto& p = running();
  switch (op_) {
    case Op::Handle:
      op_ = Op::None;
      ++messages_handled_;
      finish_handle(p, handling_);
      break;
    case Op::Send:
      op_ = Op::None;
      if (p.to_send.front().message.kind == Message::Kind::KeepAlive) {
        ++p.diagnostics.keepalives_sent;
        p.keepalive.queued[p.to_send.front().message.to] = 0;
      }
      if (params_.strobe > 0) [[unlikely]] {
        hold(p.to_send.front());
      } else {
        outbox_->push_back(p.to_send.front());
        leave(outbox_->back());
      }
      p.to_send.pop_front();
      ++messages_sent_;
      break;
    case Op::Compute:
    case Op::Spin:
      interrupt_op();
      break;
    case Op::Detour:  // the process goes on where the detour stopped it
      op_ = Op::None;
      break;
    case Op::None:
      break;
  }
  step_cpu();
}

// The running process's next step at now_, with no operation in progress.
// Out of line for the rare callers (a dispatch, a switch-in); the hot ones inline step_cpu().
void Node::run_cpu() {
  step_cpu();
}

[[gnu::always_inline]] inline void Node::step_cpu() {
  auto& p = running();
  for (;;) {
    if (must_leave_cpu()) {
      leave_cpu(leave_pending_ ? pending_reason_ : LeaveReason::QuantumExpired);
      return;
    }
    if (!p.inbox.empty()) {
      handling_ = p.inbox.front();
      p.inbox.pop_front();
      start_handle(p);
      return;
    }
    if (!p.to_send.empty()) {
      set_category(p, Category::Compute);
      start_op(Op::Send, now_ + params_.overhead);
      return;
    }
    switch (p.activity) {
      case Activity::Compute:
        if (p.compute_left > 0) {
          set_category(p, Category::Compute);
          start_op(Op::Compute, now_ + p.compute_left);
          return;
        }
        if (p.daemon) {  // its work is done until its next event
          leave_cpu(LeaveReason::Blocked);
          return;
        }
        program_next(p);
        continue;
      case Activity::AwaitRead:
      case Activity::AwaitBarrier: {
        if (wait_satisfied(p)) {
          complete_wait(p);
          continue;
        }
        const auto kind = wait_kind(p);
        // Inlined, as observe() is: it runs at nearly every wait decision.
        const auto observe_now = [&]() __attribute__((always_inline))->const wait::Observation& {
          return observe(p, kind);
        };
        // For the decision line only: the messages of the window decide may judge (then starts afresh).
        const int window_messages = NOW_LOG_ON(cosched_now_wait) ? p.wait.messages().total() : 0;
        const auto next = p.wait.decide(now_, *layout(p).wait, spins_always(p), observe_now);
        if (NOW_LOG_ON(cosched_now_wait)) [[unlikely]]
          log_wait_decision(p, next, window_messages);
        if (next == SpinWait::Next::Block) {
          block(p);
          return;
        }
        set_category(p, kind == wait::WaitKind::Read ? Category::Communicate : Category::Synchronize);
        start_op(Op::Spin, p.wait.phase_end());
        return;
      }
      case Activity::Done:
        p.state = ProcState::Finished;
        --unfinished_;
        tracker_->process_finished(p.job, now_);
        leave_cpu(LeaveReason::Finished);
        // The workstation's work is over, whatever its daemon would still do (section 8.2.1): its CPU's busy
        // time ends here.
        if (unfinished_ == 0 && cpu_state_ != CpuState::Idle) {
          busy_ += now_ - busy_since_;
          busy_since_ = now_;
        }
        return;
    }
  }
}

void Node::log_wait_decision(const Process& p, SpinWait::Next next, int window_messages) const {
  const char* kind = wait_name(wait_kind(p));
  const bool blocks = next == SpinWait::Next::Block;
  const std::string until = at(p.wait.phase_end());
  switch (p.wait.why()) {
    case SpinWait::Why::FirstPhase:
      if (blocks)
        NOW_LOG(cosched_now_wait, p, "%s wait begins, blocks", kind);
      else
        NOW_LOG(cosched_now_wait, p, "%s wait begins, spins until t=%ss", kind, until.c_str());
      break;
    case SpinWait::Why::AfterWake:
      if (blocks)
        NOW_LOG(cosched_now_wait, p, "%s wait, woken, blocks again", kind);
      else
        NOW_LOG(cosched_now_wait, p, "%s wait, woken, spins until t=%ss", kind, until.c_str());
      break;
    case SpinWait::Why::PhaseEnded:
      if (blocks)
        NOW_LOG(cosched_now_wait, p, "%s spin ended, %d messages in window, blocks", kind, window_messages);
      else
        NOW_LOG(cosched_now_wait, p, "%s spin ended, %d messages in window, spins again until t=%ss", kind,
                window_messages, until.c_str());
      break;
    case SpinWait::Why::PhaseGoesOn:
      NOW_LOG(cosched_now_wait, p, "%s spin goes on until t=%ss", kind, until.c_str());
      break;
    case SpinWait::Why::ResumeBlock:
      NOW_LOG(cosched_now_wait, p, "%s spin was interrupted by leaving the CPU, blocks (wait.resume: block)",
              kind);
      break;
  }
}

void Node::block(Process& p) {
  p.wait.block();
  ++p.waits.blocks;
  if (p.activity == Activity::AwaitBarrier) {
    ++p.barrier_record.blocks;
    tracker_->barrier_blocked(p.job, p.barrier);
  }
  leave_cpu(LeaveReason::Blocked);
}

void Node::deliver(Nanos now, const Message& message) {
  now_ = now;
  ++events_;
  ++messages_received_;
  if (params_.messages) params_.messages->arrived(message.trace_id, now);
  const int id = local_id(message.job, message.to);
  if (id < 0) throw std::logic_error("NOW node: a message for a process that is not on this workstation");
  auto& p = processes_[id];
  if (p.state == ProcState::Finished) {
    // A wake-up, an arrival reply or a keep-alive may reach a process that has just finished (under the
    // shared network a message can be overtaken; a keep-alive sent just before the notices may arrive
    // after the process passed and finished): nothing is left for it to do.
    if (message.kind == Message::Kind::Wakeup || message.kind == Message::Kind::BarrierReply ||
        message.kind == Message::Kind::KeepAlive)
      return;
    throw std::logic_error("NOW node: a message for a finished process");
  }
  // What wants_cpu then step_cpu would do, by their own tests: a running process with no other message
  // waiting, computing or spinning with time left in its quantum, handles it at once. It then need not
  // pass through the inbox.
  const bool at_once = steps_now(p) && !must_leave_cpu() && p.inbox.empty();
  Message* arrived = &handling_;
  if (at_once) {
    handling_ = message;
  } else {
    p.inbox.push_back(message);
    arrived = &p.inbox.back();
  }
  if (message.kind == Message::Kind::ReadRequest || message.kind == Message::Kind::Wakeup) {
    const PartnerState state = p.state == ProcState::Running ? PartnerState::Running
                               : p.state == ProcState::Ready ? PartnerState::Ready
                                                             : PartnerState::Blocked;
    arrived->partner = static_cast<std::uint8_t>(state);
  }
  if (p.wait.on_message(now_, wait_kind(p), message.kind)) {
    NOW_LOG(cosched_now_wait, p, "%s during its %s spin: %d messages in window, spins until t=%ss",
            kind_name(message.kind), wait_name(wait_kind(p)), p.wait.messages().total(),
            at(p.wait.phase_end()).c_str());
  }
  if (at_once) {
    interrupt_op();
    start_handle(p);
    return;
  }
  // Handled at once if it is running; after its switch-in or its current handler otherwise; a blocked
  // process is woken.
  wants_cpu(p);
}

void Node::reschedule_check() {
  if (cpu_state_ == CpuState::Idle) {
    dispatch();
    return;
  }
  if (cpu_state_ != CpuState::Running || leave_pending_) return;
  if (slices_move_) shorten_quantum();
  if (!scheduler_->should_preempt(cpu_process_, now_, now_ - slice_start_)) return;
  if (interruptible()) {
    interrupt_op();
    leave_cpu(scheduler_->preempt_reason());
  } else {
    leave_pending_ = true;
    pending_reason_ = scheduler_->preempt_reason();
  }
}

void Node::shorten_quantum() {
  const Nanos end = now_ + scheduler_->time_slice(cpu_process_, now_);
  if (end >= quantum_end_) return;
  quantum_end_ = end;
  // A computation or a spin stops at the quantum's end (start_op); a handler or a send runs to its end.
  if ((op_ == Op::Compute || op_ == Op::Spin) && cpu_timer_ > end) cpu_timer_ = end;
}

void Node::leave_cpu(LeaveReason reason) {
  const int id = cpu_process_;
  auto& p = processes_[id];
  if (reason == LeaveReason::QuantumExpired) {
    const auto kind = wait_kind(p);
    // It has work before it can block: messages to handle or send, or its wait is over.
    const auto has_work = [&] { return !p.inbox.empty() || !p.to_send.empty() || wait_satisfied(p); };
    const int window_messages = NOW_LOG_ON(cosched_now_wait) ? p.wait.messages().total() : 0;  // its line
    const auto cut = p.wait.quantum_cut(now_, kind, *layout(p).wait, spins_always(p), has_work,
                                        [&]() -> const wait::Observation& { return observe(p, kind); });
    if (cut == SpinWait::Cut::Blocks) {
      NOW_LOG(cosched_now_wait, p, "quantum ended during its %s spin, %d messages in window, blocks",
              wait_name(kind), window_messages);
      block(p);
      return;
    }
    if (cut == SpinWait::Cut::SpinsAgain)
      NOW_LOG(cosched_now_wait, p,
              "quantum ended during its %s spin, %d messages in window, spins again until t=%ss",
              wait_name(kind), window_messages, at(p.wait.phase_end()).c_str());
  }
  NOW_LOG(cosched_now_node, p, "leaves the CPU: %s", reason_name(reason));
  if (reason == LeaveReason::QuantumExpired || reason == LeaveReason::Preempted) {
    p.wait.leave_cpu_runnable(wait_kind(p), *layout(p).wait, spins_always(p));
  } else {
    p.wait.leave_cpu_stopped();
  }
  switch (reason) {
    case LeaveReason::Blocked:
      set_category(p, p.activity == Activity::AwaitRead ? Category::BlockedRead : Category::BlockedBarrier);
      break;
    case LeaveReason::Finished:
      set_category(p, Category::Finished);
      break;
    case LeaveReason::QuantumExpired:
    case LeaveReason::Preempted:
      set_category(p, Category::Ready);
      break;
  }
  scheduler_->leave_cpu(id, reason, now_, now_ - slice_start_);
  if (reason == LeaveReason::Blocked) {
    p.state = ProcState::Blocked;
  } else if (reason != LeaveReason::Finished) {
    p.state = ProcState::Ready;
  }
  leave_pending_ = false;
  op_ = Op::None;
  cpu_timer_ = -1;
  cpu_process_ = -1;
  last_process_ = id;
  dispatch();
}

void Node::dispatch() {
  const auto next = scheduler_->pick_next(now_);
  if (!next) {
    if (NOW_LOG_ON(cosched_now_node) && cpu_state_ != CpuState::Idle) [[unlikely]]
      COSCHED_COLD_CDEBUG(cosched_now_node, "ws %d t=%ss: CPU idle", params_.workstation, at(now_).c_str());
    if (cpu_state_ != CpuState::Idle) busy_ += now_ - busy_since_;
    cpu_state_ = CpuState::Idle;
    cpu_process_ = -1;
    last_process_ = -1;
    cpu_timer_ = -1;
    return;
  }
  if (cpu_state_ == CpuState::Idle) busy_since_ = now_;
  auto& p = processes_[*next];
  p.state = ProcState::Running;
  cpu_process_ = *next;
  op_ = Op::None;
  if (p.woken_at >= 0) {
    ++p.diagnostics.wakes;
    p.diagnostics.wake_to_dispatch += now_ - p.woken_at;
    p.woken_at = -1;
  }
  if (*next == last_process_) {
    p.wait.kept_cpu();
    // The same process goes on (its quantum expired and nobody else is ready): no context switch.
    cpu_state_ = CpuState::Running;
    slice_start_ = now_;
    quantum_end_ = now_ + scheduler_->time_slice(*next, now_);
    NOW_LOG(cosched_now_node, p, "dispatched again without a switch, quantum until t=%ss",
            at(quantum_end_).c_str());
    run_cpu();
    return;
  }
  NOW_LOG(cosched_now_node, p, "dispatched: switching in");
  cpu_state_ = CpuState::Switching;
  set_category(p, Category::Switching);
  cpu_timer_ = now_ + params_.context_switch;
}

std::vector<Node::ProcessReport> Node::reports() const {
  std::vector<ProcessReport> out;
  for (const auto& p : processes_) {
    if (p.daemon) continue;
    ProcessReport report{p.job,
                         p.rank,
                         p.time,
                         p.waits,
                         p.diagnostics,
                         p.barrier_record,
                         scheduler_->fcs_record(static_cast<int>(&p - processes_.data()))};
    // Close the open interval at the job's completion: a finished process stays finished until then.
    const Nanos end = tracker_->completion(p.job).value_or(now_);
    add_time(report.time, p.category, end - p.since);
    out.push_back(report);
  }
  return out;
}

std::vector<std::pair<int, metrics::TimelineLane>> Node::timeline() const {
  std::vector<std::pair<int, metrics::TimelineLane>> lanes;
  if (!timeline_) return lanes;
  for (std::size_t id = 0; id < processes_.size(); ++id) {
    const auto& p = processes_[id];
    if (p.daemon) continue;
    const Nanos end = tracker_->completion(p.job).value_or(now_);
    lanes.emplace_back(p.job, metrics::TimelineLane{layout(p).name, layout(p).copy, p.rank,
                                                    timeline_->closed(static_cast<int>(id), end)});
  }
  return lanes;
}

const std::vector<std::string>& Node::timeline_states() {
  // Indexed by Category, each name set by its enumerator, so that reordering Category cannot mislabel rows.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n(static_cast<std::size_t>(Category::Finished) + 1);
    auto set = [&n](Category c, const char* name) { n[static_cast<std::size_t>(c)] = name; };
    set(Category::Compute, "compute");
    set(Category::Communicate, "communicate");
    set(Category::Synchronize, "synchronize");
    set(Category::Switching, "switch");
    set(Category::Ready, "ready");
    set(Category::BlockedRead, "blocked_read");
    set(Category::BlockedBarrier, "blocked_barrier");
    set(Category::Finished, "finished");
    return n;
  }();
  return names;
}

const std::vector<std::string>& Node::message_kinds() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n(static_cast<std::size_t>(Message::Kind::KeepAlive) + 1);
    auto set = [&n](Message::Kind k, const char* name) { n[static_cast<std::size_t>(k)] = name; };
    set(Message::Kind::ReadRequest, "read_request");
    set(Message::Kind::ReadReply, "read_reply");
    set(Message::Kind::BarrierArrival, "barrier_arrival");
    set(Message::Kind::BarrierNotice, "barrier_notice");
    set(Message::Kind::BarrierReply, "barrier_reply");
    set(Message::Kind::Wakeup, "wakeup");
    set(Message::Kind::KeepAlive, "keepalive");
    return n;
  }();
  return names;
}

std::vector<metrics::TimelineLane> timeline_lanes(const std::vector<std::unique_ptr<Node>>& nodes) {
  std::vector<std::pair<int, metrics::TimelineLane>> lanes;
  for (const auto& node : nodes)
    for (auto& lane : node->timeline()) lanes.push_back(std::move(lane));
  std::stable_sort(lanes.begin(), lanes.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.rank < b.second.rank;
  });
  std::vector<metrics::TimelineLane> ordered;
  for (auto& lane : lanes) ordered.push_back(std::move(lane.second));
  return ordered;
}

std::string timeline_csv(const std::vector<std::unique_ptr<Node>>& nodes) {
  return metrics::timeline_csv(timeline_lanes(nodes), Node::timeline_states(),
                               metrics::TimelineTime::NanosAsSeconds);
}

}  // namespace cosched::now
