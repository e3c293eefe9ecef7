// The NOW model on SimGrid, on configurations small enough to follow message by message.
// Each test runs in its own process (gtest_discover_tests): the SimGrid engine is a singleton.
// docs/models/now.md states the rules the expected values follow from.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <simgrid/s4u.hpp>
#include <string>

#include "scenario/loader.hpp"
#include "now/delivery.hpp"
#include "now/simulation.hpp"
#include "platform/now_platform.hpp"

namespace cosched::now {
namespace {

namespace sg4 = simgrid::s4u;
constexpr double kNs = 1e-9;

// L = 10us between two idle workstations; 1 byte at 1 Gbps adds 8 ns of transfer.
TEST(NowNetwork, AOneByteMessageTakesTheLatencyPlusItsTransferTime) {
  int argc = 1;
  char name[] = "test";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  platform::configure_network_model();
  config::NowConfig now;
  now.workstations = 2;
  auto platform = platform::build_now_platform(engine, now);
  ASSERT_EQ(platform.latency, 10'000) << "route latency between workstations 0 and 1";
  // Under logp (the default) the links bind no transfer: each runs at its route's rate (now_platform.hpp).
  EXPECT_DOUBLE_EQ(platform.rate(0, 1), 125e6) << "1 Gbps";
  auto delivery = make_mailbox_delivery({{1}, {0}}, platform.min_latency, false,
                                        [&platform](int from, int to) { return platform.rate(from, to); });
  double sent_at = -1, arrived_at = -1, raw_arrived_at = -1;
  sg4::Actor::create("sender", platform.workstations[0], [&] {
    delivery->open(0);
    sg4::this_actor::sleep_until(1e-3);
    sent_at = sg4::Engine::get_clock();
    delivery->send(0, Envelope{1, Message{Message::Kind::ReadRequest, 0, 0, 1, 0}});
    delivery->close(0);
  });
  sg4::Actor::create("receiver", platform.workstations[1], [&] {
    delivery->open(1);
    auto messages = delivery->receive(1, std::nullopt);
    arrived_at = sg4::Engine::get_clock();
    EXPECT_EQ(messages.size(), 1u);
    delivery->close(1);
  });
  // A raw SimGrid message of 0 bytes on the same route takes exactly L: no latency factor is applied.
  auto* box = sg4::Mailbox::by_name("raw");
  sg4::Actor::create("raw-sender", platform.workstations[0], [&] { box->put(new int(1), 0); });
  sg4::Actor::create("raw-receiver", platform.workstations[1], [&] {
    delete box->get<int>();
    raw_arrived_at = sg4::Engine::get_clock();
  });
  engine.run();
  EXPECT_NEAR(arrived_at - sent_at, 10'008 * kNs, 1e-15) << "L + 1 byte / 125 MB/s";
  EXPECT_NEAR(raw_arrived_at, 10'000 * kNs, 1e-15) << "exactly L, not SimGrid's default ~13 L";
}

// A run's summary.json, as the result record serializes it.
struct RunOutput {
  nlohmann::ordered_json summary;
};

// Writes a NOW scenario to a temporary file and runs it.
RunOutput run_yaml(const std::string& yaml) {
  auto path = std::filesystem::temp_directory_path() /
              ("cosched-now-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
               ".yaml");
  std::ofstream(path) << yaml;
  auto scenario = config::load_scenario(path.string());
  std::filesystem::remove(path);
  return {metrics::summary_json(run(scenario, {}))};
}

std::string two_workstations(const std::string& wait) {
  return R"(model: now
platform: {workstations: 2, latency: 10us, overhead: 2us, bandwidth: 1Gbps}
scheduler: {policy: stride, quantum: 10ms, context_switch: 100us}
workload:
  jobs:
    - {name: A, processes: 2, pattern: none, sync_interval: 1ms, barriers: 1, barrier: {kind: root},
       wait: )" +
         wait + "}\n";
}

double completion_ns(const RunOutput& out) {
  return out.summary["jobs"][0]["completion_time"].get<double>() * 1e9;
}

// Both processes are switched in (100us) and compute 1 ms, to 1.1 ms. Rank 1 sends its arrival (o, leaves
// at 1.102 ms), which reaches the root at 1.102 + 0.010008 = 1.112008 ms. The root, spinning, handles it
// (o, 1.114008), sends the notice (o, leaves 1.116008), which reaches rank 1 at 1.126016; rank 1, spinning,
// handles it (o) and finishes at 1.128016 ms.
TEST(NowEndToEnd, SpinningBarrierCostsLatencyAndOverheadsOnly) {
  auto out = run_yaml(two_workstations("{algorithm: pairwise}"));
  EXPECT_NEAR(completion_ns(out), 1'128'016, 0.5) << "1.1 ms + 2 (o + L + 8 ns + o) + o";
  EXPECT_EQ(out.summary["messages"], 2) << "one arrival, one notice";
  EXPECT_EQ(out.summary["spins"]["successful"], 2) << "both spins succeed";
  EXPECT_EQ(out.summary["spins"]["total"], 2);
}

// Always blocking: the root blocks at 1.1 ms; the arrival (1.112008) wakes it, it is switched in (100us)
// and handles it (o) at 1.214008, sends the notice (leaves 1.216008, arrives 1.226016); rank 1, blocked
// since 1.102, is switched in (to 1.326016), handles it and finishes at 1.328016 ms: two context switches
// more than spinning.
TEST(NowEndToEnd, BlockingAtTheBarrierAddsAContextSwitchPerWakeUp) {
  auto out = run_yaml(two_workstations("{algorithm: block}"));
  EXPECT_NEAR(completion_ns(out), 1'328'016, 0.5) << "the spinning case plus two switches of 100us";
  EXPECT_TRUE(out.summary["ssr"].is_null()) << "no wait spun";
  EXPECT_EQ(out.summary["jobs"][0]["blocks"], 2) << "both processes blocked once";
}

// Gang scheduling of job A (ranks on workstations 0 and 1) and job B (one process on workstation 1):
// slots of 10 ms alternate A, B, A, ... Each rank of A computes 9.895 ms (to 9.995) and sends a read
// request to the other (pattern random with 2 processes: always the other), leaving at 9.997 and arriving
// at 10.007008 ms, when B owns the slot: the partner is descheduled, the request waits for A's next slot.
// At 20 ms both ranks are switched in (to 20.1), handle the request (o) and send the reply (o, leaves
// 20.104, arrives 20.114008), handle the reply (to 20.116008); rank 1 sends its barrier arrival (leaves
// 20.118008, arrives 20.128016), the root handles it (20.130016) and sends the notice (leaves 20.132016,
// arrives 20.142024), which rank 1 handles: A completes at 20.144024 ms.
TEST(NowEndToEnd, AReadFromADescheduledPartnerWaitsForItsNextSlot) {
  auto out = run_yaml(R"(model: now
platform: {workstations: 2, latency: 10us, overhead: 2us, bandwidth: 1Gbps}
scheduler: {policy: gang, quantum: 10ms, context_switch: 100us}
workload:
  jobs:
    - {name: A, processes: 2, pattern: random, comm_interval: 9.895ms, sync_interval: 9.895ms, barriers: 1,
       wait: {algorithm: pairwise}}
    - {name: B, processes: 1, placement: [1], pattern: none, sync_interval: 30ms, barriers: 1,
       wait: {algorithm: pairwise}}
)");
  EXPECT_NEAR(completion_ns(out), 20'144'024, 0.5) << "the request waits for A's slot at 20 ms";
  EXPECT_EQ(out.summary["jobs"][0]["read_spins"]["total"], 2) << "each rank spun for its read";
}

}  // namespace
}  // namespace cosched::now
