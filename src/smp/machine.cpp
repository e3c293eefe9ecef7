#include "smp/machine.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "util/log.hpp"
#include "util/normal.hpp"
#include "util/random.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_smp_machine);
XBT_LOG_EXTERNAL_CATEGORY(cosched_userlevel);

// A scheduling or waiting decision: "cycle 1250 cpu 3 job fine#0 thread 2: <what>". Off, it costs one test
// of logs_; the line is made by a cold function, so the event handlers are compiled as without it.
#define SMP_DECISION(cpu, thread, ...)                          \
  do {                                                          \
    if (logs_) [[unlikely]]                                     \
      log_decision(static_cast<int>(cpu), thread, __VA_ARGS__); \
  } while (false)

namespace cosched::smp {
namespace {

constexpr Cycles kNever = std::numeric_limits<Cycles>::max() / 2;

}  // namespace

// Defined before its first use and inline: most runs record neither a trace nor a timeline, and then a note
// is two tests and no call.
inline void Machine::note(TraceKind kind, CpuId cpu, ThreadId thread) {
  if (!observed_) [[likely]]
    return;
  if (logs_) log_noted(kind, cpu, thread);
  if (tracing_) trace_.push_back(TraceEntry{now_, kind, cpu, thread});
  // The timeline shows the synchronizing jobs' threads.
  if (timeline_ && thread >= 0 && threads_[thread].job >= 0)
    timeline_->note(kind, now_, cpu, thread, threads_[thread].spinning,
                    threads_[thread].user == UserStep::Poll);
}

Machine::Machine(MachineConfig config, std::unique_ptr<sched::SmpScheduler> scheduler)
    : config_(std::move(config)),
      scheduler_(std::move(scheduler)),
      logs_(XBT_LOG_ISENABLED(cosched_smp_machine, xbt_log_priority_debug)),
      observed_(logs_) {
  if (config_.cpus <= 0) throw std::invalid_argument("platform.cpus: an SMP needs at least one CPU");
  scheduler_->attach(*this);
  decides_before_switch_ = scheduler_->decides_before_switch();
  next_change_ = scheduler_->next_change();
  cpus_.resize(config_.cpus);
  events_queue_ = CpuEvents(config_.cpus);
  idle_cpus_ = config_.cpus;  // every CPU starts idle
  jobs_.resize(config_.jobs.size());
  outcomes_.resize(config_.jobs.size());
  for (std::size_t j = 0; j < config_.jobs.size(); ++j)
    if (config_.jobs[j].barriers > 0) add_phase_work(static_cast<int>(j));
  jobs_remaining_ = static_cast<int>(config_.jobs.size());

  // Start-up order (thesis 3.2.1.1, footnote 1): by (job id, thread id), synchronizing jobs first.
  for (std::size_t j = 0; j < config_.jobs.size(); ++j) {
    const auto& job = config_.jobs[j];
    jobs_[j].waiter = job.wait->make_waiter();
    if (job.make_runtime) jobs_[j].runtime = job.make_runtime();
    job_first_thread_.push_back(static_cast<ThreadId>(threads_.size()));
    barriers_total_ += job.barriers;
    for (int t = 0; t < job.threads; ++t) {
      Thread thread;
      thread.job = static_cast<int>(j);
      thread.address_space = static_cast<int>(j);  // the threads of a job share its address space
      thread.nice = job.nice;
      thread.compute =
          workload::ComputeInterval::for_thread(job.compute_mean, job.compute_sigma, config_.seed, j, t);
      if (jobs_[j].runtime) thread.user = UserStep::Ask;
      start_phase(thread);
      threads_.push_back(std::move(thread));
    }
  }
  for (int n = 0; n < config_.nosync; ++n) {
    Thread thread;
    thread.address_space = static_cast<int>(config_.jobs.size()) + n;  // each a job of its own (thesis 2.1)
    thread.nice = config_.nosync_nice;
    thread.work_left = kNever;  // non-synchronizing threads compute forever
    threads_.push_back(std::move(thread));
  }
  runnable_ = static_cast<int>(threads_.size());

  std::vector<ThreadId> order(threads_.size());
  std::iota(order.begin(), order.end(), 0);
  if (!config_.initial_order.empty()) {
    auto sorted = config_.initial_order;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != order)
      throw std::invalid_argument("SMP machine: initial_order must be a permutation of the threads");
    order = config_.initial_order;
  } else if (config_.shuffle) {
    // rand_ord (thesis table 2.1): a uniform random permutation, Fisher-Yates on its own stream.
    std::mt19937_64 engine(util::mix_seed(config_.seed, 0, 1));
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[util::uniform_below(engine, i)]);
  }
  for (ThreadId id : order) scheduler_->enqueue(id, sched::ReadyReason::Start);
  if (before_switch()) {
    // Every CPU starts with need_resched set and runs schedule() at cycle 0, in ascending id.
    for (CpuId c = 0; c < config_.cpus; ++c) {
      cpus_[c].view.need_resched = true;
      schedule(c, 0);
    }
  } else {
    for (CpuId c = 0; c < config_.cpus; ++c) idle_.insert(c);
    dispatch_idle();
  }
}

