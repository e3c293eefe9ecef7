#pragma once
// The result contract of one run: a typed record per model, filled by the model, and the one serializer
// of each record into the run's result files (summary.json, jobs.csv and, for `now`, workstations.csv and
// barriers.csv). Readers of summary.json (the sweep's collector) go through read_summary, which knows the
// contract's version. Every field is documented in docs/scenario-format.md, sections 8 and 9.8.
//
// Versioning: kSchemaVersion (result_files.hpp) changes when a field changes meaning or goes away; adding a
// field does not change it, so a reader must accept a summary of its version that lacks a later addition.

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "userlevel/job_runtime.hpp"

namespace cosched::metrics {

// The fields every run record has, whatever its model: summary.json opens with the first four (after its
// schema_version) and closes with the last three around the model's time unit and platform (the models'
// summary_json write them through one pair of functions).
struct RunHeader {
  explicit RunHeader(std::string model_name) : model(std::move(model_name)) {}
  std::string scenario;
  std::string model;
  std::uint64_t seed = 0;
  std::uint64_t events = 0;         // the simulation's events (the model's own count)
  double wall_seconds = 0;          // the run's wall-clock time, filled in by whoever timed it
  nlohmann::ordered_json resolved;  // the scenario as it was run (config::resolved_json, platform filled in)
};

struct SpinCount {
  std::int64_t successful = 0;  // spins that ended because the barrier completed (or the reply came)
  std::int64_t total = 0;       // spins entered
  SpinCount& operator+=(const SpinCount& o) {
    successful += o.successful;
    total += o.total;
    return *this;
  }
};

// ---- smp: every time in cycles ----

// What a job's threads did at user level, a parallel loop's or a task tree's (docs/models/smp.md, "User-level
// scheduling"): one thread's figures, or their sums over the job's threads. Cycles, as every SMP time.
using SmpUserLevelRecord = userlevel::ThreadStats;

struct SmpJobRecord {
  std::string name;
  int copy = 0;
  std::optional<std::int64_t> completion_time;  // null: unfinished when the run ended (first-finish)
  SpinCount spins;
  int barriers_completed = 0;
  std::optional<std::int64_t> transition_point;  // the job's last unsuccessful spin (thesis 7.6)
  std::int64_t blocks = 0;
  std::int64_t context_switches = 0;
  std::int64_t spin_cycles = 0;
  // Partitioned runs only (SmpRunRecord::partitioned): K&W's barrier overhead per phase, null when the job
  // did not complete (docs/models/smp.md section 18).
  std::optional<double> barrier_overhead_per_phase;
  // A job with a loop or a task tree: its threads' user-level figures, in thread order (empty otherwise).
  std::vector<SmpUserLevelRecord> user_level_threads;
};

struct SmpPlatformRecord {
  std::string host;
  int cpus = 0;
  double cycles_per_second = 0;
  double simulated_seconds = 0;
};

// `cosched host`: the scenario's workload run for real by OS threads on this machine (docs/host.md). The
// record's times are then host time in cycles at platform.cycles_per_second; the simulation's own counts
// (events, simulated seconds) are null.
struct SmpHostRecord {
  std::string kernel;            // the host's kernel release (uname -r)
  int repetition = 1;            // --repetition: which of a series of runs of one scenario and seed
  std::string policy;            // SCHED_OTHER or SCHED_RR
  std::string kernel_scheduler;  // the kernel's class: RT (SCHED_RR), EEVDF (SCHED_OTHER from 6.6) or CFS
  std::vector<int> cpus;         // the host CPUs the threads shared
  std::string clock;             // where platform.cycles_per_second came from
  std::optional<int> rr_timeslice_ms;         // SCHED_RR: /proc/sys/kernel/sched_rr_timeslice_ms
  std::optional<std::int64_t> rt_runtime_us;  // SCHED_RR: /proc/sys/kernel/sched_rt_runtime_us
  std::optional<std::int64_t> base_slice_ns;  // SCHED_OTHER: /sys/kernel/debug/sched/base_slice_ns
  double ns_per_compute_iteration = 0;        // the busy loop's calibration (docs/host.md)
  double ns_per_poll = 0;                     // the spin loop's
  int threads = 0;                            // OS threads: synchronizing and non-synchronizing
  std::int64_t compute_cycles = 0;            // the computation intervals the synchronizing threads drew
  std::int64_t thread_cpu_cycles = 0;         // their threads' CPU time from the gate to their end, in cycles
  double makespan_seconds = 0;
};

struct SmpRunRecord : RunHeader {
  SmpRunRecord() : RunHeader("smp") {}
  std::int64_t makespan = 0;
  std::vector<SmpJobRecord> jobs;  // instances: profiles in scenario order, copies in order
  SmpPlatformRecord platform;
  bool partitioned = false;  // scheduler.policy partitioned: the jobs carry barrier_overhead_per_phase
  bool user_level = false;   // a job has a loop or a task tree: the jobs carry user_level, the run threads
  std::optional<SmpHostRecord> host;  // a `cosched host` run: engine host, the host's fields

