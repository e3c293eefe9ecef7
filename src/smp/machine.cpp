#include "smp/machine.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "util/normal.hpp"

namespace cosched::smp {
namespace {

constexpr Cycles kNever = std::numeric_limits<Cycles>::max() / 2;

// Uniform integer in [0, bound) by rejection, so the shuffle is the same on every platform.
std::uint64_t uniform_below(std::mt19937_64& engine, std::uint64_t bound) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  for (;;) {
    std::uint64_t value = engine();
    if (value < limit) return value % bound;
  }
}

}  // namespace

Machine::Machine(MachineConfig config, std::unique_ptr<sched::SmpScheduler> scheduler)
    : config_(std::move(config)), scheduler_(std::move(scheduler)) {
  if (config_.cpus <= 0) throw std::invalid_argument("platform.cpus: an SMP needs at least one CPU");
  cpus_.resize(config_.cpus);
  jobs_.resize(config_.jobs.size());
  outcomes_.resize(config_.jobs.size());
  jobs_remaining_ = static_cast<int>(config_.jobs.size());

  // Start-up order (thesis 3.2.1.1, footnote 1): by (job id, thread id), synchronizing jobs first.
  for (std::size_t j = 0; j < config_.jobs.size(); ++j) {
    const auto& job = config_.jobs[j];
    job_first_thread_.push_back(static_cast<ThreadId>(threads_.size()));
    barriers_total_ += job.barriers;
    for (int t = 0; t < job.threads; ++t) {
      Thread thread;
      thread.job = static_cast<int>(j);
      thread.compute.emplace(job.compute_mean, job.compute_sigma, util::mix_seed(config_.seed, j + 1, t));
      start_phase(thread);
      threads_.push_back(std::move(thread));
    }
  }
  for (int n = 0; n < config_.nosync; ++n) {
    Thread thread;
    thread.work_left = kNever;  // non-synchronizing threads compute forever
    threads_.push_back(std::move(thread));
  }

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
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[uniform_below(engine, i)]);
  }
  for (ThreadId id : order) scheduler_->enqueue(id);
  for (CpuId c = 0; c < config_.cpus; ++c) idle_.insert(c);
  dispatch_idle();
}

std::optional<Cycles> Machine::next_event_time() const {
  if (events_queue_.empty()) return std::nullopt;
  return events_queue_.top().time;
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
  while (!done_ && !events_queue_.empty()) {
    const Event event = events_queue_.top();
    if (event.time > until) break;
    events_queue_.pop();
    if (event.version != cpus_[event.cpu].version) continue;  // superseded
    now_ = event.time;
    ++events_;
    handle(event.cpu);
  }
  if (!done_ && events_queue_.empty())
    throw std::logic_error("SMP machine: no pending event while synchronizing jobs are unfinished");
  return !done_;
}

void Machine::schedule(CpuId cpu, Cycles time) {
  auto& c = cpus_[cpu];
  c.next_event = time;
  events_queue_.push(Event{time, cpu, ++c.version});
}

void Machine::handle(CpuId cpu) {
  switch (cpus_[cpu].phase) {
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
      throw std::logic_error("SMP machine: event on an idle CPU");
  }
  dispatch_idle();
}

void Machine::start_phase(Thread& thread) {
  // Compute, then one cycle for the arrival itself (thesis 3.2.1.1: one cycle to compute, two to
  // synchronize).
  thread.work_left = thread.compute->draw() + 1;
}

void Machine::handle_switch_in_end(CpuId cpu) {
  auto& c = cpus_[cpu];
  auto& thread = threads_[c.thread];
  c.phase = CpuPhase::Running;
  c.run_since = now_;
  c.quantum_end = now_ + scheduler_->time_slice(c.thread);
  if (thread.finish_pending) {
    finish(c.thread);
    return;
  }
  if (thread.spinning && barrier_complete(thread)) {
    // Preempted while spinning, and the barrier completed meanwhile: the first poll after resuming
    // succeeds (thesis 5.3.2.1).
    thread.success_at = now_ + 1;
  }
  schedule_running(cpu);
}

void Machine::schedule_running(CpuId cpu) {
  auto& c = cpus_[cpu];
  const auto& thread = threads_[c.thread];
  Cycles next;
  if (thread.spinning) {
    next = std::min(thread.success_at, c.run_since + thread.spin_left);
  } else {
    next = c.run_since + thread.work_left;
  }
  schedule(cpu, std::min(next, c.quantum_end));
}

void Machine::handle_running(CpuId cpu) {
  auto& c = cpus_[cpu];
  const ThreadId id = c.thread;
  auto& thread = threads_[id];
  const Cycles elapsed = now_ - c.run_since;
  c.run_since = now_;
  if (thread.spinning) {
    if (thread.success_at <= now_) {
      thread.spinning = false;
      ++outcomes_[thread.job].successful_spins;
      if (pass_barrier(thread)) {
        finish(id);
        return;
      }
    } else {
      thread.spin_left -= elapsed;
      if (thread.spin_left <= 0) {
        // The last poll failed: yield the CPU (cs_out), then block (thesis 2.1).
        thread.spinning = false;
        switch_out(cpu, SwitchOutReason::Yield);
        return;
      }
    }
  } else {
    thread.work_left -= elapsed;
    if (thread.work_left == 0) {
      arrive(id, cpu);
      if (c.phase != CpuPhase::Running) return;
    }
  }
  // An action completing exactly at the end of the quantum counts before the preemption.
  if (now_ >= c.quantum_end) {
    switch_out(cpu, SwitchOutReason::Preempt);
    return;
  }
  schedule_running(cpu);
}