const char* Machine::reason_name(SwitchOutReason reason) {
  switch (reason) {
    case SwitchOutReason::Preempt:
      return "preempted";
    case SwitchOutReason::Yield:
      return "yields";
    case SwitchOutReason::Finish:
      return "finished";
    case SwitchOutReason::Release:
      return "releases its CPU";
  }
  return "?";
}

// The decision lines of the steps the machine notes; the others are written where they are decided.
void Machine::log_noted(TraceKind kind, CpuId cpu, ThreadId id) const {
  const auto& thread = threads_[id];
  switch (kind) {
    case TraceKind::SpinSuccess:
      log_decision(cpu, id, "spin of %lld cycles succeeded at barrier %d",
                   static_cast<long long>(thread.wait.spin_cycles), thread.barrier);
      break;
    case TraceKind::SpinFail:
      log_decision(cpu, id, "spin of %lld cycles failed at barrier %d, blocks",
                   static_cast<long long>(thread.wait.spin_cycles), thread.barrier);
      break;
    case TraceKind::Complete:
      log_decision(cpu, id, "arrives last at barrier %d and completes it", thread.barrier);
      break;
    case TraceKind::Spin:
      log_decision(cpu, id, "arrives at barrier %d (%d of %d), spins up to %lld cycles", thread.barrier,
                   jobs_[thread.job].arrived, config_.jobs[thread.job].threads,
                   static_cast<long long>(thread.spin_left));
      break;
    case TraceKind::SwitchOut:
      log_decision(cpu, id, "switches out (%s)", reason_name(cpus_[cpu].reason));
      break;
    case TraceKind::Block:
      log_decision(cpu, id, "blocks at barrier %d", thread.barrier);
      break;
    case TraceKind::SwitchIn:
      log_decision(cpu, id, "dispatched (switch in)");
      break;
    case TraceKind::Wait4cs:
      log_decision(cpu, id, "chosen by schedule(), waits for the switch out");
      break;
    case TraceKind::Poll:
      log_decision(cpu, id, "its user-level runtime has no work for it yet: polls");
      break;
    case TraceKind::Work:
      log_decision(cpu, id, "got work from its user-level runtime");
      break;
    default:
      break;  // no decision: a step of one the machine tells where it is made
  }
}

void Machine::log_decision(CpuId cpu, ThreadId thread, const char* what, ...) const {
  char text[256];
  std::va_list args;
  va_start(args, what);
  std::vsnprintf(text, sizeof text, what, args);
  va_end(args);
  XBT_DEBUG("cycle %lld cpu %d %s: %s", static_cast<long long>(now_), cpu, who(thread).c_str(), text);
}

void Machine::name_userlevel_caller(ThreadId id) const {
  util::set_userlevel_log_subject("cpu " + std::to_string(threads_[id].cpu) + " " + who(id));
}

std::string Machine::who(ThreadId id) const {
  const auto& thread = threads_[id];
  if (thread.job < 0) return "nosync thread " + std::to_string(id);
  const auto& job = config_.jobs[thread.job];
  return "job " + job.name + "#" + std::to_string(job.copy) + " thread " +
         std::to_string(id - job_first_thread_[thread.job]);
}

std::optional<Cycles> Machine::next_event_time() const {
  std::optional<Cycles> next = next_change_;
  if (!events_queue_.empty() && (!next || events_queue_.top_time() < *next)) next = events_queue_.top_time();
  return next;
}

double Machine::barrier_progress() const {
  return barriers_total_ == 0 ? 1.0
                              : static_cast<double>(barriers_done_) / static_cast<double>(barriers_total_);
}

std::optional<CpuId> Machine::thread_cpu(ThreadId thread) const {
  if (threads_[thread].cpu < 0) return std::nullopt;
  return threads_[thread].cpu;
}

bool Machine::run_until(Cycles until) {
  while (!done_) {
    const auto change = next_change_;
    if (change && *change <= until && (events_queue_.empty() || *change <= events_queue_.top_time())) {
      // A policy change takes effect at the start of its cycle, before the CPUs' events of that cycle.
      now_ = *change;
      apply_change();
      continue;
    }
    if (events_queue_.empty()) break;
    const Cycles time = events_queue_.top_time();
    if (time > until) break;
    const CpuId cpu = events_queue_.top_cpu();
    auto& c = cpus_[cpu];
    c.pending = false;
    now_ = time;
    ++events_;
    current_cpu_ = cpu;
    handle(cpu);
    // The handled event leaves the queue now, unless the handler gave the CPU its next one (see the member).
    if (!c.pending) events_queue_.clear(cpu);
    c.last_handled = now_;
    current_cpu_ = -1;
  }
  if (!done_ && events_queue_.empty() && !next_change_)
    throw std::logic_error("SMP machine: no pending event while synchronizing jobs are unfinished");
  return !done_;
}