  SpinCount spins() const;  // over all jobs
};

// ---- now: every time in seconds of simulated time ----

// Where a job's processes spent their time, seconds averaged over its processes.
struct NowTimeRecord {
  double compute = 0, communicate = 0, synchronize = 0, idle = 0, switching = 0;
};
struct NowIdleRecord {
  double ready = 0, blocked_read = 0, blocked_barrier = 0, finished = 0;
};
// A count and the mean time of what was counted (null when nothing was).
struct CountMean {
  std::int64_t count = 0;
  std::optional<double> mean_s;
};

// An open workload's job (issue 24; docs/models/now-streams.md section 6), seconds of simulated time from
// the stream's first submit.
struct NowStreamJobRecord {
  double submit = 0, start = 0, end = 0;
  double wait = 0;              // start - submit
  double response = 0;          // end - submit
  double run_time = 0;          // its dedicated run time: the SWF run time x time_scale
  double slowdown = 0;          // response / run_time
  double bounded_slowdown = 0;  // max(1, response / max(run_time, threshold x time_scale))
  int processors = 0;
  std::string job_class;
  std::vector<int> workstations;  // by rank
  std::int64_t swf_number = -1;   // field 1 of its SWF record
  // Under slurm-gang: how often it was suspended (at its allocation included).
  std::optional<int> suspensions;
  // Under fcs (now-streams.md 3.6): the class most of its processes ended in, and their class changes.
  std::optional<std::string> fcs_class;
  std::optional<std::int64_t> fcs_reclassifications;
  // Under paired-gang (now-streams.md 3.8): its CPU utilization as the pairing last saw it (null: never
  // measured), and the slots its row ran paired while it held it.
  std::optional<double> cpu_utilization;
  std::optional<std::int64_t> paired_slots;
  std::optional<int> matrix_row;  // the row it held (pairs.csv names rows)
};

// Under fcs: a process's change of class, at the end of one of its slots (classes.csv).
struct NowClassChangeRecord {
  double time_s = 0;
  std::string job;
  int rank = 0;
  int workstation = 0;
  std::string cls;
};

// Under paired-gang: a row's partner changing as a cycle of the rotation starts (pairs.csv).
struct NowPairChangeRecord {
  double time_s = 0;
  int row = 0;
  std::optional<int> partner;                              // none: the row runs alone from then on
  std::optional<double> utilization, partner_utilization;  // as the pairing saw them; none: not measured
};

// An open workload's run as a whole (docs/models/now-streams.md section 6).
struct NowStreamRecord {
  std::int64_t jobs = 0;
  std::int64_t skipped_unusable = 0, skipped_too_large = 0;
  double utilization = 0;  // processor-seconds of dedicated run time / (workstations x makespan)
  double throughput = 0;   // jobs per simulated second: jobs / makespan
  double mean_response = 0, mean_bounded_slowdown = 0, mean_wait = 0;
  std::array<double, 3> response_percentiles{};          // p50, p90, p99 (nearest rank)
  std::array<double, 3> bounded_slowdown_percentiles{};  // the same
  double offered_load = 0, arrival_scale = 1, time_scale = 1;
  double bounded_slowdown_threshold_s = 0;  // as applied: the scenario's threshold x time_scale
  std::string job_scheduler;
  int mpl = 1;
};

struct NowJobRecord {
  std::string name;
  int copy = 0;
  double completion_time = 0;
  SpinCount spins;  // barrier waits
  NowTimeRecord time;
  NowIdleRecord idle_detail;
  SpinCount read_spins;
  std::int64_t blocks = 0;
  // Diagnostics (docs/models/now.md section 7): reads by the partner's state when the request reached it
  // (running, ready, blocked), wake-ups by a message until the dispatch, barrier lengths.
  std::array<CountMean, 3> reads;
  CountMean wake_to_dispatch;
  // Keep-alives (docs/models/now.md section 4.6): rounds its root queued, keep-alives sent, and handled
  // by its processes.
  struct KeepAlives {
    std::int64_t rounds = 0, sent = 0, handled = 0;
  } keepalives;
  std::optional<double> barrier_mean_length_s;
  std::optional<double> blocks_per_barrier;
  // Prefetching wake-ups (wait.prefetch): sent, and received by the receiver's state (running, ready,
  // blocked); the root's replies to arrivals handled (informed waiting).
  std::int64_t wakeups_sent = 0;
  std::array<std::int64_t, 3> wakeups_received{};
  std::int64_t arrival_replies = 0;
  std::optional<NowStreamJobRecord> stream;  // an open workload's job only
};

struct NowWorkstationRecord {
  int workstation = 0;
  std::string host;
  double busy_s = 0;
  double utilisation = 0;
  double spinning_s = 0;
  std::int64_t messages_sent = 0;
  std::int64_t messages_received = 0;
  std::optional<double> noise_s;  // the detours' CPU time (a run with `noise` only: a column then)
};

// One barrier of one job instance, over its processes.
struct NowBarrierRecord {
  std::string job;
  int copy = 0;
  int barrier = 0;
  double first_arrival_s = 0, last_arrival_s = 0, last_pass_s = 0, length_s = 0;
  std::int64_t blocks = 0;
};

struct NowPlatformRecord {
  int workstations = 0;
  double latency_s = 0;
};

// Operating-system noise (docs/models/now.md section 8.4): what the detours took and what they cost.
struct NowNoiseRecord {
  int sources = 0;
  double net_configured = 0;     // the sources' net noise on a workstation they all apply to (a fraction)
  double net_injected_mean = 0;  // per workstation: (detour time + daemon work) / makespan, mean over them
  double net_injected_max = 0;   // ... the largest
  double detours_per_workstation = 0;  // busy periods of noise, mean over the workstations
  std::int64_t iterations = 0;  // the most barriers of a job: the bulk-synchronous program's iterations
  // The same run without noise (the sequential engine's; absent under platform.network shared).
  std::optional<double> baseline_makespan;
  std::optional<double> slowdown;            // makespan / baseline_makespan
  std::optional<double> lost_per_iteration;  // (makespan - baseline_makespan) / iterations, seconds
  // Daemons (as: daemon): per workstation, the work their events gave and the CPU time they ran, mean s.
  std::optional<double> daemon_work_s, daemon_ran_s;
};

struct NowRunRecord : RunHeader {
  NowRunRecord() : RunHeader("now") {}
  std::string engine;  // sequential or simgrid
  double makespan = 0;
  std::vector<NowJobRecord> jobs;
  std::int64_t messages = 0;
  NowPlatformRecord platform;
  std::vector<NowWorkstationRecord> workstations;                  // workstations.csv
  std::vector<NowBarrierRecord> barriers;                          // barriers.csv
  std::optional<NowStreamRecord> stream;                           // an open workload only
  std::optional<NowNoiseRecord> noise;                             // a run with `noise` only
  std::optional<std::vector<NowClassChangeRecord>> class_changes;  // classes.csv, under fcs only
  std::optional<std::vector<NowPairChangeRecord>> pair_changes;    // pairs.csv, under paired-gang only

