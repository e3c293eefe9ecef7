#pragma once
// The typed, validated scenario: what a YAML file means once defaults and overrides are applied.
// Key names mirror docs/scenario-format.md; each model adds its own section to the variant.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "barrier/barrier_kind.hpp"
#include "barrier/keepalive_spec.hpp"
#include "barrier/tree_kind.hpp"
#include "config/policy_choice.hpp"
#include "workload/distribution.hpp"
#include "workload/noise.hpp"
#include "workload/now_pattern.hpp"
#include "workload/userlevel_kinds.hpp"

namespace cosched::config {

enum class EndCondition { AllJobs, FirstFinish };

// Extra result files (the `output` section). They never change what is simulated, so they are not part of
// the resolved scenario in summary.json (nor of a sweep's run ids).
struct OutputConfig {
  bool timeline = false;  // timeline.csv: every process's state intervals
  // output.trace: trace.paje and trace.json, drawn from timeline.csv's intervals (metrics/trace.hpp).
  bool trace_paje = false;
  bool trace_chrome = false;
  // output.trace_window: only the intervals within [start, end), in the timeline's unit (NOW nanoseconds,
  // SMP cycles, NUMA clocks); the whole run when absent.
  std::optional<std::pair<std::int64_t, std::int64_t>> trace_window;
  // output.trace_limit_mb: the largest estimated trace a run writes (config/limits.hpp).
  std::int64_t trace_limit_mb = 1024;
  // output.trace_messages: a link (Paje) or flow (Chrome) per message, for the models that have messages.
  // Off by default: a NOW run's messages would triple its traces (docs/scenario-format.md, "Traces").
  bool trace_messages = false;