void Machine::apply_change() {
  ++events_;
  scheduler_->change(now_);
  next_change_ = scheduler_->next_change();
  for (CpuId cpu = 0; cpu < static_cast<CpuId>(cpus_.size()); ++cpu) {
    auto& c = cpus_[cpu];
    if (scheduler_->cpu_usable(cpu) || c.view.phase == CpuPhase::Idle) continue;
    // The CPU left the job's partition: its thread goes back to the ready set (switching in: when the switch
    // ends; switching out: it is leaving already).
    c.view.need_resched = true;
    if (c.view.phase == CpuPhase::Running) {
      const Cycles when = c.last_handled == now_ ? now_ + 1 : now_;
      if (when < c.next_event) schedule(cpu, when);
    }
  }
  if (!before_switch()) dispatch_idle();
  if (!scheduler_->change_is_repartition()) return;
  for (int job = 0; job < static_cast<int>(jobs_.size()); ++job) recheck_spinners(job);
}

void Machine::schedule(CpuId cpu, Cycles time) {
  auto& c = cpus_[cpu];
  c.next_event = time;
  c.pending = true;
  events_queue_.set(cpu, time);  // replaces the CPU's earlier event, if any
}

void Machine::handle(CpuId cpu) {
  auto& c = cpus_[cpu];
  switch (c.view.phase) {
    case CpuPhase::SwitchIn:
      handle_switch_in_end(cpu);
      break;
    case CpuPhase::Running:
      handle_running(cpu);
      break;
    case CpuPhase::SwitchOut:
      handle_switch_out_end(cpu);
      break;
    case CpuPhase::Idle:
      if (!before_switch()) throw std::logic_error("SMP machine: event on an idle CPU");
      run_after_switch(cpu);
      if (c.view.phase == CpuPhase::Idle && c.view.need_resched) run_schedule(cpu, std::nullopt);
      break;
  }
  if (!before_switch()) dispatch_idle();
}

void Machine::start_phase(Thread& thread) {
  thread.phase_started_at = now_;
  if (thread.user != UserStep::None) {
    // Its runtime hands out the phase's work when the thread is on a CPU (userlevel/job_runtime.hpp).
    thread.user = UserStep::Ask;
    thread.work_left = 0;
    return;
  }
  // Compute, then one cycle for the arrival itself (thesis 3.2.1.1: one cycle to compute, two to
  // synchronize).
  thread.work_left = thread.compute->draw() + 1;
}

void Machine::ask_runtime(ThreadId id) {
  take_next(id);
  const int job = threads_[id].job;
  if (jobs_[job].runtime->work_available()) offer_work(job);
}

void Machine::take_next(ThreadId id) {
  auto& thread = threads_[id];
  const bool was_polling = thread.user == UserStep::Poll;
  // The runtime's cosched_userlevel line names the caller as the machine's lines do (util/log.hpp).
  const bool named = XBT_LOG_ISENABLED(cosched_userlevel, xbt_log_priority_debug);
  if (named) [[unlikely]]
    name_userlevel_caller(id);
  const auto next = jobs_[thread.job].runtime->next(id - job_first_thread_[thread.job], thread.barrier, now_);
  if (named) [[unlikely]]
    util::set_userlevel_log_subject({});
  switch (next.kind) {
    case userlevel::Next::Kind::Work:
      if (next.cycles <= 0)
        throw std::logic_error("SMP machine: a user-level runtime gave work of no cycles");
      thread.user = UserStep::Work;
      thread.work_left = next.cycles;
      break;
    case userlevel::Next::Kind::WaitForWork:
      // It polls on its CPU: user time for the kernel, not a barrier spin (docs/models/smp.md).
      thread.user = UserStep::Poll;
      thread.work_left = kNever;
      break;
    case userlevel::Next::Kind::Done:
      // The phase's work is over: the arrival's one cycle follows, as for every job (thesis 3.2.1.1).
      thread.user = UserStep::Arrive;
      thread.work_left = 1;
      break;
  }
  const bool polling = thread.user == UserStep::Poll;
  if (polling != was_polling) note(polling ? TraceKind::Poll : TraceKind::Work, thread.cpu, id);
}

void Machine::offer_work(int job_index) {
  // Work appeared: the job's polling threads on a CPU at this moment ask again, in CPU id order, while the
  // runtime has some (the contract, userlevel/job_runtime.hpp). Polling threads off a CPU ask when they are
  // switched in.
  auto& runtime = *jobs_[job_index].runtime;
  bool asked = true;
  while (asked && runtime.work_available()) {
    asked = false;
    for (CpuId cpu = 0; cpu < static_cast<CpuId>(cpus_.size()) && runtime.work_available(); ++cpu) {
      auto& c = cpus_[cpu];
      if (c.view.phase != CpuPhase::Running) continue;
      const ThreadId id = c.view.current;
      auto& thread = threads_[id];
      if (thread.job != job_index || thread.user != UserStep::Poll) continue;
      settle(cpu);
      take_next(id);
      asked = true;
      if (cpu == current_cpu_) continue;  // its own handler schedules its next event
      // Its pending event (a quantum end, an interrupt) stays if it comes first.
      const bool had_event = c.pending;
      const Cycles pending_at = c.next_event;
      schedule_running(cpu);
      if (had_event && pending_at < c.next_event) schedule(cpu, pending_at);
    }
  }
}

