#include "sched/now/stride.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <tuple>

namespace cosched::sched {

Stride::Stride(SimTime quantum, bool preempt_on_wake) : quantum_(quantum), preempt_on_wake_(preempt_on_wake) {
  if (quantum <= 0) {
    throw std::invalid_argument(
        fmt::format("scheduler.quantum: expected a positive stride quantum, got {} ns", quantum));
  }
}

Stride::Client& Stride::find(ProcessId process) {
  auto it = clients_.find(process);
  if (it == clients_.end()) throw std::logic_error(fmt::format("stride: unknown process {}", process));
  return it->second;
}

const Stride::Client& Stride::find(ProcessId process) const {
  return const_cast<Stride*>(this)->find(process);
}

void Stride::advance(SimTime now) {
  if (now <= last_update_) return;
  // No runnable client: the global pass stands still, as in OSKit.
  if (runnable_tickets_ > 0) {
    double global_stride = kStride1 / runnable_tickets_;
    global_pass_ += global_stride * static_cast<double>(now - last_update_) / static_cast<double>(quantum_);
  }
  last_update_ = now;
}

void Stride::make_ready(Client& client) {
  client.state = State::Ready;
  client.ready_order = next_ready_order_++;
}

double Stride::pass_charge(ProcessId process, SimTime ran) const {
  return find(process).stride * static_cast<double>(ran) / static_cast<double>(quantum_);
}

void Stride::admit(ProcessId process, JobId job, ProcessShare share, SimTime now) {
  const int tickets = share.tickets;
  if (tickets <= 0) {
    throw std::invalid_argument(fmt::format(
        "stride: job {} gives process {} {} tickets; expected a positive number", job, process, tickets));
  }
  if (clients_.contains(process))
    throw std::logic_error(fmt::format("stride: process {} admitted twice", process));
  advance(now);
  double stride = kStride1 / tickets;
  // Choice (OSKit's): a newcomer starts one stride past the global pass, as if it had just been charged
  // a full quantum, so it cannot jump ahead of clients that have been waiting.
  auto& client = clients_[process] = Client{tickets, stride, global_pass_ + stride, 0, State::Ready, 0};
  make_ready(client);
  runnable_tickets_ += tickets;
}

void Stride::wake(ProcessId process, SimTime now) {
  auto& client = find(process);
  if (client.state != State::Blocked) {
    throw std::logic_error(fmt::format("stride: process {} woken while not blocked", process));
  }
  advance(now);
  // W&W: a returning client gets back only the lag it left with; sleeping earns nothing.
  client.pass = global_pass_ + client.remain;
  make_ready(client);
  runnable_tickets_ += client.tickets;
}

void Stride::leave_cpu(ProcessId process, LeaveReason reason, SimTime now, SimTime ran) {
  auto& client = find(process);
  if (client.state != State::Running) {
    throw std::logic_error(fmt::format("stride: process {} left a CPU it was not running on", process));
  }
  advance(now);
  client.pass += pass_charge(process, ran);
  charged(process, reason, ran);
  switch (reason) {
    case LeaveReason::QuantumExpired:
    case LeaveReason::Preempted:
      make_ready(client);
      return;
    case LeaveReason::Blocked:
      client.remain = client.pass - global_pass_;
      client.state = State::Blocked;
      runnable_tickets_ -= client.tickets;
      return;
    case LeaveReason::Finished:
      runnable_tickets_ -= client.tickets;
      clients_.erase(process);
      return;
  }
}

std::optional<ProcessId> Stride::smallest_ready() const {
  std::optional<ProcessId> best;
  const Client* best_client = nullptr;
  for (const auto& [id, client] : clients_) {
    if (client.state != State::Ready) continue;
    // Smallest pass; on a tie the client that became ready first. Ready orders are unique; were they
    // not, the scan in id order with a strict comparison would keep the lower id.
    if (!best_client ||
        std::tie(client.pass, client.ready_order) < std::tie(best_client->pass, best_client->ready_order)) {
      best = id;
      best_client = &client;
    }
  }
  return best;
}

std::optional<ProcessId> Stride::pick_next(SimTime now) {
  advance(now);
  auto next = smallest_ready();
  if (next) find(*next).state = State::Running;
  return next;
}

bool Stride::should_preempt(ProcessId running, SimTime, SimTime ran) const {
  // Choice: a ready client whose pass is below what the running one's pass would be if charged now takes
  // the CPU at once. Waldspurger's stride only reschedules at quantum ends; implicit coscheduling needs
  // a woken process to run while its partner is still scheduled.
  if (!preempt_on_wake_) return false;
  auto next = smallest_ready();
  return next && find(*next).pass < find(running).pass + pass_charge(running, ran);
}

bool Stride::has_ready() const {
  for (const auto& [id, client] : clients_) {
    if (client.state == State::Ready) return true;
  }
  return false;
}

namespace {

const config::Names<WakePreempt> kWakePreemptNames = {{"pass", WakePreempt::Pass},
                                                      {"none", WakePreempt::None}};

}  // namespace

constinit const config::PolicyKey kStrideQuantumKey =
    config::duration_key<&StrideParams::quantum_ns>("quantum",
                                                    "the stride quantum: a process runs at most this long "
                                                    "before the scheduler decides (duration, default 10ms)");
constinit const config::PolicyKey kWakePreemptKey =
    config::choice_key<&StrideParams::wake_preempt, kWakePreemptNames>(
        "wake_preempt",
        "whether a woken process with a smaller pass takes the CPU at once: pass or none (default none, "
        "stride-credit pass)");

void stride_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& stride = static_cast<const StrideParams&>(params);
  out["quantum_s"] = static_cast<double>(stride.quantum_ns) * 1e-9;
  out["context_switch_s"] = static_cast<double>(stride.context_switch) * 1e-9;
  out["wake_preempt"] = config::name_of(kWakePreemptNames, stride.wake_preempt);
}

namespace {

const config::PolicyKey kStrideKeys[] = {kStrideQuantumKey, kContextSwitchKey, kWakePreemptKey};

}  // namespace

const LocalSchedulerEntry kStrideEntry{
    {"stride",
     "stride scheduling: tickets, passes and a fixed quantum (Waldspurger & Weihl; Brim & Miller 3.1)",
     kStrideKeys, config::default_params<StrideParams>, stride_json},
    false,
    [](const config::PolicyParams& params, std::shared_ptr<GangMatrix>) -> std::unique_ptr<LocalScheduler> {
      const auto& stride = static_cast<const StrideParams&>(params);
      return std::make_unique<Stride>(stride.quantum_ns, stride.wake_preempt == WakePreempt::Pass);
    }};

}  // namespace cosched::sched
