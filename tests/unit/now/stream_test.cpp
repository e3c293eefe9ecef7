// An open workload's pure parts (docs/models/now-streams.md section 5): the gang matrix over the stream's
// rows, and the coordinator's bookkeeping (now::Stream) with a scripted job scheduler. Slots of 10 ms.

#include "now/stream.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sched/now/gang.hpp"

namespace cosched::now {
namespace {

constexpr Nanos kMs = 1'000'000;
constexpr Nanos kSlot = 10 * kMs;

std::vector<std::optional<int>> rows(sched::GangMatrix& matrix, int slots) {
  std::vector<std::optional<int>> out;
  for (int s = 0; s < slots; ++s) out.push_back(matrix.row_for_slot(s));
  return out;
}

TEST(GangRows, SlotsRotateOverTheRowsThatHoldAJob) {
  sched::GangMatrix matrix(kSlot, sched::GangMatrix::Rows{3});
  EXPECT_TRUE(matrix.by_rows());
  matrix.enter_row(5, 0, 0);
  matrix.enter_row(7, 2, 15 * kMs);  // holds row 2 from slot 2 (starting at 20 ms) on
  matrix.leave_row(5, 35 * kMs);     // row 0 empty from slot 4 (starting at 40 ms) on
  matrix.enter_row(9, 0, 60 * kMs);  // row 0 again from slot 6
  // Slots 0-1: row 0 alone; 2-3: rows 0 and 2 alternate (row 1 holds nothing); 4-5: row 2 alone;
  // from 6: rows 0 and 2, the rotation going on from row 2.
  const std::vector<std::optional<int>> expected = {0, 0, 2, 0, 2, 2, 0, 2};
  EXPECT_EQ(rows(matrix, 8), expected);
  EXPECT_EQ(matrix.row_of(7), 2);
  EXPECT_EQ(matrix.row_of(8), std::nullopt) << "a job never entered has no row";
}

TEST(GangRows, NoRowHeldMeansNoOwnerAndTheRotationGoesOnAfter) {
  sched::GangMatrix matrix(kSlot, sched::GangMatrix::Rows{2});
  matrix.enter_row(1, 1, 0);
  matrix.leave_row(1, 5 * kMs);
  matrix.enter_row(2, 0, 25 * kMs);
  matrix.enter_row(3, 1, 25 * kMs);
  // Slot 0: row 1; slots 1-2: nothing; slot 3: the row after row 1 that holds a job, row 0; then row 1.
  const std::vector<std::optional<int>> expected = {1, std::nullopt, std::nullopt, 0, 1, 0};
  EXPECT_EQ(rows(matrix, 6), expected);
}

TEST(GangRows, AWorkstationRunsTheProcessOfTheSlotsRow) {
  auto matrix = std::make_shared<sched::GangMatrix>(kSlot, sched::GangMatrix::Rows{2});
  matrix->enter_row(4, 0, 0);
  matrix->enter_row(6, 1, 0);
  sched::Gang gang(matrix);
  gang.admit(0, 4, 100, 0);  // process 0: job 4, row 0
  gang.admit(1, 6, 100, 0);  // process 1: job 6, row 1
  EXPECT_EQ(gang.pick_next(0), 0) << "slot 0 belongs to row 0";
  EXPECT_TRUE(gang.should_preempt(0, kSlot, kSlot)) << "slot 1 belongs to row 1, whose process is ready";
  gang.leave_cpu(0, sched::LeaveReason::Preempted, kSlot, kSlot);
  EXPECT_EQ(gang.pick_next(kSlot), 1) << "slot 1 belongs to row 1";
}

// A job scheduler that records what it is told and starts what the test scripts.
struct Script {
  std::vector<std::string> calls;
  std::vector<std::vector<sched::JobStart>> decisions;  // returned by decide(), in turn
};

class ScriptedScheduler : public sched::JobScheduler {
 public:
  explicit ScriptedScheduler(Script* script) : script_(script) {}
  void submit(const sched::StreamJob& job, sched::SimTime now) override {
    script_->calls.push_back("submit " + std::to_string(job.id) + " at " + std::to_string(now));
  }
  void finished(int job, sched::SimTime now) override {
    script_->calls.push_back("finished " + std::to_string(job) + " at " + std::to_string(now));
  }
  std::vector<sched::JobStart> decide(sched::SimTime now) override {
    script_->calls.push_back("decide at " + std::to_string(now));
    if (script_->decisions.empty()) return {};
    auto out = script_->decisions.front();
    script_->decisions.erase(script_->decisions.begin());
    return out;
  }