void Machine::handle_switch_in_end(CpuId cpu) {
  auto& c = cpus_[cpu];
  auto& thread = threads_[c.view.current];
  c.view.phase = CpuPhase::Running;
  c.run_since = now_;
  c.quantum_end = now_ + scheduler_->time_slice(c.view.current);
  note(TraceKind::Run, cpu, c.view.current);
  if (thread.wait_to_record) {
    // K&W's tblkd runs from the block until the thread runs again.
    thread.wait_to_record = false;
    thread.wait.blocked_cycles = now_ - thread.blocked_at;
    record_wait(c.view.current);
  }
  if (thread.finish_pending) {
    finish(c.view.current);
    return;
  }
  if (thread.spinning && barrier_complete(thread)) {
    // Preempted while spinning, and the barrier completed meanwhile: the first poll after resuming
    // succeeds (thesis 5.3.2.1).
    thread.success_at = now_ + 1;
  }
  if (before_switch() && c.view.need_resched && c.after_switch < 0) {
    // The kernel checks need_resched before returning to user mode (thesis 6.4.4).
    run_schedule(cpu, std::nullopt);
    return;
  }
  if (!before_switch() && c.view.need_resched) {
    c.view.need_resched = false;  // the CPU left the partition during the switch in
    switch_out(cpu, SwitchOutReason::Preempt);
    return;
  }
  // A thread that begins its phase, or polled for work, asks its runtime once back in user mode.
  if (thread.user == UserStep::Ask || thread.user == UserStep::Poll) [[unlikely]]
    ask_runtime(c.view.current);
  schedule_running(cpu);
}

void Machine::run_after_switch(CpuId cpu) {
  // Linux: reschedule_idle(prev) follows the switch (thesis algorithm 4, line 27) as the CPU's next event,
  // one cycle after the switch in ends (at most one event per CPU per cycle, thesis 2.1: the 864 -> 865 step
  // of 7.6). The thread switched in runs meanwhile.
  auto& c = cpus_[cpu];
  if (c.after_switch < 0 || now_ < c.after_switch_at) return;
  const ThreadId prev = c.after_switch;
  c.after_switch = -1;
  if (threads_[prev].state != ThreadState::Ready) return;  // another CPU took it meanwhile
  settle_running();
  auto target = scheduler_->reschedule_idle(prev, cpu);
  note(TraceKind::RescheduleIdle, target.value_or(-1), prev);
  if (target) set_need_resched(*target);
}

void Machine::schedule_running(CpuId cpu) {
  auto& c = cpus_[cpu];
  const auto& thread = threads_[c.view.current];
  Cycles next;
  if (thread.spinning) {
    next = std::min(thread.success_at, c.run_since + thread.spin_left);
    if (thread.yield_left > 0) next = std::min(next, c.run_since + thread.yield_left);
  } else {
    next = c.run_since + thread.work_left;
  }
  next = std::min(next, c.quantum_end);
  if (c.after_switch >= 0) next = std::min(next, c.after_switch_at);
  schedule(cpu, next);
}

inline void Machine::settle(CpuId cpu) {
  auto& c = cpus_[cpu];
  if (c.view.phase != CpuPhase::Running) return;
  const Cycles elapsed = now_ - c.run_since;
  if (elapsed <= 0) return;
  c.run_since = now_;
  const ThreadId id = c.view.current;
  auto& thread = threads_[id];
  // A task's counter is charged for every cycle of user time, computing or spinning (thesis 6.4.4).
  scheduler_->charge(id, elapsed);
  if (thread.spinning) {
    if (thread.success_at > now_ - elapsed) {
      const Cycles spun = std::min(elapsed, thread.success_at - (now_ - elapsed));
      thread.wait.spin_cycles += spun;
      outcomes_[thread.job].spin_cycles += spun;
    }
    if (thread.success_at > now_) {
      thread.spin_left -= elapsed;
      if (thread.yield_left > 0) thread.yield_left -= elapsed;
    }
  } else {
    thread.work_left -= elapsed;
  }
}

