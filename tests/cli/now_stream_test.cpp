// End-to-end tests of open workloads on the NOW (issue 24; docs/models/now-streams.md sections 5-6): a job
// alone runs its SWF run time (scaled), a short stream under each job scheduler gives consistent records
// and identical results under both engines, and the bad stream scenarios of tests/data/bad-now-stream/.
//
// Against the real job schedulers (branch job-sched) these tests assert only what any correct policy
// gives: placements within the policy's capacity, records consistent with each other, identical engines.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace {

using namespace cosched::cli_test;

const fs::path kStreams = fs::path(COSCHED_SOURCE_DIR) / "scenarios" / "streams";
const fs::path kBadStream = fs::path(COSCHED_SOURCE_DIR) / "tests" / "data" / "bad-now-stream";
const fs::path kStreamData = fs::path(COSCHED_SOURCE_DIR) / "tests" / "data" / "streams";

// scenarios/streams/fcfs-small.yaml: L = 10us, o = 2us, time_scale 0.01, threshold 10 s.
constexpr double kStartDelay = 12e-6;  // L + o (docs/models/now-streams.md section 5.3)
constexpr double kThreshold = 10 * 0.01;

// jobs.csv as maps from column to cell.
std::vector<std::map<std::string, std::string>> read_jobs(const fs::path& file) {
  const auto rows = read_csv(file);
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < rows[0].size() && c < rows[r].size(); ++c) row[rows[0][c]] = rows[r][c];
    out.push_back(row);
  }
  return out;
}

double number(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end()) {
    ADD_FAILURE() << "expected jobs.csv to have a column '" << column << "'";
    return 0;
  }
  return std::stod(it->second);
}

std::vector<int> workstations(const std::map<std::string, std::string>& row) {
  std::vector<int> out;
  std::istringstream in(row.at("workstations"));
  for (std::string cell; std::getline(in, cell, ';');) out.push_back(std::stoi(cell));
  return out;
}

TEST(NowStream, AJobAloneRunsItsSwfRunTimeScaled) {
  Sandbox box;
  // tests/data/streams/one-job.swf: one job of 4 processors running 200 s, submitted at 0.
  const auto summary = run_summary(box, {(kStreams / "fcfs-small.yaml").string(), "--set",
                                         "workload.stream.swf=" + (kStreamData / "one-job.swf").string()});
  const auto jobs = read_jobs(box.work() / "out" / "jobs.csv");
  ASSERT_EQ(jobs.size(), 1u) << "expected one job in jobs.csv";
  const auto& job = jobs[0];
  EXPECT_DOUBLE_EQ(number(job, "submit"), 0.0) << "expected the stream's first submit at time 0";
  // Submitted at 0, decided at once, its processes admitted L + o later.
  EXPECT_NEAR(number(job, "start"), kStartDelay, 1e-12) << "expected the start L + o after the submit";
  EXPECT_DOUBLE_EQ(number(job, "run_time"), 2.0) << "expected the run time 200 s x time_scale 0.01";
  // Alone on dedicated workstations with imbalance 1 it runs its dedicated time: the run time, give or take
  // its barriers' messages and its first context switch (well under 1%).
  const double ran = number(job, "end") - number(job, "start");
  EXPECT_NEAR(ran, 2.0, 0.02) << "expected end - start to be the job's scaled SWF run time";
  EXPECT_EQ(number(job, "processors"), 4) << "expected the SWF record's 4 allocated processors";
  EXPECT_EQ(workstations(job).size(), 4u) << "expected one workstation per process";
  ASSERT_TRUE(summary.contains("stream")) << "expected summary.json to have 'stream'";
  const auto& stream = summary["stream"];
  EXPECT_EQ(stream["jobs"], 1);
  // Utilization: processor-seconds of dedicated run time over workstations x makespan.
  EXPECT_NEAR(stream["utilization"].get<double>(), 2.0 * 4 / (8 * summary["makespan"].get<double>()), 1e-12);
  EXPECT_NEAR(summary["makespan"].get<double>(), number(job, "end"), 1e-9)
      << "expected the makespan to be the last job's end";
}

// A job's size is the parser's (its allocated processors, field 5), in the limits' count as in the run: a
// request of 2 000 000 processors beside an allocation of 4 must not count 2 000 000 processes against the
// limit of 1 000 000 (config/limits.hpp).
TEST(NowStream, TheLimitsCountAJobsAllocatedProcessors) {
  Sandbox box;
  const std::string swf = "workload.stream.swf=" + (kStreamData / "request-above-allocation.swf").string();
  expect_success(box.run({"validate", (kStreams / "fcfs-small.yaml").string(), "--set", swf}));
  run_summary(box, {(kStreams / "fcfs-small.yaml").string(), "--set", swf});
  const auto jobs = read_jobs(box.work() / "out" / "jobs.csv");
  ASSERT_EQ(jobs.size(), 1u) << "expected one job in jobs.csv";
  EXPECT_EQ(number(jobs[0], "processors"), 4) << "expected the record's 4 allocated processors";
}

// The job schedulers the short stream runs under, with the local scheduler each takes.
struct PolicyCase {
  const char* name;
  const char* policy;  // job_scheduler.policy
  std::vector<std::string> sets;
  int capacity;  // jobs a workstation may hold at once
};