 private:
  Script* script_;
};

StreamBuild three_jobs() {
  StreamBuild build;
  const Nanos submits[] = {0, 0, 5 * kMs};
  const int processes[] = {2, 1, 2};
  for (int j = 0; j < 3; ++j) {
    StreamJobSpec spec;
    spec.job = {j, submits[j], processes[j], 10 * kMs};
    spec.run_time = 10 * kMs;
    build.jobs.push_back(spec);
  }
  return build;
}

TEST(StreamCoordinator, DecidesAtSubmitsAndAtFinishesKnownANoticeLater) {
  Script script;
  std::vector<JobLayout> layouts(3);
  const StreamTiming timing{14'000, 12'000};  // L + 2o and L + o with L = 10us, o = 2us
  Stream stream(three_jobs(), std::make_unique<ScriptedScheduler>(&script), timing, 4, 1, &layouts, nullptr);
  script.decisions = {{{0, {2, 3}, -1}, {1, {0}, -1}}, {}, {{2, {0, 1}, -1}}};
  EXPECT_EQ(stream.next_decision(), 0) << "the first submits";
  EXPECT_EQ(stream.decide(0), (std::vector<int>{2, 3, 0})) << "the workstations given starts, each once";
  EXPECT_EQ(stream.start_time(0), 12'000) << "a start takes effect L + o after the decision";
  EXPECT_EQ(layouts[0].workstation_of, (std::vector<int>{2, 3}));
  EXPECT_EQ(stream.next_start(3), 12'000);
  const ProcessStart start = stream.pop_start(3);
  EXPECT_EQ(start.job, 0);
  EXPECT_EQ(start.rank, 1) << "workstation 3 holds rank 1 of job 0";
  EXPECT_EQ(stream.next_start(3), kNoTime);

  EXPECT_EQ(stream.next_decision(), 5 * kMs) << "the next submit";
  EXPECT_TRUE(stream.decide(5 * kMs).empty())
      << "job 2 waits: workstations 0 (job 1) and 2, 3 (job 0) are busy";
  Nanos told = -1;
  stream.on_earlier_decision([&](Nanos at) { told = at; });
  stream.job_finished(1, 8 * kMs);  // known to the coordinator at 8 ms + 14 us
  EXPECT_EQ(told, 8 * kMs + 14'000) << "the coordinator hears its next decision came earlier";
  EXPECT_EQ(stream.next_decision(), 8 * kMs + 14'000);
  EXPECT_EQ(stream.decide(8 * kMs + 14'000), (std::vector<int>{0, 1}));
  EXPECT_EQ(stream.start_time(2), 8 * kMs + 26'000);
  EXPECT_FALSE(stream.done());
  stream.job_finished(0, 11 * kMs);
  stream.job_finished(2, 19 * kMs);
  stream.decide(11 * kMs + 14'000);
  stream.decide(19 * kMs + 14'000);
  EXPECT_TRUE(stream.done()) << "every finish told to the job scheduler";
  EXPECT_EQ(stream.next_decision(), kNoTime);
  const std::vector<std::string> expected = {
      "submit 0 at 0",      "submit 1 at 0",          "decide at 0",       "submit 2 at 5000000",
      "decide at 5000000",  "finished 1 at 8014000",  "decide at 8014000", "finished 0 at 11014000",
      "decide at 11014000", "finished 2 at 19014000", "decide at 19014000"};
  EXPECT_EQ(script.calls, expected) << "finishes, then submits, then one decision, at each instant";
}

TEST(StreamCoordinator, RefusesAStartTheWorkstationsCannotCarryOut) {
  auto refuses = [](std::vector<sched::JobStart> decision, const char* what) {
    Script script;
    std::vector<JobLayout> layouts(3);
    Stream stream(three_jobs(), std::make_unique<ScriptedScheduler>(&script), {14'000, 12'000}, 4, 1,
                  &layouts, nullptr);
    script.decisions = {std::move(decision)};
    EXPECT_THROW(stream.decide(0), std::logic_error) << what;
  };
  refuses({{0, {1}, -1}}, "job 0 has 2 processes");
  refuses({{0, {1, 1}, -1}}, "two processes on one workstation");
  refuses({{0, {1, 4}, -1}}, "workstation 4 of 4");
  refuses({{2, {0, 1}, -1}}, "job 2 is not submitted at 0");
  refuses({{0, {0, 1}, -1}, {1, {1}, -1}}, "dedicated: workstation 1 already holds job 0");
}

}  // namespace
}  // namespace cosched::now