void Machine::record_timeline() {
  timeline_ = std::make_unique<ThreadTimeline>(thread_count());
  observed_ = true;
  for (ThreadId id = 0; id < thread_count(); ++id) {
    const auto& thread = threads_[id];
    if (thread.job < 0) continue;
    TimelineState state = TimelineState::Ready;
    CpuId place = -1;
    switch (thread.state) {
      case ThreadState::Ready:
        break;
      case ThreadState::Wait4cs:
        state = TimelineState::Wait4cs;
        place = thread.cpu;
        break;
      case ThreadState::Running:
        place = thread.cpu;
        if (cpus_[place].view.phase != CpuPhase::Running) {
          state = TimelineState::Switching;
        } else {
          state = thread.spinning                 ? TimelineState::Spinning
                  : thread.user == UserStep::Poll ? TimelineState::Polling
                                                  : TimelineState::Computing;
        }
        break;
      case ThreadState::Blocked:
        state = TimelineState::Blocked;
        break;
      case ThreadState::Finished:
        state = TimelineState::Finished;
        break;
    }
    timeline_->enter(id, now_, state, place);
  }
}

std::vector<metrics::TimelineLane> Machine::timeline() const {
  std::vector<metrics::TimelineLane> lanes;
  if (!timeline_) return lanes;
  for (std::size_t j = 0; j < config_.jobs.size(); ++j) {
    const auto& job = config_.jobs[j];
    const Cycles end = outcomes_[j].completion_time.value_or(now_);
    for (int t = 0; t < job.threads; ++t)
      lanes.push_back({job.name, job.copy, t, timeline_->closed(job_first_thread_[j] + t, end)});
  }
  return lanes;
}

void Machine::settle_running() {
  for (CpuId cpu = 0; cpu < static_cast<CpuId>(cpus_.size()); ++cpu) settle(cpu);
}

void Machine::slices_changed() {
  // Linux epoch: running threads got new counters; their quantum ends move (they were settled first).
  for (CpuId cpu = 0; cpu < static_cast<CpuId>(cpus_.size()); ++cpu) {
    auto& c = cpus_[cpu];
    if (c.view.phase != CpuPhase::Running) continue;
    c.quantum_end = c.run_since + scheduler_->time_slice(c.view.current);
    if (cpu != current_cpu_) schedule_running(cpu);
  }
}

void Machine::handle_running(CpuId cpu) {
  auto& c = cpus_[cpu];
  settle(cpu);
  run_after_switch(cpu);
  const ThreadId id = c.view.current;
  auto& thread = threads_[id];
  if (thread.spinning) {
    if (thread.success_at <= now_) {
      thread.spinning = false;
      ++outcomes_[thread.job].successful_spins;
      thread.wait.succeeded = true;
      note(TraceKind::SpinSuccess, cpu, id);
      record_wait(id);
      if (pass_barrier(thread)) {
        finish(id);
        return;
      }
      auto& job = jobs_[thread.job];
      if (job.waiter->release_after_success(arrival_view(id), job.woken_at_last_completion)) {
        SMP_DECISION(cpu, id, "releases its CPU after its spin woke %d blocked peers (yield-on-wake)",
                     job.woken_at_last_completion);
        leave(cpu, SwitchOutReason::Release);  // yield-on-wake: regroup in the ready queue (thesis 10)
        return;
      }
      if (thread.user == UserStep::Ask) [[unlikely]]
        ask_runtime(id);  // it begins the next phase on this CPU
    } else if (thread.spin_left <= 0) {
      // The last poll failed: yield the CPU (cs_out), then block (thesis 2.1).
      thread.spinning = false;
      outcomes_[thread.job].last_failed_spin = now_;
      note(TraceKind::SpinFail, cpu, id);
      ++outcomes_[thread.job].blocks;
      thread.wait.blocked = true;
      thread.blocked_at = now_;
      leave(cpu, SwitchOutReason::Yield);
      return;
    } else if (thread.yield_left <= 0 && yields(thread)) {
      // A poll of the yield loop failed: sched_yield() (docs/models/smp.md, "The yield waiting algorithm").
      thread.yield_left = jobs_[thread.job].waiter->yield_every();
      SMP_DECISION(cpu, id, "calls sched_yield() at barrier %d", thread.barrier);
      scheduler_->yield(id, cpu);
      if (before_switch()) {
        run_schedule(cpu, std::nullopt);  // schedule(): it keeps its CPU unless another thread comes first
        return;
      }
      if (scheduler_->has_ready()) {
        switch_out(cpu, SwitchOutReason::Preempt);  // the ready set's head runs; the yielder joins its tail
        return;
      }
    }
  } else if (thread.work_left == 0) {
    if (thread.user == UserStep::Work) [[unlikely]] {
      thread.user = UserStep::Ask;  // the work its runtime gave ran to its end: it asks at once
      ask_runtime(id);
    } else {
      arrive(id, cpu);
      if (c.view.phase != CpuPhase::Running) return;
      if (thread.user == UserStep::Ask) [[unlikely]]
        ask_runtime(id);  // it completed the barrier and begins the next phase on this CPU
    }
  }
  // An action completing exactly at the end of the quantum counts before the preemption.
  if (now_ >= c.quantum_end) {
    SMP_DECISION(cpu, id, "quantum ends");
    if (before_switch()) {
      run_schedule(cpu, std::nullopt);  // the counter is 0: need_resched (thesis 6.4.4)
    } else {
      switch_out(cpu, SwitchOutReason::Preempt);
    }
    return;
  }
  if (c.view.need_resched) {
    SMP_DECISION(cpu, id, "need_resched is set: reschedules");
    if (before_switch()) {
      run_schedule(cpu, std::nullopt);
    } else {
      c.view.need_resched = false;  // the CPU left the partition
      switch_out(cpu, SwitchOutReason::Preempt);
    }
    return;
  }
  schedule_running(cpu);
}

