// Explicit coscheduling (docs/models/now-schedulers.md): the shared Ousterhout matrix and a workstation's
// strict gang scheduler. Slots of 10 ms.

#include "sched/now/gang.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "sched/now/local_scheduler_registry.hpp"

namespace cosched::sched {
namespace {

constexpr SimTime kMs = 1'000'000;
constexpr SimTime kSlot = 10 * kMs;

std::vector<std::optional<JobId>> owners(GangMatrix& matrix, const std::vector<std::int64_t>& slots) {
  std::vector<std::optional<JobId>> out;
  for (auto slot : slots) out.push_back(matrix.job_for_slot(slot));
  return out;
}

TEST(Gang, JobsTakeSlotsInRotation) {
  GangMatrix matrix(kSlot, {7, 3, 5});
  std::vector<std::optional<JobId>> expected = {7, 3, 5, 7, 3, 5};
  EXPECT_EQ(owners(matrix, {0, 1, 2, 3, 4, 5}), expected) << "the listed order, round and round";
}

TEST(Gang, EveryWorkstationGetsTheSameAnswerWhateverOrderItAsks) {
  GangMatrix ascending(kSlot, {1, 2, 3});
  GangMatrix descending(kSlot, {1, 2, 3});
  ascending.job_finished(2, 25 * kMs);
  descending.job_finished(2, 25 * kMs);
  auto first = owners(ascending, {0, 1, 2, 3, 4, 5, 6, 7});
  auto second = owners(descending, {7, 6, 5, 4, 3, 2, 1, 0});
  std::reverse(second.begin(), second.end());
  EXPECT_EQ(first, second) << "slot ownership does not depend on the order of the questions";

  // Two workstations sharing one matrix, asking about the same slot in either order.
  auto shared = std::make_shared<GangMatrix>(kSlot, std::vector<JobId>{1, 2});
  Gang a(shared);
  Gang b(shared);
  a.admit(0, 2, 1, 0);
  b.admit(0, 2, 1, 0);
  EXPECT_FALSE(b.pick_next(5 * kMs).has_value()) << "slot 0 belongs to job 1 on b";
  EXPECT_FALSE(a.pick_next(5 * kMs).has_value()) << "and on a";
  EXPECT_EQ(a.pick_next(15 * kMs), 0) << "slot 1 belongs to job 2 on a";
  EXPECT_EQ(b.pick_next(15 * kMs), 0) << "and on b";
}

TEST(Gang, ACompletionAtASlotBoundaryGivesOneAnswerInEitherOrder) {
  GangMatrix reported_first(kSlot, {1, 2, 3});
  GangMatrix asked_first(kSlot, {1, 2, 3});
  owners(reported_first, {0, 1, 2});
  owners(asked_first, {0, 1, 2});
  reported_first.job_finished(1, 30 * kMs);
  auto a = reported_first.job_for_slot(3);
  auto b = asked_first.job_for_slot(3);
  asked_first.job_finished(1, 30 * kMs);
  EXPECT_EQ(a, b) << "a job finishing exactly as its slot starts keeps the slot, whichever event comes first";
  EXPECT_EQ(a, 1) << "and idles through it";
  EXPECT_EQ(reported_first.job_for_slot(4), 2) << "the next slot moves on";
}

TEST(Gang, ALateCompletionDoesNotChangeAnAnswerAlreadyGiven) {
  GangMatrix matrix(kSlot, {1, 2});
  EXPECT_EQ(matrix.job_for_slot(4), 1) << "a workstation running ahead asks about slot 4 (from 40 ms)";
  matrix.job_finished(1, 35 * kMs);
  EXPECT_EQ(matrix.job_for_slot(4), 1)
      << "a completion at 35 ms reported afterwards leaves slot 4 as answered";
  EXPECT_EQ(matrix.job_for_slot(5), 2) << "slot 5 goes to job 2 as usual";
  EXPECT_EQ(matrix.job_for_slot(6), 2) << "job 1 owns no slot handed out after the report";
}

TEST(Gang, SlotsSkipFinishedJobs) {
  GangMatrix matrix(kSlot, {1, 2, 3});
  owners(matrix, {0, 1, 2, 3});
  matrix.job_finished(2, 35 * kMs);
  std::vector<std::optional<JobId>> expected = {3, 1, 3, 1};
  EXPECT_EQ(owners(matrix, {4, 5, 6, 7}), expected) << "job 2, finished at 35 ms, owns no later slot";
  matrix.job_finished(1, 75 * kMs);
  matrix.job_finished(3, 75 * kMs);
  EXPECT_FALSE(matrix.job_for_slot(8).has_value()) << "every job has finished: nobody owns slot 8";
}

TEST(Gang, IdlesWhenTheSlotsJobHasNoReadyProcessHere) {
  auto matrix = std::make_shared<GangMatrix>(kSlot, std::vector<JobId>{1, 2});
  Gang gang(matrix);
  gang.admit(0, 1, 1, 0);
  ASSERT_EQ(gang.pick_next(0), 0) << "slot 0: job 1";
  EXPECT_EQ(gang.time_slice(0, 3 * kMs), 7 * kMs) << "the slice runs to the end of the slot";
  gang.leave_cpu(0, LeaveReason::QuantumExpired, kSlot, kSlot);
  EXPECT_FALSE(gang.pick_next(kSlot).has_value()) << "slot 1 is job 2's, which has no process here: idle";
  EXPECT_TRUE(gang.has_ready()) << "though job 1's process is ready";
  ASSERT_EQ(gang.pick_next(2 * kSlot), 0) << "slot 2: job 1 again";
  gang.leave_cpu(0, LeaveReason::Blocked, 2 * kSlot + 1 * kMs, 1 * kMs);
  EXPECT_FALSE(gang.pick_next(2 * kSlot + 1 * kMs).has_value()) << "its own slot, but its process is blocked";
  EXPECT_TRUE(gang.processes_always_spin()) << "processes of a gang-scheduled job never block";
}

TEST(Gang, TicksAtSlotBoundariesAndPreemptsThere) {
  auto matrix = std::make_shared<GangMatrix>(kSlot, std::vector<JobId>{1, 2});
  Gang gang(matrix);
  gang.admit(0, 1, 1, 0);
  gang.admit(1, 2, 1, 0);
  EXPECT_EQ(gang.next_tick(), kSlot) << "the first boundary";
  ASSERT_EQ(gang.pick_next(0), 0) << "slot 0: job 1";
  EXPECT_FALSE(gang.should_preempt(0, 5 * kMs, 5 * kMs)) << "within its own slot";
  gang.tick(kSlot);
  EXPECT_EQ(gang.next_tick(), 2 * kSlot) << "the next boundary";
  EXPECT_TRUE(gang.should_preempt(0, kSlot, kSlot)) << "slot 1 is job 2's and its process is ready";
  gang.leave_cpu(0, LeaveReason::Preempted, kSlot, kSlot);
  EXPECT_EQ(gang.pick_next(kSlot), 1) << "job 2 runs in its slot";
  EXPECT_FALSE(gang.should_preempt(1, kSlot + 5 * kMs, 5 * kMs))
      << "job 1's ready process waits for its slot";
}

// ---- slurm-gang's suspensions (docs/models/now-streams.md sections 3.5 and 5.4) ----

TEST(Gang, SuspensionsRunOnlyTheJobsNotStopped) {
  auto matrix = std::make_shared<GangMatrix>(GangMatrix::Suspensions{});
  matrix->set_active(1, true, 0);
  matrix->set_active(2, false, 0);
  Gang gang(matrix);
  gang.admit(0, 1, 1, 0);
  gang.admit(1, 2, 1, 0);
  EXPECT_FALSE(gang.next_tick()) << "no slots: the stream's signals say when to reconsider";
  ASSERT_EQ(gang.pick_next(0), 0) << "job 2 is suspended";
  EXPECT_FALSE(gang.should_preempt(0, 4 * kMs, 4 * kMs));
  // The time slicer swaps them at 5 ms.
  matrix->set_active(1, false, 5 * kMs);
  matrix->set_active(2, true, 5 * kMs);
  EXPECT_TRUE(gang.should_preempt(0, 5 * kMs, 5 * kMs)) << "a stopped job's process leaves the CPU at once";
  gang.leave_cpu(0, LeaveReason::Preempted, 5 * kMs, 5 * kMs);
  EXPECT_EQ(gang.pick_next(5 * kMs), 1);
  // Job 2 is stopped at 8 ms and job 1 resumed only at 9 ms (a resumption's cost): the CPU idles between.
  matrix->set_active(2, false, 8 * kMs);
  matrix->set_active(1, true, 9 * kMs);
  EXPECT_TRUE(gang.should_preempt(1, 8 * kMs, 3 * kMs)) << "stopped, though nothing else may run";
  gang.leave_cpu(1, LeaveReason::Preempted, 8 * kMs, 3 * kMs);
  EXPECT_FALSE(gang.pick_next(8 * kMs).has_value());
  EXPECT_EQ(gang.pick_next(9 * kMs), 0);
}

TEST(Gang, ASuspensionDecidedLaterButEarlierReplacesAResumption) {
  GangMatrix matrix(GangMatrix::Suspensions{});
  matrix.set_active(3, false, 0);
  matrix.set_active(3, true, 20);   // a resumption paying its cost until 20
  matrix.set_active(3, false, 15);  // a rotation at 15 stops it first: the resumption never happens
  EXPECT_FALSE(matrix.active(3, 10));
  EXPECT_FALSE(matrix.active(3, 25));
  EXPECT_FALSE(matrix.active(7, 0)) << "a job never set is stopped";
}

// ---- flexible coscheduling (docs/models/now-streams.md section 3.6) ----

GangMatrix::Flexible thresholds() {
  return {1 * kMs, 0.5};
}

// A flexible matrix of two rows: job 1 in row 0, job 2 in row 1, both from time 0.
std::shared_ptr<GangMatrix> flexible_two_rows() {
  auto matrix = std::make_shared<GangMatrix>(kSlot, GangMatrix::Rows{2});
  matrix->set_flexible(thresholds());
  matrix->enter_row(1, 0, 0);
  matrix->enter_row(2, 1, 0);
  return matrix;
}

TEST(Gang, FlexibleClassesByGranularityThenWaiting) {
  GangMatrix matrix(kSlot, GangMatrix::Rows{2});
  matrix.set_flexible(thresholds());
  const auto us = [](std::int64_t n) { return n * kMs / 1000; };
  EXPECT_EQ(matrix.classify({5 * kMs, 0, 2}, FcsClass::CS), FcsClass::DC) << "2.5 ms per wait: coarse";
  EXPECT_EQ(matrix.classify({4 * kMs, 0, 4}, FcsClass::CS), FcsClass::DC)
      << "exactly the granularity: coarse";
  EXPECT_EQ(matrix.classify({2 * kMs, 0, 0}, FcsClass::F), FcsClass::DC) << "no wait, 2 ms of computation";
  EXPECT_EQ(matrix.classify({us(500), 0, 0}, FcsClass::F), FcsClass::F) << "no wait, too little to judge";
  EXPECT_EQ(matrix.classify({4 * kMs, 3 * kMs, 10}, FcsClass::F), FcsClass::CS) << "fine, waits 3/7 of it";
  EXPECT_EQ(matrix.classify({4 * kMs, 4 * kMs, 10}, FcsClass::F), FcsClass::CS) << "half is not above half";
  EXPECT_EQ(matrix.classify({4 * kMs, 5 * kMs, 10}, FcsClass::CS), FcsClass::F)
      << "fine, waits 5/9: frustrated";
}

TEST(Gang, FlexibleFillsAnIdleSlotWithFAndDcProcessesOnly) {
  Gang gang(flexible_two_rows());
  EXPECT_FALSE(gang.processes_always_spin());
  EXPECT_TRUE(gang.measures());
  gang.admit(0, 1, 1, 0);
  gang.admit(1, 2, 1, 0);
  EXPECT_TRUE(gang.process_always_spins(1)) << "every process starts CS, and CS processes spin";
  ASSERT_EQ(gang.pick_next(0), 0) << "slot 0: row 0's job 1";
  gang.leave_cpu(0, LeaveReason::Blocked, 1 * kMs, 1 * kMs);
  EXPECT_FALSE(gang.pick_next(1 * kMs).has_value()) << "job 2's process is CS: it keeps to its own slots";

  // Slot 0 ends: job 1 computed 1 ms and then waited 9 ms with no wait completed; one long wait says
  // nothing yet, so it stays CS. Job 2 is not measured in row 0's slot.
  EXPECT_FALSE(gang.measure(0, {1 * kMs, 9 * kMs, 0}, kSlot));
  EXPECT_FALSE(gang.measure(1, {}, kSlot));
  // Slot 1 is row 1's: job 2 computes 10 ms without a wait, and is classed DC as it ends. Job 1's activity
  // in that slot (as if it had filled it: 8 ms over 2 waits, coarse) is not its own slot's and is ignored.
  ASSERT_EQ(gang.pick_next(kSlot), 1);
  gang.leave_cpu(1, LeaveReason::QuantumExpired, 2 * kSlot, kSlot);
  EXPECT_FALSE(gang.measure(0, {9 * kMs, 9 * kMs, 2}, 2 * kSlot));
  EXPECT_TRUE(gang.measure(1, {kSlot, 0, 0}, 2 * kSlot));
  ASSERT_TRUE(gang.fcs_record(1).has_value());
  EXPECT_EQ(gang.fcs_record(1)->cls, FcsClass::DC);
  EXPECT_EQ(gang.fcs_record(1)->reclassifications, 1);
  EXPECT_EQ(gang.fcs_record(0)->cls, FcsClass::CS) << "job 1 is classed by its own slots only";
  EXPECT_FALSE(gang.process_always_spins(1)) << "a DC process waits by its job's algorithm";

  // Slot 2 is row 0's again, but job 1's process is blocked: the DC process fills it ...
  EXPECT_EQ(gang.pick_next(2 * kSlot), 1) << "a filler";
  EXPECT_FALSE(gang.should_preempt(1, 2 * kSlot + 1 * kMs, 1 * kMs)) << "nothing better is ready";
  // ... until job 1's process wakes, and takes its slot back.
  gang.wake(0, 2 * kSlot + 2 * kMs);
  EXPECT_TRUE(gang.should_preempt(1, 2 * kSlot + 2 * kMs, 2 * kMs));
  gang.leave_cpu(1, LeaveReason::Preempted, 2 * kSlot + 2 * kMs, 2 * kMs);
  EXPECT_EQ(gang.pick_next(2 * kSlot + 2 * kMs), 0);
  // In row 1's slot 3 the CS process of row 0 must leave: job 2's DC process is ready, in its own slot.
  EXPECT_TRUE(gang.should_preempt(0, 3 * kSlot, kSlot));
  gang.leave_cpu(0, LeaveReason::Preempted, 3 * kSlot, kSlot);
  EXPECT_EQ(gang.pick_next(3 * kSlot), 1);
  gang.leave_cpu(1, LeaveReason::Blocked, 3 * kSlot + 1 * kMs, 1 * kMs);
  EXPECT_FALSE(gang.pick_next(3 * kSlot + 1 * kMs).has_value()) << "a CS process never fills";
}

TEST(Gang, FlexibleCsProcessLeavesAnotherRowsSlotEvenWithNothingToReplaceIt) {
  Gang gang(flexible_two_rows());
  gang.admit(0, 1, 1, 0);  // row 1's job 2 has no process on this workstation
  ASSERT_EQ(gang.pick_next(0), 0) << "slot 0: row 0's job 1";
  EXPECT_FALSE(gang.should_preempt(0, 5 * kMs, 5 * kMs)) << "its own slot";
  EXPECT_TRUE(gang.should_preempt(0, kSlot, kSlot))
      << "row 1's slot: a CS process runs in its own slots only";
  gang.leave_cpu(0, LeaveReason::Preempted, kSlot, kSlot);
  EXPECT_FALSE(gang.pick_next(kSlot).has_value()) << "the CPU idles: no process of row 1 here, no filler";
  EXPECT_EQ(gang.pick_next(2 * kSlot), 0) << "back in its own slot";
}

// ---- paired gang (docs/models/now-streams.md section 3.8) ----

// Three rows: job 1 in row 0, job 2 in row 1, job 3 in row 2, from time 0. The rotation is asked slot by slot
// with each slot's report in between, as the workstations do: job 1 computes 9 of its 10 ms in slot 0, job 2
// 2 of 10 in slot 1, job 3 5 of 10 in slot 2.
std::shared_ptr<GangMatrix> paired_three_rows(double limit) {
  auto matrix = std::make_shared<GangMatrix>(kSlot, GangMatrix::Rows{3});
  matrix->set_paired({limit});
  for (int job = 1; job <= 3; ++job) matrix->enter_row(job, job - 1, 0);
  const SimTime compute[] = {9 * kMs, 2 * kMs, 5 * kMs};
  for (int slot = 0; slot < 3; ++slot) {
    EXPECT_EQ(matrix->row_for_slot(slot), slot) << "unmeasured rows run alone, in rotation";
    EXPECT_FALSE(matrix->partner_for_slot(slot).has_value());
    matrix->report(slot, slot + 1, compute[slot], kSlot);
  }
  return matrix;
}

TEST(Gang, PairedRowsShareSlotsTheHeavyWithTheLight) {
  auto matrix = paired_three_rows(1.0);
  // The cycle that starts at slot 3 folds in slots 0 and 1 only: rows 0 (0.9) and 1 (0.2) sum to 1.1, over
  // the limit, and row 2 is not measured yet. Every row runs alone.
  for (int slot = 3; slot < 6; ++slot) {
    EXPECT_EQ(matrix->row_for_slot(slot), slot - 3);
    EXPECT_FALSE(matrix->partner_for_slot(slot).has_value());
  }
  // The cycle that starts at slot 6 knows all three: 0.9 goes with nobody (even 0.9 + 0.2 is too much), 0.5
  // with 0.2. A pair costs the cycle one slot: cycles of two slots from then on.
  EXPECT_EQ(matrix->row_for_slot(6), 0);
  EXPECT_FALSE(matrix->partner_for_slot(6).has_value());
  EXPECT_EQ(matrix->row_for_slot(7), 1);
  EXPECT_EQ(matrix->partner_for_slot(7), 2);
  EXPECT_EQ(matrix->row_for_slot(8), 0) << "row 2 runs in row 1's slots, not in slots of its own";
  EXPECT_EQ(matrix->row_for_slot(9), 1);
  EXPECT_EQ(matrix->partner_for_slot(9), 2);
  EXPECT_DOUBLE_EQ(*matrix->utilization(1), 0.9);
  EXPECT_DOUBLE_EQ(*matrix->utilization(2), 0.2);
  EXPECT_EQ(matrix->paired_slots(1), 0);
  EXPECT_EQ(matrix->paired_slots(2), 2) << "slots 7 and 9";
  EXPECT_EQ(matrix->paired_slots(3), 2);
  EXPECT_THROW(matrix->report(7, 2, kMs, kSlot), std::logic_error)
      << "slot 9 has folded in slot 7: a report for it now would come from a workstation too far behind";
  // pairs.csv's lines: the cycle starting at slot 6 paired rows 1 and 2, one line for each, with the
  // utilizations the pairing used; the cycle at slot 8 kept them (no line).
  const auto& changes = matrix->pair_changes();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].time, 6 * kSlot);
  EXPECT_EQ(changes[0].row, 1);
  EXPECT_EQ(changes[0].partner, 2);
  EXPECT_DOUBLE_EQ(*changes[0].utilization, 0.2);
  EXPECT_DOUBLE_EQ(*changes[0].partner_utilization, 0.5);
  EXPECT_EQ(changes[1].row, 2);
  EXPECT_EQ(changes[1].partner, 1);
}