const PolicyCase kPolicies[] = {
    {"fcfs", "fcfs", {"job_scheduler={policy: fcfs}"}, 1},
    {"easy", "easy", {"job_scheduler={policy: easy}"}, 1},
    {"time_share", "time-share", {"job_scheduler={policy: time-share, mpl: 2}"}, 2},
    {"gang",
     "gang",
     {"job_scheduler={policy: gang, mpl: 2}",
      "scheduler={policy: gang, quantum: 10ms, context_switch: 100us}"},
     2},
    {"fcs",
     "fcs",
     {"job_scheduler={policy: fcs, mpl: 2}",
      "scheduler={policy: gang, quantum: 10ms, context_switch: 100us}"},
     2},
    {"buffered",
     "buffered",
     {"job_scheduler={policy: buffered, mpl: 2, strobe: 2ms, exchange: 20us}",
      "scheduler={policy: gang, quantum: 10ms, context_switch: 100us}"},
     2},
    {"paired_gang",
     "paired-gang",
     {"job_scheduler={policy: paired-gang, mpl: 2, pair_limit: 1.5}",
      "scheduler={policy: gang, quantum: 10ms, context_switch: 100us}"},
     2},
    {"slurm_gang",
     "slurm-gang",
     {"job_scheduler={policy: slurm-gang, time_slice: 300ms, oversubscribe: 2}",
      "scheduler={policy: gang, context_switch: 100us}"},
     2},
};

class NowStreamPolicy : public ::testing::TestWithParam<PolicyCase> {};

TEST_P(NowStreamPolicy, BothEnginesGiveTheSameConsistentRecords) {
  const auto& policy = GetParam();
  Sandbox box;
  // Arrivals 100 times closer: the jobs overlap and queue. With the timeline: every process's states, each
  // from its start.
  std::vector<std::string> args{(kStreams / "fcfs-small.yaml").string(), "--set",
                                "workload.stream.arrival_scale=0.01", "--set", "output.timeline=true"};
  for (const auto& set : policy.sets) args.insert(args.end(), {"--set", set});
  auto with = [&](const char* engine) {
    auto a = args;
    a.insert(a.end(), {"--engine", engine});
    return a;
  };
  const auto sequential = run_summary(box, with("sequential"), "sequential");
  const auto simgrid = run_summary(box, with("simgrid"), "simgrid");
  ASSERT_TRUE(sequential.is_object() && simgrid.is_object()) << "expected both engines to run the stream";
  const auto varying = {"/wall_seconds"_json_pointer, "/engine"_json_pointer};
  EXPECT_EQ(without(sequential, varying), without(simgrid, varying))
      << "expected identical summaries from the two engines";
  for (const char* file : {"jobs.csv", "workstations.csv", "barriers.csv", "timeline.csv"})
    EXPECT_EQ(read_text(box.work() / "sequential" / file), read_text(box.work() / "simgrid" / file))
        << "expected identical " << file << " from the two engines";

  const auto jobs = read_jobs(box.work() / "sequential" / "jobs.csv");
  ASSERT_EQ(jobs.size(), 8u) << "expected the 8 jobs of small.swf";
  double makespan = 0, busy = 0, mean_response = 0, mean_bsld = 0;
  std::vector<double> responses;
  std::map<int, std::vector<std::pair<double, double>>> busy_on;  // workstation -> [start, end)
  for (const auto& job : jobs) {
    const double submit = number(job, "submit"), start = number(job, "start"), end = number(job, "end");
    const double run_time = number(job, "run_time"), response = number(job, "response");
    EXPECT_NEAR(number(job, "wait"), start - submit, 1e-9) << "expected wait = start - submit";
    EXPECT_NEAR(response, end - submit, 1e-9) << "expected response = end - submit";
    EXPECT_NEAR(number(job, "slowdown"), response / run_time, 1e-9) << "expected slowdown = response / run";
    EXPECT_NEAR(number(job, "bounded_slowdown"), std::max(1.0, response / std::max(run_time, kThreshold)),
                1e-9)
        << "expected bounded slowdown = max(1, response / max(run time, 10 s x time_scale))";
    EXPECT_GE(start - submit, kStartDelay - 1e-12) << "expected no job to start before its submit + L + o";
    EXPECT_GT(end, start) << "expected a job to end after it starts";
    const auto where = workstations(job);
    EXPECT_EQ(static_cast<double>(where.size()), number(job, "processors"))
        << "expected one workstation per processor";
    EXPECT_EQ(std::set<int>(where.begin(), where.end()).size(), where.size())
        << "expected a job's processes on distinct workstations";
    for (int w : where) busy_on[w].push_back({start, end});
    makespan = std::max(makespan, end);
    busy += run_time * number(job, "processors");
    mean_response += response / 8;
    mean_bsld += number(job, "bounded_slowdown") / 8;
    responses.push_back(response);
  }
  // Each job's processes enter the timeline at its start, on its workstations (timeline.csv: job, copy,
  // rank, state, start, end, place).
  std::map<std::string, double> first_state;
  std::map<std::string, std::set<int>> places;
  const auto timeline = read_csv(box.work() / "sequential" / "timeline.csv");
  for (std::size_t r = 1; r < timeline.size(); ++r) {
    const auto& cells = timeline[r];
    const double start = std::stod(cells[4]);
    auto [it, inserted] = first_state.emplace(cells[0], start);
    if (!inserted) it->second = std::min(it->second, start);
    places[cells[0]].insert(std::stoi(cells[6]));
  }
  for (const auto& job : jobs) {
    EXPECT_NEAR(first_state[job.at("name")], number(job, "start"), 1e-9)
        << "expected " << job.at("name") << "'s processes to appear in the timeline at its start";
    const auto where = workstations(job);
    EXPECT_EQ(places[job.at("name")], std::set<int>(where.begin(), where.end()))
        << "expected " << job.at("name") << "'s processes on the workstations jobs.csv names";
  }
  // No workstation holds more jobs at once than the policy allows.
  for (const auto& [w, spans] : busy_on) {
    for (const auto& [start, end] : spans) {
      const auto held = std::count_if(spans.begin(), spans.end(),
                                      [&](const auto& s) { return s.first <= start && start < s.second; });
      EXPECT_LE(held, policy.capacity)
          << "expected at most " << policy.capacity << " jobs on workstation " << w << " at " << start;
    }
  }
  const auto& stream = sequential["stream"];
  EXPECT_EQ(stream["jobs"], 8);
  EXPECT_NEAR(sequential["makespan"].get<double>(), makespan, 1e-9) << "expected makespan = last end";
  EXPECT_NEAR(stream["utilization"].get<double>(), busy / (8 * makespan), 1e-9);
  EXPECT_NEAR(stream["throughput"].get<double>(), 8 / makespan, 1e-9);
  EXPECT_NEAR(stream["mean_response"].get<double>(), mean_response, 1e-9);
  EXPECT_NEAR(stream["mean_bounded_slowdown"].get<double>(), mean_bsld, 1e-9);
  std::sort(responses.begin(), responses.end());
  // Nearest rank: p50 of 8 values is the 4th, p90 and p99 the 8th.
  EXPECT_NEAR(stream["p50_response"].get<double>(), responses[3], 1e-12);
  EXPECT_NEAR(stream["p90_response"].get<double>(), responses[7], 1e-12);
  EXPECT_NEAR(stream["p99_response"].get<double>(), responses[7], 1e-12);
  if (std::string(policy.policy) == "slurm-gang") {
    // The jobs overlap on 8 workstations, 2 allocated each at most: the time slicer must suspend some.
    double suspensions = 0;
    for (const auto& job : jobs) suspensions += number(job, "suspensions");
    EXPECT_GT(suspensions, 0) << "expected slurm-gang to suspend jobs that share workstations";
  }
  EXPECT_EQ(sequential["resolved"]["job_scheduler"]["policy"], policy.policy);
  EXPECT_EQ(sequential["resolved"]["workload"]["stream"]["arrival_scale"], 0.01)
      << "expected resolved to record the arrival scale as applied";
}