  bool traces() const { return trace_paje || trace_chrome; }
  // The models record their timelines for timeline.csv and for the traces alike.
  bool records_timeline() const { return timeline || traces(); }
  // The models record their messages for the traces only.
  bool records_messages() const { return traces() && trace_messages; }
};

// ---- SMP model (Tsafrir thesis, chapter 2) ----
using Cycles = std::int64_t;

// What every SMP waiting algorithm's parameters carry (workload.jobs[i].wait; each algorithm's own struct
// derives from it, beside the algorithm in wait/smp/): the scheduler keys its values and defaults derive from
// (a spin "6%" of the quantum, "2CS+"; thesis 7.5: CS = cs_in + cs_out), set before its keys are read.
struct SmpWaitParams : PolicyParams {
  Cycles quantum = 0;
  Cycles context_switch = 0;
  // Sets them, and the algorithm's defaults that derive from them (a spin of CS, K&W's switch_time).
  virtual void derive(Cycles scheduler_quantum, Cycles scheduler_context_switch) {
    quantum = scheduler_quantum;
    context_switch = scheduler_context_switch;
  }
};

// Standard deviation of the computation interval, in the thesis's direct or symbolic format (2.2.1).
struct Sigma {
  double cycles = 0;                       // the resolved standard deviation
  std::optional<double> density;           // symbolic format: percent of draws inside [mu - I, mu + I]
  std::optional<double> interval;          // symbolic format: I in cycles
  std::optional<double> interval_percent;  // symbolic format with I given as a percentage of mu
  std::string given;                       // as written (after a draw: the drawn value, "80/3.5")
};

// A phase run as a parallel loop by the job's threads at user level (issue 23; docs/models/smp.md,
// "User-level scheduling"): OpenMP's static, dynamic and guided schedules; the loop ends at the job's
// barrier.
struct SmpLoop {
  std::int64_t iterations = 0;
  workload::Distribution cost = workload::Distribution::constant(0);  // cycles of one iteration
  std::string cost_given;                                             // as written
  // Iterations whose cost is given apart (the seed's one slow iteration): index in the phase -> cycles.
  std::vector<std::pair<std::int64_t, double>> exceptions;
  workload::LoopSchedule schedule = workload::LoopSchedule::Static;  // OpenMP 5.2, 11.5.3
  std::int64_t chunk = 0;                                            // 0: OpenMP's default for the schedule
  Cycles dispatch = 0;  // cycles to take one chunk from the shared counter (dynamic, guided)
};

// A phase run as a fork-join task tree by the job's threads through a user-level scheduler (issue 23).
struct SmpTasks {
  workload::TaskTree tree = workload::TaskTree::Fib;  // fib(n) or binary(depth)
  int size = 0;                                       // n of fib(n), depth of binary(depth)
  std::string tree_given;                             // as written, "fib(20)"
  Cycles leaf = 0;                                    // a leaf task's work
  Cycles spawn = 0;                                   // creating a child task
  Cycles switch_cost = 0;                             // one user-level context switch (`switch`)
  workload::TaskPolicy policy = workload::TaskPolicy::CentralQueue;  // the seed's library, or work stealing
};

struct SmpJobProfile {
  std::string name;
  int threads = 0;
  int barriers = 0;
  double compute_cycles = 0;  // mu
  std::string compute_given;
  Sigma sigma;
  int copies = 1;
  int nice = 0;  // its threads' nice value, under scheduler.policy cfs and eevdf (a Linux task's weight)
  // wait.algorithm and its keys: a name of wait/smp/smp_wait_registry.cpp and that algorithm's own parameters
  // (an SmpWaitParams).
  PolicyChoice wait;
  // Keys given as distributions (thesis 5.1.3); their values above are drawn from them when the run's
  // seed is known (config::draw_distributions), the same for every copy of the profile.
  std::optional<workload::Distribution> threads_from, compute_from, sigma_from;
  // At most one: each phase is a parallel loop or a task tree instead of compute_cycles +- sigma.
  std::optional<SmpLoop> loop;
  std::optional<SmpTasks> tasks;
};

// What every SMP scheduling policy's parameters carry (scheduler.policy; each policy's own struct derives
// from it, beside the policy in sched/smp/): the platform and scheduler keys its values derive from (the
// quantum, for values in % of it and Linux's defaults; the CPUs, 0 while a platform file's are unknown), set
// before its keys are read.
struct SmpSchedulerParams : PolicyParams {
  Cycles quantum = 0;
  int cpus = 0;
  // Sets them, and the policy's defaults that derive from them (linux24's Linux 2.2 values).
  virtual void derive(Cycles scheduler_quantum, int platform_cpus) {
    quantum = scheduler_quantum;
    cpus = platform_cpus;
  }
};

struct SmpConfig {
  int cpus = 0;
  std::string platform_file;  // resolved path, empty when built from cpus
  // scheduler.policy and its keys: a name of sched/smp/smp_policy_registry.cpp and that policy's own
  // parameters (an SmpSchedulerParams).
  PolicyChoice scheduler;
  Cycles quantum = 0;
  Cycles cs_in = 0;
  Cycles cs_out = 0;
  Cycles idle_wakeup = 0;  // added to a switch in on an idle CPU (docs/models/smp.md section 5)
  bool shuffle = false;
  int nosync = 0;
  int nosync_nice = 0;  // the non-synchronizing threads' nice value (cfs and eevdf)
  std::vector<SmpJobProfile> jobs;
  OutputConfig output;
};

// ---- NOW model (Brim & Miller 3.1; Arpaci-Dusseau's implicit coscheduling simulator) ----
using Nanos = std::int64_t;  // simulated time in nanoseconds

// What every NOW local scheduler's parameters carry (each policy's own struct derives from it, beside the
// policy in sched/now/): the workstation's context switch W (Brim & Miller 3.1), which the workstation
// charges at each dispatch and the waiting algorithms' defaults derive from.
struct LocalSchedulerParams : PolicyParams {
  Nanos context_switch = 100'000;
  // How long a process runs before its workstation's scheduler decides again when no event comes first: the
  // gang slot, the stride quantum (the footprint estimates of now/footprint.cpp count a switch per quantum).
  virtual Nanos quantum() const = 0;
};
// The scenario speaks the vocabulary of the layers below it (docs/architecture.md).
using Pattern = workload::Pattern;
using IntervalBasis = workload::IntervalBasis;
using BarrierKind = barrier::BarrierKind;

// What every NOW waiting algorithm's parameters carry (workload.jobs[i].wait; each algorithm's own struct
// derives from it, beside the algorithm in wait/now/): the keys every algorithm takes (prefetch), or all but
// block (resume).
struct NowWaitParams : PolicyParams {
  // What a spin interrupted by a preemption or the end of a quantum does when the process runs again.
  enum class Resume { Restart, Keep, Block };
  Resume resume = Resume::Block;
  // Prefetching wake-ups (B&M 4): send each read's partner a wake-up this long before the read (default
  // W + L + 2o), for patterns whose partners a process can predict.
  bool prefetch = false;
  std::optional<Nanos> prefetch_lead;
};

struct NowJobProfile {
  std::string name;
  int processes = 0;
  int copies = 1;
  std::vector<int> placement;  // workstation of each process; default 0..processes-1
  // Where each process's workstation was decided ("file:line:col: key.path"), for errors found only once
  // a platform file says how many workstations there are.
  std::vector<std::string> placement_origin;
  Pattern pattern = Pattern::News;
  Nanos comm_interval = 10'000;
  Nanos sync_interval = 150'000'000;
  double imbalance = 1.0;
  int barriers = 0;
  IntervalBasis interval_basis = IntervalBasis::Compute;
  BarrierKind barrier_kind = BarrierKind::Root;
  barrier::TreeKind barrier_notify = barrier::TreeKind::Flat;  // root barriers' notification tree
  barrier::TreeKind barrier_arrive = barrier::TreeKind::Flat;  // root barriers' registration tree
  barrier::KeepAliveSpec keepalive;                            // root barriers' keep-alives (B&M 3.4)
  // wait.algorithm and its keys: a name of wait/now/now_wait_registry.cpp and that algorithm's own
  // parameters (a NowWaitParams).
  PolicyChoice wait;
  int tickets = 100;
  int nice = 0;  // Linux's fair schedulers (scheduler.policy cfs, eevdf): the weight of its processes
};

// How messages travel (docs/models/now.md section 2): each on its own (LogP) or sharing links' bandwidth.
enum class NowNetwork { LogP, Shared };

// An open workload (issue 24; docs/models/now-streams.md): a stream of batch jobs read from a Standard
// Workload Format file, each job a NOW parallel job with a communication profile from its class.
struct NowJobClass {
  std::string name;
  double weight = 1;                 // share of the jobs when classes are drawn at random
  std::optional<int> min_processes;  // the class applies to jobs of at least this many processes
  std::optional<int> max_processes;  // ... and at most this many
  NowJobProfile profile;             // pattern, intervals, imbalance, barrier kind, wait (processes,
                                     // barriers and placement come from the stream)
};

// How a stream's job gets its class: the first class whose range holds the job (size), or drawn by weight
// among those that hold it (random).
enum class NowClassRule { Size, Random };

struct NowStream {
  std::string swf;                         // resolved path of the SWF file
  std::string swf_given;                   // as written
  std::int64_t first = 0;                  // skip this many usable jobs
  std::optional<std::int64_t> jobs;        // take at most this many usable jobs
  std::optional<double> load;              // target offered load: arrival_scale is derived from it
  double arrival_scale = 1;                // inter-arrival times multiplied by this
  double time_scale = 1;                   // run and requested times multiplied by this
  double bounded_slowdown_threshold = 10;  // seconds, before time_scale (Feitelson et al. 1997)
  NowClassRule class_rule = NowClassRule::Size;
  std::vector<NowJobClass> classes;
};

// What every NOW job scheduler's parameters carry (top-level `job_scheduler`; each policy's own struct
// derives from it, beside the policy in sched/jobs/): the multiprogramming level, gang rows or time-share
// processes per workstation (1 for the policies that run one job per workstation).
struct JobSchedulerParams : PolicyParams {
  int mpl = 1;
};

struct NowConfig {
  int workstations = 0;
  NowNetwork network = NowNetwork::LogP;
  std::string platform_file;  // resolved path, empty when built from the keys below
  Nanos latency = 10'000;
  Nanos overhead = 2'000;
  double bandwidth_bytes_per_second = 125e6;  // 1 Gbps
  // scheduler.policy and its keys: a name of sched/now/local_scheduler_registry.cpp and that policy's own
  // parameters (a LocalSchedulerParams).
  PolicyChoice scheduler;
  std::vector<NowJobProfile> jobs;
  // Open workloads: both set, or neither (today's closed workload of `jobs`).
  std::optional<NowStream> stream;
  // job_scheduler.policy and its keys: a name of sched/jobs/job_scheduler_registry.cpp and that policy's own
  // parameters (a JobSchedulerParams).
  std::optional<PolicyChoice> job_scheduler;
  // Operating-system noise on the workstations (docs/models/now.md section 8); empty: none.
  std::vector<workload::NoiseSource> noise;
  OutputConfig output;