  SpinCount spins() const;  // barrier waits over all jobs
};

// ---- numa: every time in clocks (docs/models/numa.md section 7) ----

// Processor time by state, in processor-clocks (6.1): a processor is in exactly one state at each clock.
// comm_updates is the part of comm spent waiting for a write's acknowledgements (update processing, 6.3);
// the rest of comm is waiting for pages (copies, migrations).
struct NumaClocks {
  std::int64_t effective = 0, sync = 0, comm = 0, idle = 0, disk = 0;
  std::int64_t comm_updates = 0;
  NumaClocks& operator+=(const NumaClocks& o) {
    effective += o.effective, sync += o.sync, comm += o.comm, idle += o.idle, disk += o.disk;
    comm_updates += o.comm_updates;
    return *this;
  }
};
// Chapter 5's three rates over T' = effective + sync + comm + idle (disk time left out, table 5.4's
// footnote): net = E / T', calibrated = net (1 + I / T'), maximum = (E + I) / T'.
struct NumaRates {
  double net = 0, calibrated = 0, maximum = 0;
};
// Each state's processor time over T' (disk over the same T', so the first four add up to 1).
struct NumaBreakdown {
  double effective = 0, sync = 0, comm = 0, idle = 0, disk = 0;
};
// Evictions by the victim's class at the moment it was evicted (table 5.5), in sched::PageClass order.
using NumaPagesReplaced = std::array<std::int64_t, 6>;
struct NumaPageTransfers {
  std::int64_t copies = 0;      // shared pages fetched as a copy from another cluster
  std::int64_t migrations = 0;  // local pages moved on demand to their thread's new cluster
  std::int64_t hops = 0;        // link crossings of those page messages
  NumaPageTransfers& operator+=(const NumaPageTransfers& o) {
    copies += o.copies, migrations += o.migrations, hops += o.hops;
    return *this;
  }
};
// Where threads were placed, per thread and slice (thesis 4.3 paragraph 5, claim C3).
struct NumaPlacements {
  std::int64_t threads = 0;           // thread placements
  std::int64_t on_page_clusters = 0;  // onto a cluster already holding a page of the process
  std::int64_t stayed = 0;            // onto the thread's previous cluster
  NumaPlacements& operator+=(const NumaPlacements& o) {
    threads += o.threads, on_page_clusters += o.on_page_clusters, stayed += o.stayed;
    return *this;
  }
};

struct NumaProcessRecord {
  std::string name;
  int copy = 0;
  int threads = 0;
  bool finished = false;            // its threads' effective clocks reached threads x work
  double effective_per_thread = 0;  // effective clocks, mean over its threads
  int slices_run = 0;
  NumaClocks clocks;  // idle is always 0: an idle processor belongs to no process
  NumaRates rates;    // over its own processor time: calibrated and maximum equal net (it has no idle time)
  NumaBreakdown breakdown;
  NumaPagesReplaced pages_replaced{};  // of its pages
  NumaPageTransfers page_transfers;
  std::int64_t disk_accesses = 0;
  std::int64_t writes = 0;          // shared writes that sent updates
  std::int64_t barriers = 0;        // sync points its threads took part in
  std::int64_t copies_dropped = 0;  // copies outside its clusters removed without cost (A11)
  NumaPlacements placements;
};

// One switch level's traffic, as the NUMA network counts it (numa::LevelTraffic is this type); a run's
// levels are listed from the root's (level 1).
struct NumaLevelRecord {
  std::array<std::int64_t, 3> hops{};  // hops made across links of this level: page, update, communication
  std::int64_t bytes = 0;
  std::int64_t blocked_clocks = 0;  // clocks messages spent ready at a port whose next buffer was full
  std::int64_t queued_clocks = 0;   // clocks messages spent waiting for a busy link
};

struct NumaPlatformRecord {
  int clusters = 0;
  int levels = 0;
  std::vector<int> fanout;
  double clock_hz = 0;
  double simulated_seconds = 0;
};

struct NumaRunRecord : RunHeader {
  NumaRunRecord() : RunHeader("numa") {}
  std::int64_t clocks = 0;  // C_end
  int slices = 0;
  std::string ended_by;  // "first-finish" (a process finished) or "slices"
  NumaClocks processor_clocks;
  NumaRates rates;
  NumaRates
      rates_with_disk;  // the same rates over every processor-clock, disk time included (A26's other reading)
  NumaBreakdown breakdown;
  NumaPagesReplaced pages_replaced{};
  NumaPageTransfers page_transfers;
  std::array<std::int64_t, 3> messages{};  // page, update, communication
  std::int64_t disk_accesses = 0;
  std::int64_t copies_dropped = 0;
  NumaPlacements placements;
  std::vector<NumaLevelRecord> network;  // by level from the root: network[0] is level 1
  std::vector<NumaProcessRecord> jobs;   // processes: profiles in scenario order, copies in order
  NumaPlatformRecord platform;
};

using RunRecord = std::variant<SmpRunRecord, NowRunRecord, NumaRunRecord>;

// The fields every record has, whichever model's it is.
inline RunHeader& header(RunRecord& record) {
  return std::visit([](RunHeader& h) -> RunHeader& { return h; }, record);
}

// summary.json's content, fields in the contract's order, schema_version first.
nlohmann::ordered_json summary_json(const SmpRunRecord& record);
nlohmann::ordered_json summary_json(const NowRunRecord& record);
nlohmann::ordered_json summary_json(const NumaRunRecord& record);
nlohmann::ordered_json summary_json(const RunRecord& record);

// Every result file of the run: name -> content (summary.json, jobs.csv, and now's workstations.csv and
// barriers.csv).
using ResultFiles = std::map<std::string, std::string>;
ResultFiles result_files(const SmpRunRecord& record);
ResultFiles result_files(const NowRunRecord& record);
ResultFiles result_files(const NumaRunRecord& record);
ResultFiles result_files(const RunRecord& record);

// ---- reading summary.json (the sweep's collector) ----

// A summary.json that is not JSON at all: cosched never writes one (the file is moved into place complete).
class UnreadableSummary : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws config::InputError, naming `where`, unless `summary` is an object with this cosched's
// schema_version.
void check_schema(const nlohmann::ordered_json& summary, const std::string& where);

// summary.json's scalars as CSV cells (csv_value), in file order: the run's with '.'-joined paths (lists
// skipped), and each job instance's under its name and copy.
struct SummaryCells {
  struct Job {
    std::string name;
    int copy = 0;
    std::vector<std::pair<std::string, std::string>> fields;  // e.g. "spins.successful" -> "389"
  };
  std::vector<std::pair<std::string, std::string>> run;  // e.g. "resolved.platform.cpus" -> "32"
  std::vector<Job> jobs;
};

// Reads a run's summary.json: throws UnreadableSummary when it is not JSON, config::InputError when it is
// not a summary of this contract (another schema_version, a model not among `models`, the names of the
// model registry, jobs without name or copy).
SummaryCells read_summary(const std::filesystem::path& file, std::span<const std::string_view> models);

}  // namespace cosched::metrics