wait::ArrivalView Machine::arrival_view(ThreadId id) const {
  const auto& thread = threads_[id];
  const auto& job = jobs_[thread.job];
  wait::ArrivalView view;
  view.now = now_;
  view.thread = id - job_first_thread_[thread.job];
  view.barrier = thread.barrier;
  view.job_threads = config_.jobs[thread.job].threads;
  view.arrived = job.arrived;
  view.blocked_peers = static_cast<int>(job.blocked.size());
  view.partition_cpus = scheduler_->partition_cpus(thread.address_space);
  view.cpus = config_.cpus;
  view.idle_cpus = idle_cpus_;
  view.runnable_threads = runnable_;
  view.context_switch = config_.cs_in + config_.cs_out;
  view.quantum = config_.quantum;
  view.phase_started_at = thread.phase_started_at;
  return view;
}

void Machine::arrive(ThreadId id, CpuId cpu) {
  auto& thread = threads_[id];
  auto& job = jobs_[thread.job];
  note(TraceKind::Arrive, cpu, id);
  const Cycles since_last_arrival =
      thread.last_arrival_dispatch == thread.dispatches ? now_ - thread.last_arrival_at : -1;
  thread.last_arrival_at = now_;
  thread.last_arrival_dispatch = thread.dispatches;
  if (++job.arrived == config_.jobs[thread.job].threads) {
    note(TraceKind::Complete, cpu, id);
    // The last to arrive completes the barrier and goes on at once; it does not spin (thesis 2.3.1).
    complete_barrier(thread.job, cpu);
    if (pass_barrier(thread)) finish(id);
    return;
  }
  thread.wait = wait::WaitRecord{};
  thread.wait.thread = id - job_first_thread_[thread.job];
  thread.wait.barrier = thread.barrier;
  thread.wait.arrived_at = now_;
  auto view = arrival_view(id);
  view.since_last_arrival = since_last_arrival;
  const Cycles budget = job.waiter->spin_budget(view);
  if (budget <= 0) {
    SMP_DECISION(cpu, id, "arrives at barrier %d (%d of %d), blocks without spinning", thread.barrier,
                 job.arrived, config_.jobs[thread.job].threads);
    ++outcomes_[thread.job].blocks;
    thread.wait.blocked = true;
    thread.blocked_at = now_;
    leave(cpu, SwitchOutReason::Yield);  // always-block: no spin, not counted in SSR
    return;
  }
  ++outcomes_[thread.job].total_spins;
  thread.wait.spun = true;
  thread.spinning = true;
  thread.spin_left = budget;
  thread.yield_left = job.waiter->yield_every();
  thread.success_at = kNever;
  note(TraceKind::Spin, cpu, id);
}

void Machine::record_wait(ThreadId id) {
  auto& thread = threads_[id];
  thread.wait.passed_at = now_;
  jobs_[thread.job].waiter->record(thread.wait);
}

void Machine::complete_barrier(int job_index, CpuId completer) {
  auto& job = jobs_[job_index];
  ++job.completed;
  job.arrived = 0;
  ++barriers_done_;
  ++outcomes_[job_index].barriers_completed;
  if (job.completed < config_.jobs[job_index].barriers) add_phase_work(job_index);
  // Blocked threads move to the ready-queue tail together, in the order they blocked (thesis 2.1). The two
  // buffers trade places, so that neither is allocated again at every barrier.
  std::vector<ThreadId>& woken = woken_;
  woken.swap(job.blocked);
  job.blocked.clear();
  job.woken_at_last_completion = static_cast<int>(woken.size());
  for (ThreadId id : woken) {
    auto& thread = threads_[id];
    thread.wait_to_record = true;
    SMP_DECISION(completer, id, "woken: barrier %d completed", thread.barrier);
    if (pass_barrier(thread)) thread.finish_pending = true;
    ++runnable_;
    make_ready(id, sched::ReadyReason::Woken);
  }
  // Spinning threads on a CPU succeed at their next poll. A poll at this very cycle exists if the spin
  // began before now, and it sees the completion only if its CPU comes after the completer's (thesis 7.5.4).
  const ThreadId first = job_first_thread_[job_index];
  for (ThreadId id = first; id < first + config_.jobs[job_index].threads; ++id) {
    auto& thread = threads_[id];
    if (!thread.spinning || thread.state != ThreadState::Running) continue;
    auto& c = cpus_[thread.cpu];
    if (c.view.phase != CpuPhase::Running) continue;  // switching in: handled when it starts to run
    thread.success_at = (thread.cpu > completer && c.run_since < now_) ? now_ : now_ + 1;
    if (thread.success_at < c.next_event) schedule(thread.cpu, thread.success_at);
  }
  if (before_switch() && !woken.empty()) {
    // __wake_up_common (thesis 6.5.3) with the configured wakeup scheme (6.6.1.2).
    settle_running();
    for (CpuId target : scheduler_->wake(woken, completer)) set_need_resched(target);
  }
}