void Machine::arrive(ThreadId id, CpuId cpu) {
  auto& thread = threads_[id];
  auto& job = jobs_[thread.job];
  if (++job.arrived == config_.jobs[thread.job].threads) {
    // The last to arrive completes the barrier and goes on at once; it does not spin (thesis 2.3.1).
    complete_barrier(thread.job, cpu);
    if (pass_barrier(thread)) finish(id);
    return;
  }
  const Cycles budget = config_.jobs[thread.job].wait->spin_budget();
  if (budget <= 0) {
    switch_out(cpu, SwitchOutReason::Yield);  // always-block: no spin, not counted in SSR
    return;
  }
  ++outcomes_[thread.job].total_spins;
  thread.spinning = true;
  thread.spin_left = budget;
  thread.success_at = kNever;
}

void Machine::complete_barrier(int job_index, CpuId completer) {
  auto& job = jobs_[job_index];
  ++job.completed;
  job.arrived = 0;
  ++barriers_done_;
  ++outcomes_[job_index].barriers_completed;
  // Blocked threads move to the ready-queue tail together, in the order they blocked (thesis 2.1).
  for (ThreadId id : job.blocked) {
    auto& thread = threads_[id];
    if (pass_barrier(thread)) thread.finish_pending = true;
    make_ready(id);
  }
  job.blocked.clear();
  // Spinning threads on a CPU succeed at their next poll. A poll at this very cycle exists if the spin
  // began before now, and it sees the completion only if its CPU comes after the completer's (thesis 7.5.4).
  const ThreadId first = job_first_thread_[job_index];
  for (ThreadId id = first; id < first + config_.jobs[job_index].threads; ++id) {
    auto& thread = threads_[id];
    if (!thread.spinning || thread.state != ThreadState::Running) continue;
    auto& c = cpus_[thread.cpu];
    if (c.phase != CpuPhase::Running) continue;  // switching in: handled when it starts to run
    thread.success_at = (thread.cpu > completer && c.run_since < now_) ? now_ : now_ + 1;
    if (thread.success_at < c.next_event) schedule(thread.cpu, thread.success_at);
  }
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
  switch_out(cpu, SwitchOutReason::Finish);       // a finished thread releases its CPU with cs_out
}

void Machine::switch_out(CpuId cpu, SwitchOutReason reason) {
  auto& c = cpus_[cpu];
  c.phase = CpuPhase::SwitchOut;
  c.reason = reason;
  schedule(cpu, now_ + config_.cs_out);
}

void Machine::handle_switch_out_end(CpuId cpu) {
  auto& c = cpus_[cpu];
  const ThreadId id = c.thread;
  auto& thread = threads_[id];
  c.thread = -1;
  switch (c.reason) {
    case SwitchOutReason::Preempt:
      make_ready(id);
      break;
    case SwitchOutReason::Yield:
      if (barrier_complete(thread)) {
        // The barrier completed during the cs_out: ready-queue tail instead of blocked (thesis 4.3.4).
        if (pass_barrier(thread)) thread.finish_pending = true;
        make_ready(id);
      } else {
        thread.state = ThreadState::Blocked;
        thread.cpu = -1;
        jobs_[thread.job].blocked.push_back(id);
      }
      break;
    case SwitchOutReason::Finish:
      thread.state = ThreadState::Finished;
      thread.cpu = -1;
      break;
  }
  dispatch(cpu);
}

void Machine::make_ready(ThreadId id) {
  auto& thread = threads_[id];
  thread.state = ThreadState::Ready;
  thread.cpu = -1;
  scheduler_->enqueue(id);
}

void Machine::dispatch(CpuId cpu) {
  auto& c = cpus_[cpu];
  auto next = scheduler_->pick_next(cpu);
  if (!next) {
    c.phase = CpuPhase::Idle;
    ++c.version;  // no pending event
    idle_.insert(cpu);
    return;
  }
  auto& thread = threads_[*next];
  thread.state = ThreadState::Running;  // the context-switch periods count as running (thesis 7.2)
  thread.cpu = cpu;
  c.thread = *next;
  c.phase = CpuPhase::SwitchIn;
  schedule(cpu, now_ + config_.cs_in);
}

void Machine::dispatch_idle() {
  // Idle CPUs take newly ready threads at once, in ascending CPU id.
  while (!idle_.empty() && scheduler_->has_ready()) {
    CpuId cpu = *idle_.begin();
    idle_.erase(idle_.begin());
    dispatch(cpu);
  }
}

}  // namespace cosched::smp
