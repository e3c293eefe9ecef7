#pragma once
// The typed, validated scenario: what a YAML file means once defaults and overrides are applied.
// Key names mirror docs/scenario-format.md; each model adds its own section to the variant.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cosched::config {

enum class EndCondition { AllJobs, FirstFinish };

// ---- SMP model (Tsafrir thesis, chapter 2) ----
using Cycles = std::int64_t;

enum class SmpPolicy { RoundRobin };

// The waiting algorithm a thread uses at a barrier. Fixed spin covers the three of the thesis:
// spin budget 0 (always block), a finite budget, or no limit (always spin).
struct SmpWait {
  enum class Algorithm { FixedSpin, Block, Spin };
  Algorithm algorithm = Algorithm::FixedSpin;
  Cycles spin_cycles = 0;  // budget for FixedSpin
  std::string spin_given;  // as written (e.g. "6%", "CS+"), for the record
};

// Standard deviation of the computation interval, in the thesis's direct or symbolic format (2.2.1).
struct Sigma {
  double cycles = 0;               // the resolved standard deviation
  std::optional<double> density;   // symbolic format: percent of draws inside [mu - I, mu + I]
  std::optional<double> interval;  // symbolic format: I in cycles
  std::string given;               // as written
};

struct SmpJobProfile {
  std::string name;
  int threads = 0;
  int barriers = 0;
  double compute_cycles = 0;  // mu
  std::string compute_given;
  Sigma sigma;
  int copies = 1;
  SmpWait wait;
};

struct SmpConfig {
  int cpus = 0;
  std::string platform_file;  // resolved path, empty when built from cpus
  SmpPolicy policy = SmpPolicy::RoundRobin;
  Cycles quantum = 0;
  Cycles cs_in = 0;
  Cycles cs_out = 0;
  bool shuffle = false;
  int nosync = 0;
  std::vector<SmpJobProfile> jobs;
};

// ---- NOW model (Brim & Miller 3.1; Arpaci-Dusseau's implicit coscheduling simulator) ----
using Nanos = std::int64_t;  // simulated time in nanoseconds

enum class NowPolicy { Gang, TimeSharing, Stride, StrideCredit };
// Stride schedulers: does a woken process take the CPU when its pass is below the running one's?
enum class WakePreempt { Pass, None };
enum class SleepReturn { Always, Maxwait };
enum class Pattern { None, News, Random };
enum class IntervalBasis { Compute, Dedicated };
enum class BarrierKind { Root, AllToAll };

struct NowWait {
  enum class Algorithm { Block, SpinFixed, Pairwise, BlockImmediately, Spin, LargeInitialSpin };
  Algorithm algorithm = Algorithm::Pairwise;
  Nanos spin = 0;                     // spin-fixed
  std::optional<Nanos> read_spin;     // pairwise baseline for reads (default 2L + 4o + context switch)
  std::optional<Nanos> barrier_spin;  // pairwise baseline at barriers (default 3 context switches)
  std::optional<Nanos> window;        // conditional spin window (default: the barrier baseline)
  std::optional<Nanos> initial_spin;  // large-initial-spin, in time
  bool initial_spin_v_l_2o = false;   // large-initial-spin: "V+L+2o" (Brim & Miller 3.3)
  // What a spin interrupted by a preemption or the end of a quantum does when the process runs again.
  enum class Resume { Restart, Keep, Block };
  Resume resume = Resume::Block;
  // The conditional spin rule: a count of messages per window, or each message extends the spin.
  enum class Conditional { Count, Extend };
  Conditional conditional = Conditional::Extend;
  // block-immediately: the conditional window of its reads.
  enum class ReadWindow { Pairwise, ReadBaseline, None };
  ReadWindow read_window = ReadWindow::Pairwise;
  // Two-phase algorithms: what a process woken during a wait spins first when it runs again: the wait's
  // first phase, or one conditional window.
  enum class AfterWake { FirstPhase, Window };
  AfterWake after_wake = AfterWake::Window;
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
  NowWait wait;
  int tickets = 100;
};

struct NowConfig {
  int workstations = 0;
  std::string platform_file;  // resolved path, empty when built from the keys below
  Nanos latency = 10'000;
  Nanos overhead = 2'000;
  double bandwidth_bytes_per_second = 125e6;  // 1 Gbps
  NowPolicy policy = NowPolicy::Stride;
  Nanos quantum = 10'000'000;
  Nanos context_switch = 100'000;
  SleepReturn sleep_return = SleepReturn::Always;
  int initial_level = 29;
  std::optional<Nanos> credit_cap;               // default: one quantum
  WakePreempt wake_preempt = WakePreempt::None;  // stride schedulers; default by policy
  std::vector<NowJobProfile> jobs;
};

struct Scenario {
  std::string file;  // the scenario file as named by the user
  std::string name;
  std::string model;
  std::uint64_t seed = 1;
  EndCondition end = EndCondition::AllJobs;
  std::variant<SmpConfig, NowConfig> model_config;
};

}  // namespace cosched::config