TEST(Gang, PairedKeepsEveryRowInTheRotationWhenPairsChange) {
  // Rows 0 and 1 are heavy and alternate as the heavier; row 2 is light and pairs with whichever is heavier
  // as a cycle starts. Over many slots every row runs, each at least once a cycle.
  auto matrix = std::make_shared<GangMatrix>(kSlot, GangMatrix::Rows{3});
  matrix->set_paired({1.0});
  for (int job = 1; job <= 3; ++job) matrix->enter_row(job, job - 1, 0);
  std::vector<int> runs(3, 0);
  for (int slot = 0; slot < 60; ++slot) {
    const auto owner = matrix->row_for_slot(slot);
    ASSERT_TRUE(owner.has_value());
    ++runs[*owner];
    if (const auto with = matrix->partner_for_slot(slot)) ++runs[*with];
    for (int row : {*owner, matrix->partner_for_slot(slot).value_or(-1)}) {
      if (row < 0) continue;
      const bool heavier = (slot / 3) % 2 == row;  // rows 0 and 1 take turns at 0.8
      matrix->report(slot, row + 1, row == 2 ? 2 * kMs : (heavier ? 8 : 7) * kMs, kSlot);
    }
  }
  for (int row = 0; row < 3; ++row) EXPECT_GE(runs[row], 20) << "row " << row << " starved";
  EXPECT_GT(matrix->paired_slots(3), 0) << "the light row was paired";
  // pairs.csv's lines follow the light row from one heavy row to the other: it changes partner, and the
  // heavy row it leaves goes alone (a line with no partner, its own utilization, none for a partner).
  std::set<int> light_partners;
  bool heavy_left_alone = false;
  for (const auto& change : matrix->pair_changes()) {
    if (change.row == 2) light_partners.insert(change.partner);
    if (change.row < 2 && change.partner < 0) {
      heavy_left_alone = true;
      EXPECT_TRUE(change.utilization.has_value());
      EXPECT_FALSE(change.partner_utilization.has_value());
    }
  }
  EXPECT_EQ(light_partners, (std::set<int>{0, 1}));
  EXPECT_TRUE(heavy_left_alone);
}