void Machine::add_phase_work(int job_index) {
  const auto& job = config_.jobs[job_index];
  const int partition = std::max(1, scheduler_->partition_cpus(job_index));  // the job's address space
  outcomes_[job_index].partition_work +=
      static_cast<double>((job.threads + partition - 1) / partition) * job.compute_mean;
}

bool Machine::pass_barrier(Thread& thread) {
  ++thread.barrier;
  if (thread.barrier == config_.jobs[thread.job].barriers) return true;
  start_phase(thread);
  return false;
}

void Machine::finish(ThreadId id) {
  auto& thread = threads_[id];
  const CpuId cpu = thread.cpu;
  thread.finish_pending = false;
  auto& job = jobs_[thread.job];
  if (++job.finished_threads == config_.jobs[thread.job].threads) {
    outcomes_[thread.job].completion_time = now_;
    if (--jobs_remaining_ == 0) done_ = true;
  }
  if (config_.end_at_first_finish) done_ = true;  // thesis 5.1.4
  if (done_) settle_running();          // the run ends here: spins in progress count up to now (spin_cycles)
  leave(cpu, SwitchOutReason::Finish);  // a finished thread releases its CPU with cs_out
}

void Machine::leave(CpuId cpu, SwitchOutReason reason) {
  if (before_switch()) {
    run_schedule(cpu, reason);
  } else {
    switch_out(cpu, reason);
  }
}

void Machine::switch_out(CpuId cpu, SwitchOutReason reason) {
  auto& c = cpus_[cpu];
  c.view.phase = CpuPhase::SwitchOut;
  c.reason = reason;
  note(TraceKind::SwitchOut, cpu, c.view.current);
  schedule(cpu, now_ + config_.cs_out);
  const int job = threads_[c.view.current].job;
  if (job >= 0) recheck_spinners(job);
}

void Machine::recheck_spinners(int job_index) {
  auto& job = jobs_[job_index];
  const ThreadId first = job_first_thread_[job_index];
  for (ThreadId id = first; id < first + config_.jobs[job_index].threads; ++id) {
    auto& thread = threads_[id];
    if (!thread.spinning || thread.state != ThreadState::Running || thread.success_at <= now_) continue;
    auto& c = cpus_[thread.cpu];
    if (c.view.phase != CpuPhase::Running || thread.cpu == current_cpu_) continue;
    if (!job.waiter->give_up(arrival_view(id))) continue;
    SMP_DECISION(thread.cpu, id, "gives up its spin at barrier %d: its waiting algorithm saw the change",
                 thread.barrier);
    settle(thread.cpu);
    thread.spin_left = 0;  // its next event ends the spin; at most one event per CPU per cycle
    const Cycles when = c.last_handled == now_ ? now_ + 1 : now_;
    if (when < c.next_event) schedule(thread.cpu, when);
  }
}

void Machine::handle_switch_out_end(CpuId cpu) {
  auto& c = cpus_[cpu];
  const ThreadId id = c.view.current;
  auto& thread = threads_[id];
  c.view.current = -1;
  bool still_runnable = false;
  switch (c.reason) {
    case SwitchOutReason::Preempt:
    case SwitchOutReason::Release:
      make_ready(id, sched::ReadyReason::Preempted);
      still_runnable = true;
      break;
    case SwitchOutReason::Yield:
      if (barrier_complete(thread)) {
        // The barrier completed during the cs_out: ready-queue tail instead of blocked (thesis 4.3.4).
        SMP_DECISION(cpu, id, "barrier %d completed during its switch out: ready instead of blocked",
                     thread.barrier);
        thread.wait_to_record = true;
        if (pass_barrier(thread)) thread.finish_pending = true;
        make_ready(id, sched::ReadyReason::Requeued);
        still_runnable = true;
      } else {
        thread.state = ThreadState::Blocked;
        thread.cpu = -1;
        note(TraceKind::Block, cpu, id);
        --runnable_;
        jobs_[thread.job].blocked.push_back(id);
        scheduler_->blocked(id);
      }
      break;
    case SwitchOutReason::Finish:
      thread.state = ThreadState::Finished;
      thread.cpu = -1;
      note(TraceKind::Finish, cpu, id);
      --runnable_;
      scheduler_->finished(id);
      break;
  }
  if (!before_switch()) {
    dispatch(cpu);
    return;
  }
  const ThreadId next = c.view.next;
  c.view.next = -1;
  if (next >= 0) {
    switch_in(cpu, next);
  } else {
    go_idle(cpu);
  }
  if (still_runnable) {
    if (c.after_switch >= 0) {  // an earlier switch's reschedule_idle still pending: it comes first
      c.after_switch_at = now_;
      run_after_switch(cpu);
    }
    // reschedule_idle(prev) runs after the switch (algorithm 4, line 27), as this CPU's next event.
    c.after_switch = id;
    c.after_switch_at = now_ + (next >= 0 ? config_.cs_in : 0) + 1;  // a second event after the switch
    if (next < 0) schedule(cpu, c.after_switch_at);
  } else if (next < 0 && c.view.need_resched) {
    run_schedule(cpu, std::nullopt);
  }
}

