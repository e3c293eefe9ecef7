#include "now/simgrid_engine.hpp"

#include <fmt/format.h>

#include <set>

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
      if (*next > simulated_now()) sg4::this_actor::sleep_until(static_cast<double>(*next) * 1e-9);
      node.advance(*next);
      continue;
    }
    const auto messages = delivery.receive(w, next);
    const Nanos at = simulated_now();
    config::limits::check_simulated_time(at, run.scenario_file, "ns");
    node.advance(at);
    for (const auto& message : messages) node.deliver(at, message);
    if (progress && w == 0 && (++wakeups & 0xfff) == 0) {
      progress(
          {fmt::format("{:.3f} s", sg4::Engine::get_clock()),
           static_cast<double>(run.tracker->barriers_passed()) / static_cast<double>(run.total_barriers)});
    }
  }
  for (const auto& envelope : node.outbox()) delivery.send(w, envelope);
  node.outbox().clear();
  delivery.close(w);
}

}  // namespace

void drive_with_actors(PreparedRun& run, const SimgridEngineOptions& options,
                       const metrics::ProgressSink& progress) {
  const int workstations = run.workstations();
  // One mailbox per receiver is exact when messages cannot overtake each other: equal route latencies,
  // and a sender's messages spaced (by o) more than a transfer lasts.
  const double transfer_ns =
      static_cast<double>(kMessageBytes) / run.config->bandwidth_bytes_per_second * 1e9;
  const bool in_send_order = run.platform.uniform_latency &&
                             static_cast<double>(run.config->overhead) > transfer_ns &&
                             !options.mailbox_per_pair;
  // Under logp each transfer runs at its route's rate (platform::build_now_platform unbinds the links).
  RouteRate rate;
  if (run.config->network == config::NowNetwork::LogP)
    rate = [&platform = run.platform](int from, int to) { return platform.rate(from, to); };
  auto delivery = make_mailbox_delivery(correspondents(run.jobs, workstations), run.platform.min_latency,
                                        in_send_order, std::move(rate));
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
