// A NOW job's dedicated run time in closed form (docs/models/now-streams.md section 4.4), asked directly of
// now::size_phases: the barriers a run time gives, the phase of a communication-free job, of a job of one
// process, of an all-to-all barrier, the imbalance's expected slowest process, and a run time shorter than
// the barriers' own cost. Every number derived by hand in the comments; the closed form against simulation
// is tests/cli/now_dedicated_time_test.cpp.

#include "now/dedicated_time.hpp"

#include <gtest/gtest.h>

#include "sched/now/local_scheduler_registry.hpp"
#include "wait/now/now_wait_registry.hpp"

namespace cosched::now {
namespace {

constexpr Nanos kMs = 1'000'000;

// The model's defaults: L = 10us, o = 2us, 1 Gbps (a 1-byte message takes d = L + 8 ns = 10 008 ns),
// context switch W = 100us; 4 workstations under stride.
config::NowConfig now_config() {
  config::NowConfig now;
  now.scheduler = sched::local_schedulers().defaults("stride");
  now.workstations = 4;
  return now;
}

// Pattern none, root barrier with flat trees, pairwise waiting, imbalance 1.
config::NowJobProfile profile_of(int processes) {
  config::NowJobProfile profile;
  profile.processes = processes;
  profile.pattern = config::Pattern::None;
  profile.comm_interval = 10'000;
  profile.wait = wait::now_waits().defaults("pairwise");
  return profile;
}

TEST(DedicatedTime, OneBarrierPerClassIntervalRoundedAtLeastOne) {
  EXPECT_EQ(barriers_of(10 * kMs, 50 * kMs), 5);
  EXPECT_EQ(barriers_of(10 * kMs, 14 * kMs), 1);  // 1.4 rounds down
  EXPECT_EQ(barriers_of(10 * kMs, 15 * kMs), 2);  // 1.5 rounds up
  EXPECT_EQ(barriers_of(10 * kMs, 1 * kMs), 1) << "a job shorter than the interval has one barrier";
}

TEST(DedicatedTime, ACommunicationFreeJobOnFlatTrees) {
  // 50 ms on 4 processes, class interval 10 ms: 5 barriers. Flat trees, d = 10 008, o = 2 000, P = 4:
  // first barrier d + P o = 18 008; between passes max(2d + (P+2) o, (2P-2) o) = 32 016; last 18 008; the
  // start's W = 100 000. Fixed 100 000 + 18 008 + 4 x 32 016 + 18 008 = 264 080; a phase (50 000 000 -
  // 264 080) / 5 = 9 947 184 ns, all computation.
  auto profile = profile_of(4);
  size_phases(profile, now_config(), 10 * kMs, 50 * kMs);
  EXPECT_EQ(profile.barriers, 5);
  EXPECT_EQ(profile.sync_interval, 9'947'184);
}

TEST(DedicatedTime, AProcessAlonePassesItsBarriersAtOnce) {
  // 25 s = W + 2500 phases of (25 000 000 000 - 100 000) / 2500 = 9 999 960 ns.
  auto profile = profile_of(1);
  size_phases(profile, now_config(), 10 * kMs, 25'000 * kMs);
  EXPECT_EQ(profile.barriers, 2500);
  EXPECT_EQ(profile.sync_interval, 9'999'960);
}

TEST(DedicatedTime, AllToAllBarriersTakeTheirApproximation) {
  // 2 (P-1) o + d = 12 000 + 10 008 = 22 008 per barrier, 5 barriers: fixed 100 000 + 110 040 = 210 040;
  // a phase (50 000 000 - 210 040) / 5 = 9 957 992.
  auto profile = profile_of(4);
  profile.barrier_kind = config::BarrierKind::AllToAll;
  size_phases(profile, now_config(), 10 * kMs, 50 * kMs);
  EXPECT_EQ(profile.barriers, 5);
  EXPECT_EQ(profile.sync_interval, 9'957'992);
}

TEST(DedicatedTime, ImbalanceSizesTheExpectedSlowestProcess) {
  // The job of ACommunicationFreeJobOnFlatTrees at imbalance 1.5 under `spin` (no wake-ups): factors
  // uniform on [0.8, 1.2], the slowest of 4 expected at 0.8 + 0.4 x 4/5 = 1.12, so the mean phase is
  // 9 947 184 / 1.12 = 8 881 414.3 -> 8 881 414.
  auto profile = profile_of(4);
  profile.imbalance = 1.5;
  profile.wait = wait::now_waits().defaults("spin");
  size_phases(profile, now_config(), 10 * kMs, 50 * kMs);
  EXPECT_EQ(profile.sync_interval, 8'881'414);
  // block-immediately: 6.984375 expected wake-ups x W (stream_jobs_test.cpp derives them) = 698 438 ns;
  // (50 000 000 - 264 080 - 698 438) / 5 = 9 807 496 for the slowest, / 1.12 = 8 756 692.86 -> 8 756 693.
  profile.wait = wait::now_waits().defaults("block-immediately");
  size_phases(profile, now_config(), 10 * kMs, 50 * kMs);
  EXPECT_EQ(profile.sync_interval, 8'756'693);
}

TEST(DedicatedTime, ARunTimeShorterThanTheBarriersCostGivesTheShortestPhase) {
  // 100 us on 4 processes: one barrier, fixed W + first 18 008 + last 18 008 = 136 016 > 100 000, so the
  // phase is the shortest there is, 1 ns (the job then takes the barriers' cost).
  auto profile = profile_of(4);
  size_phases(profile, now_config(), 10 * kMs, 100'000);
  EXPECT_EQ(profile.barriers, 1);
  EXPECT_EQ(profile.sync_interval, 1);
}

}  // namespace
}  // namespace cosched::now
