#include "now/simgrid_engine.hpp"

#include <fmt/format.h>

#include <set>
#include <simgrid/Exception.hpp>

#include "config/limits.hpp"
#include "now/delivery.hpp"
#include "platform/engine.hpp"
#include "workload/now_program.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_now);

namespace cosched::now {

namespace sg4 = simgrid::s4u;

namespace {

// For each workstation, the workstations whose processes may send to it: read partners (both ways: request
// and reply) and barrier partners, as the job's barrier protocol names them.
std::vector<std::vector<int>> correspondents(const std::vector<JobLayout>& jobs, int workstations) {
  std::vector<std::set<int>> talk(workstations);
  auto link = [&](int a, int b) {
    if (a == b) return;
    talk[a].insert(b);
    talk[b].insert(a);
  };
  for (const auto& job : jobs) {
    const auto& ws = job.workstation_of;
    for (int r = 0; r < job.processes; ++r) {
      if (job.program.pattern == config::Pattern::News) {
        for (int q : workload::news_neighbours(r, job.processes)) link(ws[r], ws[q]);
      }
      if (job.program.pattern == config::Pattern::Random)
        for (int q = 0; q < job.processes; ++q) link(ws[r], ws[q]);
      for (int q : job.barrier->peers(r)) link(ws[r], ws[q]);
      if (job.keepalive) link(ws[0], ws[r]);  // the root's keep-alives (docs/models/now.md 4.6)
    }
  }
  std::vector<std::vector<int>> out(workstations);
  for (int w = 0; w < workstations; ++w) out[w].assign(talk[w].begin(), talk[w].end());
  return out;
}

// Workstation 0's actor reports the run's progress every 4096th time it wakes.
void report_progress(const metrics::ProgressSink& progress, const PreparedRun& run, std::uint64_t wakeups) {
  if (!progress || (wakeups & 0xfff) != 0) return;
  progress({fmt::format("{:.3f} s", sg4::Engine::get_clock()),
            static_cast<double>(run.tracker->barriers_passed()) / static_cast<double>(run.total_barriers)});
}

// The body of workstation w's actor: it hands its node the messages that arrive and sends what the node
// puts in its outbox, waking only when it must (docs/models/now.md section 3).
void drive_node(int w, Node& node, MessageDelivery& delivery, const PreparedRun& run, bool lookahead,
                const metrics::ProgressSink& progress) {
  delivery.open(w);
  node.start();
  std::uint64_t wakeups = 0;
  while (!node.finished()) {
    for (const auto& envelope : node.outbox()) delivery.send(w, envelope);
    node.outbox().clear();
    // Internal events before any message could arrive need no SimGrid wake-up; a message leaving before
    // then needs the clock, but no receive.
    const Nanos horizon = lookahead ? delivery.horizon(w) : simulated_now();
    node.advance_quietly(horizon);
    if (node.finished()) break;
    // Only a message leaving needs this actor awake at a given time; the node's other events are
    // processed when it next wakes, in time order, before any message that arrives.
    const auto next = lookahead ? node.next_send_bound() : node.next_timer();
    if (next && *next <= horizon) {
      sleep_until_reached(*next);
      node.advance(*next);
      continue;
    }
    const auto messages = delivery.receive(w, next);
    const Nanos at = simulated_now();
    config::limits::check_simulated_time(at, run.scenario_file, "ns", run.time_limit_advice());
    node.advance(at);
    for (const auto& message : messages) node.deliver(at, message);
    if (w == 0) report_progress(progress, run, ++wakeups);
  }
  for (const auto& envelope : node.outbox()) delivery.send(w, envelope);
  node.outbox().clear();
  delivery.close(w);
}

// An open workload's wake-ups (docs/models/now-streams.md section 5.3): each waiting actor (a workstation,
// or the coordinator) also waits on an execution of its own that never ends; another actor cancels it to
// wake it at once, at the current simulated time.
class Wakeups {
 public:
  explicit Wakeups(int actors) : interrupt_(actors), waiting_(actors, false) {}
  // The interrupt actor `a` waits on; a fresh one after a wake-up.
  const sg4::ExecPtr& interrupt(int a) {
    auto& exec = interrupt_[a];
    if (!exec || exec->get_state() == sg4::Activity::State::CANCELED) {
      exec = sg4::this_actor::exec_init(1e30);  // never ends: about 3e13 simulated years at 1 Gflop/s
      exec->start();
    }
    return exec;
  }
  void waiting(int a, bool yes) { waiting_[a] = yes; }
  void wake(int a) {
    if (!waiting_[a]) return;  // it will see the news before it next waits
    waiting_[a] = false;
    interrupt_[a]->cancel();
  }
  // Waits until `deadline` (kNoTime: until woken) or a wake-up.
  void sleep(int a, Nanos deadline) {
    const auto& exec = interrupt(a);
    waiting(a, true);
    try {
      if (deadline == kNoTime) {
        exec->wait();
      } else if (!reached(deadline)) {
        exec->wait_until(clock_reaching(deadline));
      }
    } catch (const simgrid::TimeoutException&) {
    } catch (const simgrid::CancelException&) {
    }
    waiting(a, false);
  }
  // A run that stops with an error (platform::guarded kills every actor): no actor may still wait on an
  // interrupt when it is killed, which SimGrid 3.32 does not survive; so every interrupt is cancelled first.
  void release_all() {
    for (auto& exec : interrupt_)
      if (exec && exec->get_state() == sg4::Activity::State::STARTED) exec->cancel();
  }
  // Actor `a` is done: its interrupt goes with it.
  void release(int a) {
    auto& exec = interrupt_[a];
    if (exec && exec->get_state() == sg4::Activity::State::STARTED) exec->cancel();
    exec = nullptr;
  }