TEST(Gang, PairedRowWhoseJobLeavesEndsItsPairAtTheNextCycle) {
  auto matrix = paired_three_rows(1.0);
  EXPECT_EQ(matrix->row_for_slot(6), 0);
  EXPECT_EQ(matrix->partner_for_slot(7), 2) << "rows 1 and 2 pair from the cycle at slot 6";
  matrix->leave_row(3, 8 * kSlot);  // row 2's only job ends: it holds no slot from 8 on
  EXPECT_EQ(matrix->row_for_slot(8), 0);
  EXPECT_EQ(matrix->row_for_slot(9), 1);
  EXPECT_FALSE(matrix->partner_for_slot(9).has_value());
  // Two lines at slot 8's start: row 1 alone (measured, no partner), and row 2 alone (holding no job).
  const auto& changes = matrix->pair_changes();
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[2].time, 8 * kSlot);
  EXPECT_EQ(changes[2].row, 1);
  EXPECT_EQ(changes[2].partner, -1);
  EXPECT_DOUBLE_EQ(*changes[2].utilization, 0.2);
  EXPECT_EQ(changes[3].row, 2);
  EXPECT_EQ(changes[3].partner, -1);
  EXPECT_FALSE(changes[3].utilization.has_value()) << "a row holding no job";
}