  const LocalSchedulerParams& scheduler_params() const { return scheduler.as<LocalSchedulerParams>(); }
  Nanos context_switch() const { return scheduler_params().context_switch; }
  int mpl() const { return job_scheduler->as<JobSchedulerParams>().mpl; }
};

// ---- NUMA model (Nobukuni 1997, SSS-CORE kernel scheduling; docs/models/numa.md) ----
using Clocks = std::int64_t;  // simulation clocks ("clk", thesis table 5.1)

// How messages cross the tree (docs/models/numa.md section 2): store-and-forward one hop at a time with
// finite output buffers (thesis 4.2.2), or SimGrid's flow model with shared links.
enum class NumaNetwork { Hops, Shared };
// Who meets at a sync point (A6, workload.barrier): a random subset of at least two of a process's threads
// (A6(a), the thesis's "randomly selected threads"), every thread, or a random pair.
enum class NumaSyncMembers { RandomSubset, All, Pair };
// The memory model (memory.consistency): the thesis's sequential consistency (4.2.4), or release consistency
// (its future work, 5.3).
enum class NumaConsistency { Sequential, Release };
// A shared write on a cluster with no copy of the page while others hold one (A13, memory.write_miss):
// update every copy from where it is, keeping none ("Every write access starts update processing by
// sending update messages to every copy", 4.2.4 para 3), or fetch a copy first and then write.
enum class NumaWriteMiss { Remote, Fetch };
// Which copy a read with no copy here asks (A12, memory.copy_source): the nearest (fewest hops, ties to the
// lowest cluster), or the oldest copy still held (the page's first load, while it stays: a home).
enum class NumaCopySource { Nearest, Oldest };

// A reference-frequency table (thesis 4.2.3): each entry a run of `pages` consecutive pages of the space,
// each referenced with weight `frequency`, by the access `type`. Built from the hot-cold shape or written
// out as entries.
enum class NumaAccess { Compute, Read, Write };
// How a hot-cold table's mix applies (A5): each page has one type, the mix being the share of each run's
// pages of each type ("The type of an access ... can be given for each page by the frequency table", 4.2.3
// para 5), or every page's references split by the mix.
enum class NumaTypes { PerPage, PerReference };
struct NumaTableEntry {
  int pages = 1;
  double frequency = 1;
  NumaAccess type = NumaAccess::Read;
};
struct NumaTable {
  // The shape as given, for the record: "hot-cold" (hot_pages, hot_refs, mix) or "entries".
  std::string shape = "hot-cold";
  double hot_pages = 0.2;                           // share of the space's pages that are hot
  double hot_refs = 0.8;                            // share of the references that go to the hot pages
  double compute = 0.5, read = 0.35, write = 0.15;  // the access mix (A5)
  NumaTypes types = NumaTypes::PerPage;
  // Shape "entries": the table itself. Shape "hot-cold": filled by the reader with the space's hot run and
  // its cold run (none when every page is hot), each page weighted by its run's share of the references;
  // per page, each run split into its compute, read and write pages; per reference, one run each, its
  // types unused (every page's references follow the mix).
  std::vector<NumaTableEntry> entries;
};

struct NumaProcessProfile {
  std::string name;
  int threads = 0;  // the fixed number of processors it requests (thesis 4.2.3)
  // Where `threads` was given ("file:line:col: workload.processes[3].threads"), for the checks that need the
  // platform file (more threads than clusters).
  std::string origin;
  int copies = 1;
  int local_pages = 0;                      // per thread
  int shared_pages = 0;                     // per process
  double shared_rate = 0;                   // r_shared: share of references to the shared space (A4)
  Clocks sync_min = 1000, sync_max = 1000;  // synchronization interval, or a range drawn per process (A7)
  std::string sync_given;                   // as written
  NumaTable local_table, shared_table;
};

struct NumaConfig {
  // platform
  std::string platform_file;  // resolved path of the tree platform
  NumaNetwork network = NumaNetwork::Hops;
  int clusters = 0;                // as the platform file has them (filled by the run)
  double clock_hz = 1e9;           // clocks per simulated second, for SimGrid's clock and the shared network
  Clocks page_transfer_base = 50;  // clk for a page over one hop at the reference bandwidth (table 5.1, A1)
  double reference_bandwidth =
      0;  // bytes/s at which a page hop costs page_transfer_base; 0: the bottom level's
  int update_bytes = 64, communication_bytes = 16;  // message sizes (A2); a page message is page_size bytes
  bool buffers = true;  // finite output buffers of the switches' input-line count (A28)
  // scheduler
  PolicyChoice policy;  // an allocation policy of sched/numa/allocation_registry (policy4 unless named)
  Clocks time_slice = 100'000;   // one quantum (table 5.1)
  int slices = 100;              // a run ends after this many slices (chapter 5)
  double aging_coefficient = 0;  // C_r of the aging formula (3.1.3, A10)
  // memory
  PolicyChoice replacement;  // a strategy of sched/numa/replacement_registry (strategy1 unless named)
  int pages_per_cluster = 400;
  int page_size = 4096;
  Clocks disk = 10'000;
  Clocks local_access = 1;  // A14
  NumaConsistency consistency = NumaConsistency::Sequential;
  NumaWriteMiss write_miss = NumaWriteMiss::Remote;      // A13
  NumaCopySource copy_source = NumaCopySource::Nearest;  // A12
  // workload
  double work = 2'000'000;  // effective clocks per thread, on average over a process's threads (A9)
  NumaSyncMembers barrier = NumaSyncMembers::RandomSubset;  // who meets at a sync point (A6)
  std::vector<NumaProcessProfile> processes;
  OutputConfig output;
};

// The calibration file whose costs a scenario took as the defaults of the keys they feed (top-level
// `calibration`; docs/calibration.md, section 6).
struct CalibrationRecord {
  std::string file;    // resolved path
  double cpu_hz = 0;   // the clock rate of its cycle figures
  bool quick = false;  // made with `cosched calibrate --quick`
  // A key the scenario left out that took the file's value: its path, the value as the file writes it, and
  // the file's key it came from.
  struct Taken {
    std::string key, value, from;
  };
  std::vector<Taken> taken;
  std::vector<std::string> written;  // keys the file feeds that the scenario (or --set) wrote: theirs stand
};

struct Scenario {
  std::string file;  // the scenario file as named by the user
  std::string name;
  std::string model;
  std::uint64_t seed = 1;
  EndCondition end = EndCondition::AllJobs;
  std::variant<SmpConfig, NowConfig, NumaConfig> model_config;
  std::optional<CalibrationRecord> calibration;  // `calibration`: the file and what its costs gave
  // Valid settings that are likely not what was meant, one located line each (the CLI prints them on
  // stderr); not part of the resolved scenario.
  std::vector<std::string> warnings;
};

}  // namespace cosched::config