void Machine::make_ready(ThreadId id, sched::ReadyReason reason) {
  auto& thread = threads_[id];
  note(TraceKind::Ready, thread.cpu, id);
  thread.state = ThreadState::Ready;
  thread.cpu = -1;
  scheduler_->enqueue(id, reason);
}

void Machine::switch_in(CpuId cpu, ThreadId id) {
  auto& c = cpus_[cpu];
  auto& thread = threads_[id];
  thread.state = ThreadState::Running;  // the context-switch periods count as running (thesis 7.2)
  thread.cpu = cpu;
  ++thread.dispatches;
  if (thread.job >= 0) ++outcomes_[thread.job].context_switches;
  c.view.current = id;
  const bool was_idle = c.view.phase == CpuPhase::Idle;
  if (was_idle) --idle_cpus_;
  c.view.phase = CpuPhase::SwitchIn;
  note(TraceKind::SwitchIn, cpu, id);
  // An idle CPU first wakes up (docs/models/smp.md section 5): 0 in the thesis's machine.
  schedule(cpu, now_ + config_.cs_in + (was_idle ? config_.idle_wakeup : 0));
}

void Machine::go_idle(CpuId cpu) {
  auto& c = cpus_[cpu];
  if (c.view.phase != CpuPhase::Idle) ++idle_cpus_;
  c.view.phase = CpuPhase::Idle;
  c.view.current = -1;
  c.view.idle_since = now_;
  if (!before_switch()) c.view.need_resched = false;  // a CPU outside the partitions has nothing to leave
  c.pending = false;
  events_queue_.clear(cpu);  // no pending event
  if (!before_switch()) idle_.insert(cpu);
}

void Machine::dispatch(CpuId cpu) {
  auto next = scheduler_->pick_next(cpu, std::nullopt);
  if (!next) {
    go_idle(cpu);
    return;
  }
  switch_in(cpu, *next);
}

void Machine::dispatch_idle() {
  // Round robin: idle CPUs take newly ready threads at once, in ascending CPU id. A CPU the policy gives no
  // thread (outside any partition) stays idle.
  for (auto it = idle_.begin(); it != idle_.end() && scheduler_->has_ready();) {
    const CpuId cpu = *it;
    auto next = scheduler_->pick_next(cpu, std::nullopt);
    if (!next) {
      ++it;
      continue;
    }
    it = idle_.erase(it);
    switch_in(cpu, *next);
  }
}

void Machine::run_schedule(CpuId cpu, std::optional<SwitchOutReason> leaving) {
  auto& c = cpus_[cpu];
  c.view.need_resched = false;
  const bool running = c.view.phase == CpuPhase::Running;
  std::optional<ThreadId> prev;
  if (running && !leaving) prev = c.view.current;
  const auto next = scheduler_->pick_next(cpu, prev);
  if (!running) {
    if (next) switch_in(cpu, *next);  // from the idle task: only the switch in is paid
    return;
  }
  if (prev && next == prev) {
    // prev keeps its CPU without a switch (thesis 6.5.4: prev wins ties).
    SMP_DECISION(cpu, *prev, "keeps its CPU for a new time slice");
    c.quantum_end = now_ + scheduler_->time_slice(*prev);
    schedule_running(cpu);
    return;
  }
  if (next) {
    threads_[*next].state = ThreadState::Wait4cs;  // waits for the switch out (thesis 7.2)
    note(TraceKind::Wait4cs, cpu, *next);
    threads_[*next].cpu = cpu;
    c.view.next = *next;
  }
  switch_out(cpu, leaving.value_or(SwitchOutReason::Preempt));
}

void Machine::set_need_resched(CpuId target) {
  auto& t = cpus_[target];
  const bool was_set = t.view.need_resched;
  t.view.need_resched = true;
  note(TraceKind::NeedResched, target, t.view.current);
  // Thesis algorithm 2, lines 17-20: interrupt another CPU only when its flag changes. The interrupt is
  // handled in this cycle unless that CPU already had its event of this cycle (thesis 2.1, 7.5.4).
  if (was_set || target == current_cpu_) return;
  if (t.view.phase != CpuPhase::Running && t.view.phase != CpuPhase::Idle)
    return;  // seen when its switch ends
  const Cycles when = t.last_handled == now_ ? now_ + 1 : now_;
  if (!t.pending || when < t.next_event) schedule(target, when);
}

}  // namespace cosched::smp