// Buffered coscheduling holds every message until a strobe (docs/models/now-streams.md section 3.7).
// fcfs-small.yaml's jobs never overlap (its submits lie 10 s or more apart, its jobs run 1 s or less, a few
// under buffered), so each job has its workstations to itself under gang and under buffered alike and only
// its messages' waits tell the runs apart: job 5, of one process, sends none and runs as long; every other
// job takes longer, its reads waiting for the 1 ms strobes.
TEST(NowStream, BufferedCoschedulingHoldsEveryMessageUntilAStrobe) {
  Sandbox box;
  const auto run = [&](const std::string& job_scheduler, const char* dir) {
    run_summary(box,
                {(kStreams / "fcfs-small.yaml").string(), "--set", "job_scheduler=" + job_scheduler, "--set",
                 "scheduler={policy: gang, quantum: 10ms, context_switch: 100us}"},
                dir);
    return read_jobs(box.work() / dir / "jobs.csv");
  };
  const auto gang = run("{policy: gang, mpl: 2}", "gang");
  const auto buffered = run("{policy: buffered, mpl: 2, strobe: 1ms}", "buffered");
  ASSERT_EQ(gang.size(), 8u);
  ASSERT_EQ(buffered.size(), 8u);
  for (std::size_t j = 0; j < gang.size(); ++j) {
    const auto ran = [](const auto& job) { return number(job, "end") - number(job, "start"); };
    if (number(gang[j], "processors") == 1) {
      EXPECT_NEAR(ran(buffered[j]), ran(gang[j]), 1e-9) << "job " << j + 1 << " sends no message";
    } else {
      EXPECT_GT(ran(buffered[j]), ran(gang[j]) + 0.01) << "job " << j + 1 << "'s reads wait for the strobes";
    }
  }
}