TEST(Gang, PairedMeasuresEachJobWithAHalvingMemoryAndKeepsToTheLimit) {
  auto matrix = paired_three_rows(0.5);
  EXPECT_EQ(matrix->row_for_slot(3), 0);
  matrix->report(3, 1, 1 * kMs, kSlot);  // job 1 now computes 1 ms of its 10
  EXPECT_EQ(matrix->row_for_slot(4), 1);
  EXPECT_EQ(matrix->row_for_slot(5), 2);
  EXPECT_EQ(matrix->row_for_slot(6), 0);
  EXPECT_DOUBLE_EQ(*matrix->utilization(1), (1.0 + 9.0 / 2) / (10.0 + 10.0 / 2))
      << "slot 3 weighs twice as much as slot 0";
  EXPECT_FALSE(matrix->partner_for_slot(6).has_value()) << "0.5 + 0.2 and 0.37 + 0.2 are over 0.5";
  EXPECT_EQ(matrix->row_for_slot(7), 1);
  EXPECT_FALSE(matrix->partner_for_slot(7).has_value());
  EXPECT_FALSE(matrix->utilization(4).has_value()) << "a job never measured";
  EXPECT_TRUE(matrix->pair_changes().empty()) << "no row was ever paired";
}

TEST(Gang, PairedSlotRunsEitherRowsProcessTheWokenOneFirst) {
  auto matrix = paired_three_rows(1.0);
  Gang gang(matrix);
  EXPECT_FALSE(gang.processes_always_spin()) << "processes block, so that the partner's may run";
  EXPECT_FALSE(gang.process_always_spins(0));
  EXPECT_TRUE(gang.measures());
  const SimTime t = 7 * kSlot;  // slot 7: row 1 with row 2
  gang.admit(0, 2, 1, t);       // row 1's job 2
  gang.admit(1, 3, 1, t);       // row 2's job 3
  gang.admit(2, 1, 1, t);       // row 0's job 1
  ASSERT_EQ(gang.pick_next(t), 0) << "the first ready process of the pair";
  EXPECT_FALSE(gang.should_preempt(0, t + kMs, kMs)) << "job 3's process is ready, but was not woken";
  gang.leave_cpu(0, LeaveReason::Blocked, t + kMs, kMs);
  ASSERT_EQ(gang.pick_next(t + kMs), 1) << "the partner row's process, not row 0's";
  gang.wake(0, t + 2 * kMs);
  EXPECT_TRUE(gang.should_preempt(1, t + 2 * kMs, kMs)) << "the woken process takes the CPU back";
  gang.leave_cpu(1, LeaveReason::Preempted, t + 2 * kMs, kMs);
  ASSERT_EQ(gang.pick_next(t + 2 * kMs), 0);
  EXPECT_FALSE(gang.should_preempt(0, t + 3 * kMs, kMs)) << "the preempted one was not woken: no ping-pong";
  // Slot 7 ends: the processes of both its rows report, row 0's does not (its row did not run).
  EXPECT_FALSE(gang.measure(0, {6 * kMs, 2 * kMs, 3}, 8 * kSlot)) << "no class to change";
  gang.measure(1, {1 * kMs, 9 * kMs, 1}, 8 * kSlot);
  gang.measure(2, {10 * kMs, 0, 1}, 8 * kSlot);
  EXPECT_TRUE(gang.should_preempt(0, 8 * kSlot, kMs)) << "slot 8 is row 0's alone";
  gang.leave_cpu(0, LeaveReason::QuantumExpired, 8 * kSlot, kMs);
  EXPECT_EQ(gang.pick_next(8 * kSlot), 2);
  matrix->row_for_slot(9);  // a cycle starts, folding in slot 7
  EXPECT_DOUBLE_EQ(*matrix->utilization(2), (6.0 + 2.0 / 2) / (8.0 + 10.0 / 2));
  EXPECT_DOUBLE_EQ(*matrix->utilization(3), (1.0 + 5.0 / 2) / (10.0 + 10.0 / 2));
  EXPECT_DOUBLE_EQ(*matrix->utilization(1), 0.9) << "row 0 did not run in slot 7: nothing reported";
}

TEST(GangRegistry, BuildsEveryPolicyAndRefusesGangWithoutAMatrix) {
  auto matrix = std::make_shared<GangMatrix>(kSlot, std::vector<JobId>{0});
  const auto& registry = local_schedulers();
  for (const auto* entry : registry.entries())
    EXPECT_NE(entry->make(*entry->spec.defaults(), matrix), nullptr) << entry->spec.name;
  try {
    registry.at("gang").make(*registry.at("gang").spec.defaults(), nullptr);
    FAIL() << "gang without a matrix accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "scheduler.policy: gang needs the gang matrix shared by all workstations")
        << "the message names the setting";
  }
  EXPECT_TRUE(registry.at("gang").gang_matrix) << "only gang shares a matrix";
  EXPECT_FALSE(registry.at("stride-credit").gang_matrix);
}

}  // namespace
}  // namespace cosched::sched