 private:
  std::vector<sg4::ExecPtr> interrupt_;  // by actor: workstations, then the coordinator
  std::vector<bool> waiting_;
};

// The body of workstation w's actor under an open workload: drive_node's, with the stream's starts on w
// as events (at one instant: the node's timers, the starts, then the messages), and staying until the
// stream is done, idle or not.
void drive_stream_node(int w, Node& node, MessageDelivery& delivery, PreparedRun& run, Wakeups& wakeups,
                       bool lookahead, const metrics::ProgressSink& progress) {
  Stream& stream = *run.stream;
  delivery.open(w);
  node.start();
  const auto start_due = [&](Nanos at) {
    while (stream.next_start(w) == at) {
      const ProcessStart start = stream.pop_start(w);
      node.stream_event(start.job, start.rank, at);
    }
  };
  std::uint64_t wakeups_seen = 0;
  for (;;) {
    for (const auto& envelope : node.outbox()) delivery.send(w, envelope);
    node.outbox().clear();
    if (node.finished() && stream.done()) break;
    const Nanos start = stream.next_start(w);
    const Nanos horizon = std::min(lookahead ? delivery.horizon(w) : simulated_now(), start);
    node.advance_quietly(horizon);
    std::optional<Nanos> next;
    if (!node.finished()) next = lookahead ? node.next_send_bound() : node.next_timer();
    if (next && *next <= horizon) {
      sleep_until_reached(*next);
      node.advance(*next);
      continue;
    }
    if (start <= horizon) {  // every timer up to the start processed, none sending before it
      start_due(start);
      continue;
    }
    std::optional<Nanos> deadline = next;
    if (start != kNoTime && (!deadline || start < *deadline)) deadline = start;
    wakeups.waiting(w, true);
    const auto messages = delivery.receive(w, deadline, wakeups.interrupt(w));
    wakeups.waiting(w, false);
    const Nanos at = simulated_now();
    config::limits::check_simulated_time(at, run.scenario_file, "ns", run.time_limit_advice());
    if (stream.next_start(w) < at) throw std::logic_error("NOW stream: a start reached a workstation late");
    node.advance(at);
    start_due(at);
    for (const auto& message : messages) node.deliver(at, message);
    if (w == 0) report_progress(progress, run, ++wakeups_seen);
  }
  for (const auto& envelope : node.outbox()) delivery.send(w, envelope);
  node.outbox().clear();
  delivery.close(w);
  wakeups.release(w);
}

// The coordinator's actor: it sleeps until the stream's next decision (brought forward by a finish
// reported meanwhile), decides, and wakes the workstations given starts; at the end, every workstation.
void coordinate(PreparedRun& run, Wakeups& wakeups) {
  Stream& stream = *run.stream;
  const int self = run.workstations();
  stream.on_earlier_decision([&wakeups, self](Nanos) { wakeups.wake(self); });
  for (;;) {
    const Nanos next = stream.next_decision();
    if (next == kNoTime && stream.done()) break;
    if (stream.stalled())
      throw std::logic_error("NOW stream: jobs wait with nothing running and nothing left to decide");
    if (next == kNoTime || !reached(next)) {
      wakeups.sleep(self, next);
      continue;
    }
    for (int w : stream.decide(next)) wakeups.wake(w);
  }
  stream.on_earlier_decision({});
  for (int w = 0; w < run.workstations(); ++w) wakeups.wake(w);
  wakeups.release(self);
}

}  // namespace

void drive_with_actors(PreparedRun& run, const SimgridEngineOptions& options,
                       const metrics::ProgressSink& progress) {
  const int workstations = run.workstations();
  // One mailbox per receiver is exact when messages cannot overtake each other: equal route latencies,
  // and a sender's messages spaced (by o) more than a transfer lasts, which buffered coscheduling's strobes
  // undo (a workstation's buffer leaves at once).
  const double transfer_ns =
      static_cast<double>(kMessageBytes) / run.config->bandwidth_bytes_per_second * 1e9;
  const bool in_send_order = run.platform.uniform_latency &&
                             static_cast<double>(run.config->overhead) > transfer_ns &&
                             run.strobe.interval == 0 && !options.mailbox_per_pair;
  // Under logp each transfer runs at its route's rate (platform::build_now_platform unbinds the links).
  RouteRate rate;
  if (run.config->network == config::NowNetwork::LogP)
    rate = [&platform = run.platform](int from, int to) { return platform.rate(from, to); };
  // An open workload's jobs are placed as they start: any two workstations may talk.
  std::vector<std::vector<int>> senders;
  if (run.stream) {
    senders.assign(workstations, {});
    for (int to = 0; to < workstations; ++to)
      for (int from = 0; from < workstations; ++from)
        if (from != to) senders[to].push_back(from);
  } else {
    senders = correspondents(run.jobs, workstations);
  }
  auto delivery = make_mailbox_delivery(senders, run.platform.min_latency, in_send_order, std::move(rate));
  if (run.stream) {
    Wakeups wakeups(workstations + 1);
    for (int w = 0; w < workstations; ++w) {
      Node* node = run.nodes[w].get();
      sg4::Actor::create(fmt::format("ws-{}", w), run.platform.workstations[w],
                         platform::guarded([w, node, &delivery, &run, &wakeups, &options, &progress] {
                           try {
                             drive_stream_node(w, *node, *delivery, run, wakeups, options.lookahead,
                                               progress);
                           } catch (const simgrid::ForcefulKillException&) {
                             throw;
                           } catch (...) {
                             wakeups.release_all();
                             throw;
                           }
                         }));
    }
    sg4::Actor::create("coordinator", run.platform.workstations[0], platform::guarded([&run, &wakeups] {
                         try {
                           coordinate(run, wakeups);
                         } catch (const simgrid::ForcefulKillException&) {
                           throw;
                         } catch (...) {
                           wakeups.release_all();
                           throw;
                         }
                       }));
    run.engine->run();
    platform::rethrow_actor_error();
    return;
  }
  for (int w = 0; w < workstations; ++w) {
    Node* node = run.nodes[w].get();
    sg4::Actor::create(fmt::format("ws-{}", w), run.platform.workstations[w],
                       platform::guarded([w, node, &delivery, &run, &options, &progress] {
                         drive_node(w, *node, *delivery, run, options.lookahead, progress);
                       }));
  }
  run.engine->run();
  platform::rethrow_actor_error();
}

}  // namespace cosched::now