// Paired gang measures each job's use of the CPU and pairs rows by it (docs/models/now-streams.md section
// 3.8). scenarios/streams/paired-gang-small.yaml draws compute-bound and imbalanced jobs: the compute-bound
// ones use nearly all of their slots, the imbalanced ones' processes wait at barriers for the slowest; with
// the scenario's limit of 1.5 some rows pair, with a limit of 0.1 none does.
TEST(NowStream, PairedGangMeasuresEachJobAndPairsRowsByIt) {
  Sandbox box;
  const std::string scenario = (kStreams / "paired-gang-small.yaml").string();
  run_summary(box, {scenario}, "paired");
  int paired = 0;
  for (const auto& job : read_jobs(box.work() / "paired" / "jobs.csv")) {
    const double use = number(job, "cpu_utilization");
    EXPECT_GT(use, 0) << job.at("name");
    EXPECT_LE(use, 1) << job.at("name");
    if (job.at("class") == "compute") {
      EXPECT_GT(use, 0.99) << job.at("name") << " computes all its slot";
    } else if (number(job, "processors") > 1) {
      EXPECT_LT(use, 0.9) << job.at("name") << "'s processes wait at its barriers";
    }
    if (number(job, "paired_slots") > 0) ++paired;
    EXPECT_GE(number(job, "matrix_row"), 0) << job.at("name");
    EXPECT_LT(number(job, "matrix_row"), 3) << job.at("name") << ": the scenario's mpl is 3";
  }
  EXPECT_GT(paired, 0) << "expected some rows to pair under a limit of 1.5";
  // pairs.csv: each change of a row's partner, in time order; a pair within the limit, and given twice at
  // its time (row r with p, and p with r).
  std::set<std::string> pairs;
  double previous = 0;
  const auto changes = read_jobs(box.work() / "paired" / "pairs.csv");
  EXPECT_FALSE(changes.empty());
  for (const auto& change : changes) {
    EXPECT_GE(number(change, "time_s"), previous) << "expected pairs.csv in time order";
    previous = number(change, "time_s");
    const auto partner = change.find("partner");
    if (partner == change.end() || partner->second.empty()) continue;
    EXPECT_LE(number(change, "utilization") + number(change, "partner_utilization"), 1.5 + 1e-6);
    pairs.insert(change.at("time_s") + " " + change.at("row") + " " + partner->second);
  }
  for (const auto& pair : pairs) {
    std::stringstream fields(pair);
    std::string time, row, with;
    fields >> time >> row >> with;
    EXPECT_TRUE(pairs.contains(time + " " + with + " " + row))
        << "pairs.csv: " << pair << " without its mirror";
  }
  run_summary(box, {scenario, "--set", "job_scheduler.pair_limit=0.1"}, "strict");
  for (const auto& job : read_jobs(box.work() / "strict" / "jobs.csv"))
    EXPECT_EQ(number(job, "paired_slots"), 0) << job.at("name") << ": no two rows use only 0.1 of a CPU";
  EXPECT_EQ(read_text(box.work() / "strict" / "pairs.csv"),
            "time_s,row,partner,utilization,partner_utilization\n")
      << "no row ever paired: a header only";
}

// The pairing reads reports a slot old, which every workstation has made by then because a slot exceeds
// L + o (docs/models/now-streams.md 3.8): at the shortest slot the loader allows, 1 ns over L + o, the two
// engines still agree, with rows paired (1 us switches take much of such slots, and the jobs measure light).
TEST(NowStream, PairedGangAgreesUnderBothEnginesAtTheShortestSlot) {
  Sandbox box;
  const std::vector<std::string> args{(kStreams / "paired-gang-small.yaml").string(), "--set",
                                      "workload.stream.jobs=4", "--set",
                                      "scheduler={policy: gang, quantum: 12001ns, context_switch: 1us}"};
  for (const char* engine : {"sequential", "simgrid"}) {
    auto a = args;
    a.insert(a.end(), {"--engine", engine});
    run_summary(box, a, engine);
  }
  for (const char* file : {"jobs.csv", "workstations.csv", "barriers.csv", "pairs.csv"}) {
    ASSERT_TRUE(fs::is_regular_file(box.work() / "sequential" / file)) << file;
    EXPECT_EQ(read_text(box.work() / "sequential" / file), read_text(box.work() / "simgrid" / file))
        << "expected identical " << file << " from the two engines";
  }
  double paired = 0;
  for (const auto& job : read_jobs(box.work() / "sequential" / "jobs.csv"))
    paired += number(job, "paired_slots");
  EXPECT_GT(paired, 0);
}

