// An open workload's jobs from SWF records (docs/models/now-streams.md section 4): the window of records,
// skips, load and time scaling, EASY's estimates, classes, and phases sized so that a job's dedicated run
// time is its scaled SWF run time. Hand-made traces; every number derived by hand in the comments.

#include "now/stream_jobs.hpp"

#include <gtest/gtest.h>

#include <string>

#include "config/input_error.hpp"
#include "sched/now/local_scheduler_registry.hpp"
#include "wait/now/now_wait_registry.hpp"
#include "wait/now/pairwise.hpp"

namespace cosched::now {
namespace {

constexpr Nanos kMs = 1'000'000;
constexpr Nanos kSecond = 1'000'000'000;

workload::SwfRecord record(int line, std::int64_t number, double submit, double run, std::int64_t processors,
                           double requested_time = -1) {
  workload::SwfRecord r;
  r.line = line;
  r.number = number;
  r.submit = submit;
  r.run_time = run;
  r.allocated_processors = processors;
  r.processors = processors;  // the size the parser sets (workload/swf.cpp)
  r.requested_time = requested_time;
  return r;
}

config::NowJobClass job_class(std::string name, config::Pattern pattern = config::Pattern::None) {
  config::NowJobClass c;
  c.name = std::move(name);
  c.profile.pattern = pattern;
  c.profile.sync_interval = 10 * kMs;
  c.profile.comm_interval = 10'000;
  c.profile.wait = wait::now_waits().defaults("pairwise");
  return c;
}

// The model's defaults: L = 10us, o = 2us, 1 Gbps (a 1-byte message takes d = L + 8 ns = 10 008 ns),
// context switch W = 100us.
config::NowConfig now_config(std::vector<config::NowJobClass> classes) {
  config::NowConfig now;
  now.scheduler = sched::local_schedulers().defaults("stride");
  now.workstations = 4;
  config::NowStream stream;
  stream.swf = stream.swf_given = "trace.swf";
  stream.classes = std::move(classes);
  now.stream = stream;
  return now;
}

workload::SwfTrace trace_of(std::vector<workload::SwfRecord> jobs) {
  workload::SwfTrace trace;
  trace.jobs = std::move(jobs);
  return trace;
}

TEST(StreamJobs, WindowSkipsAndSubmitTimes) {
  // Usable records on lines 3, 4, 6, 7, 9; the parser skipped lines 5, 8 and 10. first 1, jobs 3: line 3 is
  // passed over, lines 4, 6 and 7 are taken; line 6 needs 8 processes on 4 workstations. The unusable
  // records among the taken ones: line 5 only (8 and 10 come after the last taken record).
  auto trace = trace_of({record(3, 1, 50, 10, 1), record(4, 2, 100, 10, 2), record(6, 3, 130, 10, 8),
                         record(7, 4, 160, 10, 4), record(9, 5, 300, 10, 1)});
  trace.skipped = {{5, "no run time"}, {8, "no processors"}, {10, "no run time"}};
  auto now = now_config({job_class("all")});
  now.stream->first = 1;
  now.stream->jobs = 3;
  const StreamBuild build = build_stream(trace, now, 4, 1);
  ASSERT_EQ(build.jobs.size(), 2u);
  EXPECT_EQ(build.skipped_too_large, 1);
  EXPECT_EQ(build.skipped_unusable, 1);
  EXPECT_EQ(build.jobs[0].swf_line, 4);
  EXPECT_EQ(build.jobs[0].swf_number, 2);
  EXPECT_EQ(build.jobs[0].job.id, 0);
  EXPECT_EQ(build.jobs[0].job.submit, 0) << "submit times count from the first job's";
  EXPECT_EQ(build.jobs[0].job.processes, 2);
  EXPECT_EQ(build.jobs[1].swf_line, 7);
  EXPECT_EQ(build.jobs[1].job.id, 1);
  EXPECT_EQ(build.jobs[1].job.submit, 60 * kSecond);
  EXPECT_EQ(build.jobs[1].job.processes, 4);
  EXPECT_EQ(build.jobs[1].profile.processes, 4);
  EXPECT_TRUE(build.jobs[1].profile.placement.empty()) << "the engine places a job when it starts";
  EXPECT_DOUBLE_EQ(build.arrival_scale, 1.0);
  // Offered load: (10 s x 2 + 10 s x 4) / (4 workstations x 60 s) = 0.25.
  EXPECT_DOUBLE_EQ(build.offered_load, 0.25);
}

TEST(StreamJobs, WithoutJobsTheWindowRunsToTheEndOfTheFile) {
  auto trace = trace_of({record(3, 1, 0, 10, 1), record(4, 2, 10, 10, 1)});
  trace.skipped = {{2, "no run time"}, {5, "no run time"}, {6, "no processors"}};
  auto now = now_config({job_class("all")});
  const StreamBuild build = build_stream(trace, now, 4, 1);
  EXPECT_EQ(build.jobs.size(), 2u);
  EXPECT_EQ(build.skipped_unusable, 3) << "first 0: the window spans the whole file";
}

TEST(StreamJobs, AJobsSizeIsTheOneTheParserSet) {
  // Line 1 has no allocation (field 5 -1) and asked for 3 processors (field 8): the parser sizes it 3.
  // Line 2 was allocated 2 and asked for 4: its size is the allocation, 2, not the larger request.
  const auto trace = workload::parse_swf(
      "1 0 -1 10 -1 -1 -1 3 -1 -1 1 1 1 1 1 1 -1 -1\n"
      "2 5 -1 10 2 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n",
      "trace.swf");
  auto now = now_config({job_class("all")});
  const StreamBuild build = build_stream(trace, now, 4, 1);
  ASSERT_EQ(build.jobs.size(), 2u);
  EXPECT_EQ(build.jobs[0].job.processes, 3) << "the requested processors when none were allocated";
  EXPECT_EQ(build.jobs[1].job.processes, 2) << "the allocated processors";
}

TEST(StreamJobs, LoadGivesTheArrivalScale) {
  // Runs 10, 20, 30 s on 2, 4, 1 processors: 130 processor-seconds over submits 100, 200, 400 s (span
  // 300 s) on 4 workstations: load 130 / 1200 at arrival_scale 1. For load 0.5: arrival_scale
  // 130 / (4 x 300 x 0.5) = 13/60, submits 0, 100 x 13/60 = 21.666 666 666 7 s and 300 x 13/60 = 65 s.
  auto trace = trace_of({record(3, 1, 100, 10, 2), record(4, 2, 200, 20, 4), record(5, 3, 400, 30, 1)});
  auto now = now_config({job_class("all")});
  now.stream->load = 0.5;
  const StreamBuild build = build_stream(trace, now, 4, 1);
  EXPECT_NEAR(build.arrival_scale, 13.0 / 60.0, 1e-15);
  EXPECT_NEAR(build.offered_load, 0.5, 1e-12);
  ASSERT_EQ(build.jobs.size(), 3u);
  EXPECT_EQ(build.jobs[1].job.submit, 21'666'666'667);
  EXPECT_EQ(build.jobs[2].job.submit, 65 * kSecond);
  EXPECT_EQ(build.jobs[2].run_time, 30 * kSecond) << "load scales arrivals, not run times";
}

TEST(StreamJobs, ArrivalAndTimeScales) {
  // arrival_scale 2: submits 0, 200, 600 s. time_scale 0.5: runs 5, 10, 15 s; the load is
  // (5 x 2 + 10 x 4 + 15 x 1) / (4 x 600) = 65 / 2400.
  auto trace =
      trace_of({record(3, 1, 100, 10, 2, 40), record(4, 2, 200, 20, 4, 8), record(5, 3, 400, 30, 1)});
  auto now = now_config({job_class("all")});
  now.stream->arrival_scale = 2;
  now.stream->time_scale = 0.5;
  const StreamBuild build = build_stream(trace, now, 4, 1);
  ASSERT_EQ(build.jobs.size(), 3u);
  EXPECT_EQ(build.jobs[1].job.submit, 200 * kSecond);
  EXPECT_EQ(build.jobs[2].job.submit, 600 * kSecond);
  EXPECT_EQ(build.jobs[0].run_time, 5 * kSecond);
  EXPECT_EQ(build.jobs[1].run_time, 10 * kSecond);
  EXPECT_DOUBLE_EQ(build.offered_load, 65.0 / 2400.0);
  // Estimates: requested 40 s -> 20 s; requested 8 s, below the run time -> the run time, 10 s; none -> the
  // run time, 15 s.
  EXPECT_EQ(build.jobs[0].job.estimate, 20 * kSecond);
  EXPECT_EQ(build.jobs[1].job.estimate, 10 * kSecond);
  EXPECT_EQ(build.jobs[2].job.estimate, 15 * kSecond);
}

TEST(StreamJobs, ClassesBySize) {
  auto small = job_class("small");
  small.min_processes = 1;
  small.max_processes = 2;
  auto big = job_class("big", config::Pattern::News);
  big.min_processes = 3;
  auto trace = trace_of({record(3, 1, 0, 10, 2), record(4, 2, 1, 10, 4), record(5, 3, 2, 10, 1)});
  const StreamBuild build = build_stream(trace, now_config({small, big}), 4, 1);
  ASSERT_EQ(build.jobs.size(), 3u);
  EXPECT_EQ(build.jobs[0].job_class, "small");
  EXPECT_EQ(build.jobs[1].job_class, "big");
  EXPECT_EQ(build.jobs[1].profile.pattern, config::Pattern::News) << "the class's profile";
  EXPECT_EQ(build.jobs[2].job_class, "small");

  // No class holds a job of 4 processes: a located error naming the key.
  try {
    build_stream(trace, now_config({small}), 4, 1);
    FAIL() << "expected an InputError";
  } catch (const config::InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("trace.swf:4: workload.stream.classes: expected a class"), std::string::npos)
        << message;
    EXPECT_NE(message.find("4 processes"), std::string::npos) << message;
  }
}

TEST(StreamJobs, ClassesByWeightAreDeterministicAndWeighted) {
  auto light = job_class("light");
  light.weight = 1;
  auto heavy = job_class("heavy");
  heavy.weight = 3;
  auto never = job_class("never");
  never.weight = 0;
  std::vector<workload::SwfRecord> records;
  for (int i = 0; i < 4000; ++i) records.push_back(record(i + 1, i + 1, i, 1, 1));
  auto now = now_config({light, never, heavy});
  now.stream->class_rule = config::NowClassRule::Random;
  const StreamBuild a = build_stream(trace_of(records), now, 4, 7);
  const StreamBuild b = build_stream(trace_of(records), now, 4, 7);
  const StreamBuild c = build_stream(trace_of(records), now, 4, 8);
  int heavy_count = 0, differ_same_seed = 0, differ_other_seed = 0;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_NE(a.jobs[i].job_class, "never");
    heavy_count += a.jobs[i].job_class == "heavy" ? 1 : 0;
    differ_same_seed += a.jobs[i].job_class != b.jobs[i].job_class ? 1 : 0;
    differ_other_seed += a.jobs[i].job_class != c.jobs[i].job_class ? 1 : 0;
  }
  EXPECT_EQ(differ_same_seed, 0) << "the same seed draws the same classes";
  EXPECT_GT(differ_other_seed, 0) << "another seed draws others";
  // 3/4 of 4000 = 3000; the binomial's standard deviation is sqrt(4000 x 3/16) = 27.4: 5 of them.
  EXPECT_NEAR(heavy_count, 3000, 137);
}

TEST(StreamJobs, PhasesOfACommunicationFreeJob) {
  // 25 s x time_scale 0.002 = 50 ms on 4 processes, class sync_interval 10 ms: 5 barriers.
  // Root barrier, flat trees (now-streams.md 4.4), d = 10 008 ns, o = 2 000 ns, P = 4:
  //   first barrier d + P o = 18 008; between passes max(2d + (P+2) o, (2P-2) o) = 32 016; last d + P o =
  //   18 008; the first dispatch W = 100 000. Fixed: 100 000 + 18 008 + 4 x 32 016 + 18 008 = 264 080.
  //   A phase: (50 000 000 - 264 080) / 5 = 9 947 184 ns of computation (pattern none: all computation).
  auto now = now_config({job_class("all")});
  now.stream->time_scale = 0.002;
  const StreamBuild build = build_stream(trace_of({record(3, 1, 0, 25, 4)}), now, 4, 1);
  ASSERT_EQ(build.jobs.size(), 1u);
  EXPECT_EQ(build.jobs[0].run_time, 50 * kMs);
  EXPECT_EQ(build.jobs[0].profile.barriers, 5);
  EXPECT_EQ(build.jobs[0].profile.sync_interval, 9'947'184);

  // Imbalance 1.5 with a waiting algorithm that never blocks (spin): factors uniform on [0.8, 1.2]; the
  // slowest of 4 is expected at 0.8 + 0.4 x 4/5 = 1.12, so the mean phase is 9 947 184 / 1.12 =
  // 8 881 414.3 -> 8 881 414.
  now.stream->classes[0].profile.imbalance = 1.5;
  now.stream->classes[0].profile.wait = wait::now_waits().defaults("spin");
  const StreamBuild imbalanced = build_stream(trace_of({record(3, 1, 0, 25, 4)}), now, 4, 1);
  EXPECT_EQ(imbalanced.jobs[0].profile.sync_interval, 8'881'414);

  // One process, no time_scale: no barrier messages; 25 s = W + 2500 phases of
  // (25 000 000 000 - 100 000) / 2500 = 9 999 960 ns.
  const StreamBuild alone =
      build_stream(trace_of({record(3, 1, 0, 25, 1)}), now_config({job_class("all")}), 4, 1);
  EXPECT_EQ(alone.jobs[0].profile.barriers, 2500);
  EXPECT_EQ(alone.jobs[0].profile.sync_interval, 9'999'960);
}

TEST(StreamJobs, ImbalanceCountsTheContextSwitchesOfWakingAtBarriers) {
  // The job of PhasesOfACommunicationFreeJob (50 ms, 4 processes, 5 barriers, fixed 264 080 ns) at
  // imbalance 1.5: phase factors uniform on [0.8, 1.2], width w = 0.4 S; the slowest expected at 1.12.
  auto c = job_class("all");
  c.profile.imbalance = 1.5;
  auto now = now_config({c});
  now.stream->time_scale = 0.002;
  const auto sized = [&](const config::NowConfig& n) {
    return build_stream(trace_of({record(3, 1, 0, 25, 4)}), n, 4, 1).jobs[0].profile.sync_interval;
  };

  // block-immediately: every process but the last to arrive blocks (spin 0, x = 0: P(gap_k > 0) = 1).
  // Root blocked when the last arrival comes: 3/4 per barrier, 5 x 3/4 = 3.75; a process drawn at random
  // blocks with probability 3/4, so the next phase's slowest is a blocked non-root one with probability
  // 3/4 x 3/4, 4 x 9/16 = 2.25; at the last barrier some non-root process blocked: 1 - (1/4)^3 =
  // 0.984375. 6.984375 wake-ups x W = 698 437.5 -> 698 438 ns. A phase: (50 000 000 - 264 080 -
  // 698 438) / 5 = 9 807 496 for the slowest, 9 807 496 / 1.12 = 8 756 692.86 -> 8 756 693.
  now.stream->classes[0].profile.wait = wait::now_waits().defaults("block-immediately");
  EXPECT_EQ(sized(now), 8'756'693);

  // pairwise, barrier spin 3W = 300 000 ns: x = 300 000 / (0.4 S). With P(gap_k > s) = P(Binomial(4, x)
  // <= k - 2): root 3/4 (1-x)^4 per barrier; a process blocks with probability s = ((1-x)^4 x 3 + 4x(1-x)^3
  // x 2 + 6x^2(1-x)^2) / 4; late starts 4 x 3/4 s; last 1 - (1-s)^3. From S = 8 881 414 (no wake-ups):
  // x = 0.084447, 5.594213 wake-ups, 559 421 ns, phase (50 000 000 - 264 080 - 559 421) / 5 = 9 835 299,
  // S = 8 781 517; again: x = 0.085407, 5.579969 wake-ups, 557 997 ns, 9 835 584, S = 8 781 771; again:
  // x = 0.085404, 5.580005, 558 001 ns, 9 835 583, 8 781 771: the fixed point.
  now.stream->classes[0].profile.wait = wait::now_waits().defaults("pairwise");
  EXPECT_EQ(sized(now), 8'781'771);

  // A barrier spin longer than the factors' whole width (0.4 x 8.88 ms = 3.55 ms): nobody blocks, the
  // phase is 8 881 414 as without wake-ups; likewise under a gang local scheduler (processes spin).
  auto long_spin = std::make_shared<wait::TwoPhaseParams>();
  long_spin->barrier_spin = 4 * kMs;
  now.stream->classes[0].profile.wait = {"pairwise", long_spin};
  EXPECT_EQ(sized(now), 8'881'414);
  now.stream->classes[0].profile.wait = wait::now_waits().defaults("pairwise");
  now.scheduler = sched::local_schedulers().defaults("gang");
  EXPECT_EQ(sized(now), 8'881'414);
}

TEST(StreamJobs, TreeBarriersTakeTheirCriticalPath) {
  // 50 ms on 8 processes, 5 barriers, root barrier with a binomial notification tree and flat arrivals;
  // d = 10 008, o = 2 000. Notification tree: 0 -> 1, 2, 4; 1 -> 3, 5; 2 -> 6; 3 -> 7. After the root
  // passes at 0 it sends 3 notices (o each) and starts its phase at 6 000. A notice is handled d + o after
  // its send ends; a process then forwards its own (o each), passes and starts: ranks 1, 2, 4 notified at
  // 14 008, 16 008, 18 008 start at 18 008 (1 forwards two, 2 one); ranks 3, 5, 6 notified at 28 016,
  // 30 016, 30 016 start at 30 016; rank 7 notified and started at 42 024. Each arrival reaches the root a
  // phase T plus o + d = 12 008 after its sender started: ranks 1, 2, 4 at
  // T + 30 016, ranks 3, 5, 6 at T + 42 024, rank 7 at T + 54 032. The root, done at T + 6 000, handles
  // them o each: the last at T + 54 032 + 2 000 = T + 56 032 (the first three by T + 36 016, the next
  // three by T + 48 024). Between passes: 56 032 (a gathering and a notification, 26 008 + 42 024 =
  // 68 032, would be 12 us too long). First barrier: all start together, 7 arrivals at T + o + d, the
  // root passes at T + 12 008 + 7 x 2 000 = T + 26 008. Last: rank 7 passes 42 024 after the root.
  // Fixed: 100 000 + 26 008 + 4 x 56 032 + 42 024 = 392 160; a phase (50 000 000 - 392 160) / 5 =
  // 9 921 568.
  auto c = job_class("all");
  c.profile.barrier_notify = barrier::TreeKind::Binomial;
  auto now = now_config({c});
  now.workstations = 8;
  now.stream->time_scale = 0.002;
  const StreamBuild build = build_stream(trace_of({record(3, 1, 0, 25, 8)}), now, 8, 1);
  EXPECT_EQ(build.jobs[0].profile.barriers, 5);
  EXPECT_EQ(build.jobs[0].profile.sync_interval, 9'921'568);
}

TEST(StreamJobs, PhasesOfANewsJobComputeBasis) {
  // 20 ms on 4 processes (a 2 x 2 torus: every read remote), 10 ms class interval: 2 barriers. Fixed:
  // 100 000 + 18 008 + 32 016 + 18 008 = 168 032; a phase takes (20 000 000 - 168 032) / 2 = 9 915 984.
  // Compute basis, comm_interval c = 10 000: a budget T holds k = floor(T / c) reads of 2d + 4o = 28 016
  // each, so it takes T + 28 016 k. k = 260 reaches at most 2 609 999 + 7 284 160 = 9 894 159 (21 825
  // short); k = 261 starts at 2 610 000 + 7 312 176 = 9 922 176 (6 192 over): the nearer is T = 2 610 000.
  auto now = now_config({job_class("news", config::Pattern::News)});
  now.stream->time_scale = 0.001;
  const StreamBuild build = build_stream(trace_of({record(3, 1, 0, 20, 4)}), now, 4, 1);
  EXPECT_EQ(build.jobs[0].profile.barriers, 2);
  EXPECT_EQ(build.jobs[0].profile.sync_interval, 2'610'000);
}

TEST(StreamJobs, PhasesOfANewsJobDedicatedBasisWithLocalReads) {
  // 30 ms on 2 processes: a 1 x 2 torus whose north and south neighbours are the process itself, so of
  // reads 0, 1, 2, 3, ... only those numbered 1 and 2 mod 4 send a message. 3 barriers; P = 2: first and
  // last d + 2o = 14 008, between max(2d + 4o, 2o) = 28 016. Fixed 100 000 + 14 008 + 2 x 28 016 +
  // 14 008 = 184 048; a phase takes (30 000 000 - 184 048) / 3 = 9 938 650.
  // Dedicated basis: step c + 2L + 4o = 38 000; a budget T holds k = floor(T / 38 000) reads and the rest
  // r in computation scaled by 10/38; it takes 10 000 k + round(r x 10/38) + 28 016 x (remote reads).
  // k = 413 (206 remote): 4 130 000 + 5 771 296 = 9 901 296 up to 9 911 296; k = 414 (207 remote):
  // 4 140 000 + 5 799 312 = 9 939 312 from T = 414 x 38 000 = 15 732 000, 662 over: the nearer.
  auto c = job_class("news", config::Pattern::News);
  c.profile.interval_basis = config::IntervalBasis::Dedicated;
  auto now = now_config({c});
  now.stream->time_scale = 0.001;
  const StreamBuild build = build_stream(trace_of({record(3, 1, 0, 30, 2)}), now, 4, 1);
  EXPECT_EQ(build.jobs[0].profile.barriers, 3);
  EXPECT_EQ(build.jobs[0].profile.sync_interval, 15'732'000);
}

TEST(StreamJobs, RefusesWhatTheTraceCannotGive) {
  auto now = now_config({job_class("all")});
  // Every job larger than the platform.
  EXPECT_THROW(build_stream(trace_of({record(3, 1, 0, 10, 8)}), now, 4, 1), config::InputError);
  // A load for jobs all submitted at once.
  now.stream->load = 0.7;
  try {
    build_stream(trace_of({record(3, 1, 5, 10, 2), record(4, 2, 5, 10, 2)}), now, 4, 1);
    FAIL() << "expected an InputError";
  } catch (const config::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("workload.stream.load: expected"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cosched::now