// Flexible coscheduling classes each process by what it does (docs/models/now-streams.md section 3.6):
// scenarios/streams/fcs-small.yaml draws each job from three classes, and the classes the run finds follow
// from their profiles, not from their names: fine-grained jobs (a read every 50 us) stay CS, jobs that only
// compute between 200 ms barriers become DC, and fine jobs whose phases differ up to 3 times end frustrated
// (F) or CS, reclassified as their phases change. Both engines agree, classes.csv included.
TEST(NowStream, FlexibleCoschedulingClassesEachProcessByItsBehaviour) {
  Sandbox box;
  const std::string scenario = (kStreams / "fcs-small.yaml").string();
  for (const char* engine : {"sequential", "simgrid"}) {
    const auto r = box.run({"run", scenario, "--quiet", "--engine", engine, "--out", engine});
    ASSERT_EQ(r.status, 0) << r.describe();
  }
  for (const char* file : {"jobs.csv", "classes.csv"})
    EXPECT_EQ(read_text(box.work() / "sequential" / file), read_text(box.work() / "simgrid" / file))
        << "expected identical " << file << " from the two engines";
  const auto jobs = read_jobs(box.work() / "sequential" / "jobs.csv");
  ASSERT_EQ(jobs.size(), 8u);
  std::map<std::string, std::string> final_class;  // by job name
  int fine = 0, coarse = 0, imbalanced = 0;
  for (const auto& job : jobs) {
    const std::string cls = job.at("fcs_class");
    final_class[job.at("name")] = cls;
    const int reclassified = static_cast<int>(number(job, "fcs_reclassifications"));
    if (job.at("class") == "fine") {
      ++fine;
      EXPECT_EQ(cls, "CS") << job.at("name") << ": reads every 50 us, coscheduled";
      EXPECT_EQ(reclassified, 0) << job.at("name");
    } else if (job.at("class") == "coarse") {
      ++coarse;
      EXPECT_EQ(cls, "DC") << job.at("name") << ": no reads, 200 ms between barriers";
    } else if (number(job, "processors") > 1) {
      ++imbalanced;
      EXPECT_GT(reclassified, 0) << job.at("name") << ": its waits change from phase to phase";
      EXPECT_NE(cls, "DC") << job.at("name") << ": fine-grained";
    }
  }
  EXPECT_GT(fine, 0);
  EXPECT_GT(coarse, 0);
  EXPECT_GT(imbalanced, 0) << "the seed draws every class";
  // classes.csv: each change in time order; a job's last changes lead to the class jobs.csv gives.
  const auto changes = read_csv(box.work() / "sequential" / "classes.csv");
  ASSERT_GT(changes.size(), 1u);
  EXPECT_EQ(changes[0], (std::vector<std::string>{"time_s", "job", "rank", "workstation", "class"}));
  std::map<std::pair<std::string, std::string>, std::string> last;  // (job, rank) -> class
  double previous = 0;
  for (std::size_t r = 1; r < changes.size(); ++r) {
    const double time = std::stod(changes[r][0]);
    EXPECT_GE(time, previous) << "expected classes.csv in time order";
    previous = time;
    EXPECT_NEAR(time / 0.01, std::round(time / 0.01), 1e-6) << "a class changes as one of its slots ends";
    last[{changes[r][1], changes[r][2]}] = changes[r][4];
  }
  for (const auto& [process, cls] : last) {
    if (final_class[process.first] == "DC") {
      EXPECT_EQ(cls, "DC") << process.first << " rank " << process.second;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, NowStreamPolicy, ::testing::ValuesIn(kPolicies),
                         [](const ::testing::TestParamInfo<PolicyCase>& info) { return info.param.name; });

// tests/data/streams/easy-backfill.swf through the engine, under easy and, for contrast, fcfs: 8
// workstations, submits and run times scaled by 0.01, a class without reads (pattern none), whose jobs run
// their scaled run time to the nanosecond when alone (docs/models/now-streams.md 4.4). Delays (section 5.3):
// a start takes effect d = L + o = 12 us after its decision, a finish is known n = L + 2o = 14 us after it.
// Times in s; J<k> is SWF job k (estimates are the requested times, scaled).
//   0      J1 (6, run 1, est 1) starts at d on {0..5}, ends 1 + d; {6,7} free.
//   0.1    J2 (8) blocked: J1's 6 back at its expected end give 8: shadow ~1 (+d), extra 8 - 8 = 0.
//   0.2    J3 (2, est 0.4): 0.2 + 0.4 <= shadow: backfilled on {6,7}, starts 0.2 + d, ends 0.5 + d.
//   0.3    J4 (2, est 1): nothing free.   0.4  J5 (1): nothing free.
//   0.5+d+n  J3's finish known: {6,7} free. J4: 0.5 + 1 > shadow, extra 0: refused. J5 (est 0.3): 0.8 + d + n
//          <= shadow: backfilled on {6}, starts 0.5 + 2d + n, ends 0.7 + 2d + n.
//   0.6    J6 (1, est 0.1): 0.7 <= shadow: backfilled on {7}, starts 0.6 + d, ends 0.7 + d.
//   0.7+2d+2n  J5's finish known: {6,7} free; J4 refused again (0.7 + 1 > shadow, extra 0).
//   1+d+n  J1's finish known: all free, J2 starts 1 + 2d + n on {0..7}, ends 1.5 + 2d + n.
//   1.5+2d+2n  J4 starts 1.5 + 3d + 2n on {0,1}, ends 2 + 3d + 2n.
// Under fcfs nothing overtakes J2: J3 to J6 all start when J2's finish is known, 1.5 + 3d + 2n, in order.
TEST(NowStream, EasyBackfillsJobsThatEndByTheHeadsReservation) {
  constexpr double d = 12e-6, n = 14e-6;
  // Each phase's length is rounded to the nanosecond (section 4.4): a few ns over a job.
  constexpr double kExact = 1e-8;
  auto run = [](Sandbox& box, const std::string& policy) {
    run_summary(
        box,
        {(kStreams / "fcfs-small.yaml").string(), "--set",
         "workload.stream.swf=" + (kStreamData / "easy-backfill.swf").string(), "--set",
         "workload.stream.arrival_scale=0.01", "--set", "job_scheduler={policy: " + policy + "}", "--set",
         "workload.stream.classes=[{name: quiet, pattern: none, sync_interval: 100ms, imbalance: 1, "
         "barrier: {kind: root}, wait: {algorithm: pairwise}}]"},
        policy);
    const auto jobs = read_jobs(box.work() / policy / "jobs.csv");
    EXPECT_EQ(jobs.size(), 6u) << "expected the 6 jobs of easy-backfill.swf under " << policy;
    return jobs;
  };
  Sandbox box;
  const auto easy = run(box, "easy");
  ASSERT_EQ(easy.size(), 6u);
  const double start[] = {d, 1 + 2 * d + n, 0.2 + d, 1.5 + 3 * d + 2 * n, 0.5 + 2 * d + n, 0.6 + d};
  const double end[] = {1 + d, 1.5 + 2 * d + n, 0.5 + d, 2 + 3 * d + 2 * n, 0.7 + 2 * d + n, 0.7 + d};
  const std::vector<int> where[] = {{0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6, 7}, {6, 7}, {0, 1}, {6}, {7}};
  for (int j = 0; j < 6; ++j) {
    EXPECT_NEAR(number(easy[j], "start"), start[j], kExact) << "expected J" << j + 1 << "'s start under easy";
    EXPECT_NEAR(number(easy[j], "end"), end[j], kExact) << "expected J" << j + 1 << "'s end under easy";
    EXPECT_EQ(workstations(easy[j]), where[j]) << "expected J" << j + 1 << "'s workstations under easy";
  }
  for (int j : {2, 4, 5})
    EXPECT_LT(number(easy[j], "start"), number(easy[1], "start"))
        << "expected J" << j + 1 << " to start before J2, submitted earlier: it ends by J2's reservation";
  EXPECT_LT(number(easy[4], "start"), number(easy[3], "start"))
      << "expected J5 to overtake J4, which would have run past J2's reservation";

  const auto fcfs = run(box, "fcfs");
  ASSERT_EQ(fcfs.size(), 6u);
  for (int j = 2; j < 6; ++j)
    EXPECT_NEAR(number(fcfs[j], "start"), 1.5 + 3 * d + 2 * n, kExact)
        << "expected J" << j + 1 << " to wait for J2 under fcfs";
}

// --log=cosched_now_jobs.thresh:debug: the coordinator's decisions in simulated time, the same under both
// engines. On easy-backfill.swf (the test above), J3 (job 2) starts at its submit, 0.2 s, passing J2 (job 1),
// which waits for the whole machine; it starts L + o = 12 us after the decision. J1's estimate is its
// requested 100 s x time_scale 0.01.
TEST(NowStream, TheJobSchedulersDecisionsAreLoggedTheSameUnderBothEngines) {
  Sandbox box;
  std::vector<std::string> lines[2];
  int i = 0;
  for (const std::string engine : {"sequential", "simgrid"}) {
    const auto r =
        box.run({"run", (kStreams / "fcfs-small.yaml").string(), "--quiet", "--engine", engine, "--out",
                 engine, "--set", "workload.stream.swf=" + (kStreamData / "easy-backfill.swf").string(),
                 "--set", "workload.stream.arrival_scale=0.01", "--set", "job_scheduler={policy: easy}",
                 "--log=cosched_now_jobs.thresh:debug", "--log=cosched_now_jobs.fmt:%m%n"});
    ASSERT_EQ(r.status, 0) << r.describe();
    lines[i++] = split_lines(r.err);
  }
  EXPECT_EQ(lines[0], lines[1]) << "expected the same decision lines under both engines";
  const auto has = [&](const std::string& line) {
    return std::find(lines[0].begin(), lines[0].end(), line) != lines[0].end();
  };
  EXPECT_TRUE(
      has("t=0.2s job coarse-3 (2): starts at t=0.200012s on workstations 6 7, ahead of waiting job(s) 1"))
      << "expected J3's backfill ahead of J2";
  EXPECT_TRUE(has("t=0s job coarse-1 (0): submitted, 6 processes, estimate 1s")) << "expected J1's submit";
}

TEST(NowStream, ClosedWorkloadsKeepTheirJobsCsv) {
  Sandbox box;
  run_summary(box, {(fs::path(COSCHED_SOURCE_DIR) / "scenarios" / "now-quickstart.yaml").string()});
  const auto rows = read_csv(box.work() / "out" / "jobs.csv");
  ASSERT_FALSE(rows.empty());
  for (const char* column : {"submit", "start", "response", "bounded_slowdown", "workstations"})
    EXPECT_EQ(std::count(rows[0].begin(), rows[0].end(), column), 0)
        << "expected no stream column '" << column << "' for a closed workload";
}

// ---------------------------------------------------------------------------------------------------
// Bad stream scenarios: exit 2, one located line, no results.

struct BadStreamCase {
  const char* file;      // under tests/data/bad-now-stream/
  const char* located;   // "LINE:COL: key.path: " after the file name, or the SWF file's own location
  const char* fragment;  // what the message says is wrong
};

const BadStreamCase kBadStreamCases[] = {
    {"stream-and-jobs.yaml", "16:5: workload.stream: ", "either 'jobs' or 'stream'"},
    {"stream-without-job-scheduler.yaml", "15:5: workload.stream: ", "needs a top-level 'job_scheduler'"},
    {"job-scheduler-without-stream.yaml", "13:16: job_scheduler: ", "open workload only"},
    {"job-scheduler-unknown.yaml", "13:25: job_scheduler.policy: ", "got \"sjf\""},
    {"mpl-on-fcfs.yaml", "13:36: job_scheduler.mpl: ", "got \"2\""},
    {"buffered-exchange-negative.yaml", "13:53: job_scheduler.exchange: ", "got \"-5us\""},
    {"buffered-exchange-past-the-slot.yaml",
     "13:53: job_scheduler.exchange: ", "shorter than the strobe interval (0.01 s; each total exchange ends"},
    {"buffered-exchange-past-the-strobe.yaml", "13:66: job_scheduler.exchange: ",
     "shorter than the strobe interval (0.001 s; each total exchange ends"},
    {"buffered-key-misspelt.yaml", "13:43: job_scheduler.strobbe: ", "did you mean 'strobe'?"},
    {"buffered-mpl-too-many.yaml",
     "13:40: job_scheduler.mpl: ", "from 1 to 16 for policy buffered, got \"17\""},
    {"buffered-strobe-zero.yaml", "13:51: job_scheduler.strobe: ", "positive duration"},
    {"buffered-time-slice.yaml", "13:55: job_scheduler.time_slice: ", "applies to policy slurm-gang only"},
    {"buffered-without-gang.yaml", "10:11: scheduler.policy: ", "buffered needs scheduler.policy gang"},
    {"fcs-blocking-not-a-number.yaml", "13:48: job_scheduler.blocking: ", "expected a number, got \"half\""},
    {"fcs-blocking-one.yaml", "13:48: job_scheduler.blocking: ", "between 0 and 1, exclusive, got \"1\""},
    {"fcs-granularity-zero.yaml", "13:51: job_scheduler.granularity: ", "positive duration"},
    {"fcs-key-misspelt.yaml", "13:38: job_scheduler.granularty: ", "did you mean 'granularity'?"},
    {"fcs-mpl-too-many.yaml", "13:35: job_scheduler.mpl: ", "from 1 to 16 for policy fcs, got \"17\""},
    {"fcs-time-slice.yaml", "13:50: job_scheduler.time_slice: ", "applies to policy slurm-gang only"},
    {"fcs-without-gang.yaml", "10:11: scheduler.policy: ", "fcs needs scheduler.policy gang"},
    {"paired-gang-key-misspelt.yaml", "13:46: job_scheduler.pair_limt: ", "did you mean 'pair_limit'?"},
    {"paired-gang-mpl-too-many.yaml", "13:43: job_scheduler.mpl: ", "from 1 to 16 for policy paired-gang"},
    {"paired-gang-pair-limit-not-a-number.yaml", "13:58: job_scheduler.pair_limit: ", "expected a number"},
    {"paired-gang-pair-limit-two.yaml", "13:58: job_scheduler.pair_limit: ", "between 0 and 2, exclusive"},
    {"paired-gang-slot-within-the-latency.yaml", "11:12: scheduler.quantum: ",
     "longer than platform.latency plus platform.overhead (12000 ns), got 12000"},
    {"paired-gang-without-gang.yaml", "10:11: scheduler.policy: ", "paired-gang needs scheduler.policy gang"},
    {"slurm-gang-key-misspelt.yaml", "12:37: job_scheduler.time_slise: ", "did you mean 'time_slice'?"},
    {"slurm-gang-mpl.yaml", "12:42: job_scheduler.mpl: ",
     "applies to policies fcfs, easy, gang, time-share, fcs, buffered and paired-gang only"},
    {"slurm-gang-oversubscribe-too-many.yaml",
     "12:52: job_scheduler.oversubscribe: ", "from 1 to 16, got \"17\""},
    {"slurm-gang-suspend-resume-negative.yaml", "12:53: job_scheduler.suspend_resume: ", "got \"-1ms\""},
    {"slurm-gang-resumption-past-the-slice.yaml",
     "12:69: job_scheduler.suspend_resume: ", "expected a duration shorter than time_slice"},
    {"slurm-gang-time-slice-zero.yaml", "12:49: job_scheduler.time_slice: ", "positive duration"},
    {"slurm-gang-with-gang-quantum.yaml",
     "11:12: scheduler.quantum: ", "does not apply under job_scheduler.policy slurm-gang"},
    {"slurm-gang-without-gang.yaml", "10:11: scheduler.policy: ", "slurm-gang needs scheduler.policy gang"},
    {"load-above-one.yaml", "17:11: workload.stream.load: ", "in (0, 1]"},
    {"load-and-arrival-scale.yaml", "18:20: workload.stream.arrival_scale: ", "not both"},
    {"time-scale-zero.yaml", "17:17: workload.stream.time_scale: ", "got \"0\""},
    {"swf-missing.yaml", "16:10: workload.stream.swf: ", "got \"../streams/no-such-file.swf\""},
    {"swf-malformed.yaml", nullptr, "tests/data/streams/malformed.swf:4: field 4"},
    {"class-with-processes.yaml", "22:20: workload.stream.classes[0].processes: ", "takes no 'processes'"},
    {"class-max-below-min.yaml", "23:24: workload.stream.classes[0].max_processes: ", "got \"2\""},
    {"class-rule-unknown.yaml", "17:17: workload.stream.class_rule: ", "got \"alphabetical\""},
    {"classes-empty.yaml", "17:14: workload.stream.classes: ", "at least one job class"},
    {"gang-without-gang-slots.yaml", "10:11: scheduler.policy: ", "needs scheduler.policy gang"},
    {"gang-slots-under-fcfs.yaml", "10:11: scheduler.policy: ", "needs job_scheduler.policy gang"},
    {"trace-too-large.yaml", "25:10: output.trace: ", "more than output.trace_limit_mb (1024 MB)"},
    {"first-past-the-end.yaml", "17:12: workload.stream.first: ", "has 1 usable jobs"},
    // What build_stream refuses, refused by validate too (now::check_stream), located in the SWF file.
    {"class-missing.yaml", nullptr,
     "one-job.swf:4: workload.stream.classes: expected a class for job 1 of 4 processes, got none"},
    {"load-zero-span.yaml", nullptr,
     "one-job.swf: workload.stream.load: expected a stream whose jobs are not all"},
    {"window-without-a-job.yaml", nullptr,
     "one-job.swf: workload.stream: expected at least one job of 1 to 2 processes"},
    {"sync-interval-too-many-barriers.yaml", nullptr,
     "one-job.swf:4: workload.stream.classes[0].sync_interval: expected at most 10000000 barriers per job "
     "(run time x time_scale / sync_interval; a longer sync_interval or a smaller "
     "workload.stream.time_scale), "
     "got 20000000 for job 1 (200 s / 1e-05 s)"},
    // Scaled past config::limits::kMaxSimulatedTime (1e6 s): refused before any time is rounded to 64 bits.
    {"load-past-the-time-limit.yaml", nullptr,
     "long-runs.swf: workload.stream.load: expected a stream whose submit span x arrival_scale plus longest "
     "run x time_scale is at most 1e+06 s"},
    {"arrival-scale-past-the-time-limit.yaml", nullptr,
     "small.swf: workload.stream.arrival_scale: expected a stream whose submit span x arrival_scale plus "
     "longest run x time_scale is at most 1e+06 s of simulated time (config/limits.hpp), got 90 s x 1e+06 + "
     "100 s x 1 = 9.00001e+07 s"},
    {"time-scale-past-the-time-limit.yaml", nullptr,
     "one-job.swf: workload.stream.time_scale: expected a stream whose submit span x arrival_scale plus "
     "longest run x time_scale is at most 1e+06 s of simulated time (config/limits.hpp), got 0 s x 1 + 200 s "
     "x 1e+06 = 2e+08 s"},
};

void PrintTo(const BadStreamCase& c, std::ostream* os) {
  *os << c.file;
}

class NowBadStream : public ::testing::TestWithParam<BadStreamCase> {};

TEST_P(NowBadStream, RunAndValidateFailWithOneLocatedLine) {
  const auto& c = GetParam();
  for (const char* command : {"run", "validate"}) {
    Sandbox box;
    const std::string file = (kBadStream / c.file).string();
    const auto r =
        std::string(command) == "run" ? box.run({"run", file, "--out", "out"}) : box.run({"validate", file});
    const std::string line = expect_input_error(r);
    if (c.located) {
      EXPECT_TRUE(contains(line, file + ":" + c.located)) << "expected the message to locate the problem as '"
                                                          << file << ":" << c.located << "'" << r.describe();
    }
    EXPECT_TRUE(contains(line, c.fragment))
        << "expected the message to say '" << c.fragment << "'" << r.describe();
    EXPECT_FALSE(fs::exists(box.work() / "out")) << "expected no out directory after bad input";
  }
}

INSTANTIATE_TEST_SUITE_P(StreamCorpus, NowBadStream, ::testing::ValuesIn(kBadStreamCases),
                         [](const ::testing::TestParamInfo<BadStreamCase>& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(NowBadStreamCorpus, EveryFileIsListed) {
  std::set<std::string> listed, present;
  for (const auto& c : kBadStreamCases) listed.insert(c.file);
  for (const auto& entry : fs::directory_iterator(kBadStream))
    present.insert(entry.path().filename().string());
  EXPECT_EQ(listed, present) << "expected tests/data/bad-now-stream/ to hold exactly the listed files";
}

}  // namespace

namespace {

// time-share or gang with mpl 1 shares no workstation: a valid run, with a one-line located warning on
// stderr (docs/models/now-streams.md section 3), at job_scheduler.mpl or, left at its default, at the
// job_scheduler mapping; mpl 2 runs without a word.
TEST(NowStream, MplOneUnderATimeSharingPolicyIsWarnedAbout) {
  Sandbox box;
  const std::string scenario = (kStreams / "time-share-small.yaml").string();
  auto warnings = [](const std::string& err) {
    std::vector<std::string> out;
    for (const auto& line : split_lines(err))
      if (line.rfind("cosched: warning: ", 0) == 0) out.push_back(line);
    return out;
  };
  const auto given = box.run({"run", scenario, "--out", "a", "--quiet", "--set", "job_scheduler.mpl=1"});
  EXPECT_EQ(given.status, 0) << given.describe();
  ASSERT_EQ(warnings(given.err).size(), 1u) << given.describe();
  EXPECT_EQ(
      warnings(given.err)[0],
      "cosched: warning: --set job_scheduler.mpl=1: job_scheduler.mpl: time-share with mpl 1 places one "
      "process per workstation: the same run as policy fcfs, event for event; set mpl to 2 or more for "
      "jobs to share workstations");
  EXPECT_TRUE(fs::exists(box.work() / "a" / "summary.json")) << "a warning, not a refusal";

  const auto defaulted = box.run({"run", scenario, "--out", "b", "--quiet", "--set", "job_scheduler.mpl=~"});
  EXPECT_EQ(defaulted.status, 0) << defaulted.describe();
  ASSERT_EQ(warnings(defaulted.err).size(), 1u) << defaulted.describe();
  EXPECT_TRUE(contains(warnings(defaulted.err)[0],
                       "time-share-small.yaml:18:3: job_scheduler: time-share with mpl 1"))
      << defaulted.describe();

  const auto gang =
      box.run({"validate", (kStreams / "gang-small.yaml").string(), "--set", "job_scheduler.mpl=1"});
  EXPECT_EQ(gang.status, 0) << gang.describe();
  ASSERT_EQ(warnings(gang.err).size(), 1u) << gang.describe();
  EXPECT_TRUE(contains(warnings(gang.err)[0], "job_scheduler.mpl: gang with mpl 1 has one row"))
      << gang.describe();

  for (const char* file : {"time-share-small.yaml", "gang-small.yaml", "fcfs-small.yaml"}) {
    const auto quiet = box.run({"validate", (kStreams / file).string()});
    expect_success(quiet);
    EXPECT_TRUE(warnings(quiet.err).empty()) << file << quiet.describe();
  }
}

}  // namespace
