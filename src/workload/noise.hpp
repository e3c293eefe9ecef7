#pragma once
// Operating-system noise on the NOW model's workstations (issue 34; docs/models/now.md section 8): sources of
// detours, each periodic (a clock tick), Poisson (unsynchronized interrupts and daemons) or a trace measured
// on a real machine, and the stream of detours one workstation sees. A detour takes the workstation's CPU
// away for its duration: the process running is delayed, nothing is scheduled (the injection of Ferreira,
// Bridges and Brightwell, SC 2008). Pure logic: the scenario reads the sources, now/node.cpp applies them.

#include <cstdint>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "workload/distribution.hpp"

namespace cosched::workload {

using Nanos = std::int64_t;

// One detour: the CPU is taken from `start` for `duration`.
struct Detour {
  Nanos start = 0;
  Nanos duration = 0;
  Nanos end() const { return start + duration; }
};

// A trace of measured detours (`cosched calibrate --noise` writes one): per CPU of the machine that measured
// it, its detours in order, replayed every `span` (the trace repeats).
struct NoiseTrace {
  std::string file;                       // as resolved
  std::vector<std::vector<Detour>> cpus;  // by CPU, each sorted by start, none overlapping, all within span
  Nanos span = 0;
  // The fraction of a CPU's time its detours take: over all CPUs, and of one CPU.
  double net_fraction() const;
  double cpu_fraction(std::size_t cpu) const;
};

enum class NoiseKind { Periodic, Poisson, Trace };
// aligned: every workstation's detours at the same times with the same durations (co-scheduled noise);
// random: each workstation's phase (periodic, trace) or arrivals and durations (poisson) from its own
// stream; file: each workstation's phase read from a file.
enum class NoisePhase { Aligned, Random, File };

struct NoiseSource {
  NoiseKind kind = NoiseKind::Periodic;
  Nanos period = 0;  // periodic: one detour every period
  double rate = 0;   // poisson: detours per second
  // The duration of each detour in nanoseconds (periodic, poisson), drawn per detour.
  Distribution duration = Distribution::constant(0);
  std::string duration_given;               // as written
  std::shared_ptr<const NoiseTrace> trace;  // trace: the measured detours
  NoisePhase phase = NoisePhase::Random;
  std::vector<Nanos> phases;  // phase file: one per workstation the source applies to, in their order
  std::string phase_file;     // as resolved
  // The workstations it applies to, ascending; empty: all.
  std::vector<int> workstations;
  std::string workstations_given;   // "all", or the workstations as ranges ("0-63,128")
  std::string workstations_origin;  // where they were given, for the checks a platform file's size allows
  // as: daemon: each detour is work for the workstation's daemon process, which its local scheduler runs
  // (docs/models/now.md section 8.2); as: detour (false): the CPU is taken, nothing is scheduled.
  bool daemon = false;

  bool applies_to(int workstation) const;
  // The share of a workstation's time the source takes on average: the net noise (before queueing).
  double net_fraction() const;
  // The same on workstation `workstation` (a trace's CPU w mod cpus); for -1, the most it takes of any.
  double net_fraction_at(int workstation) const;
  // Mean detours per second.
  double detours_per_second() const;
  std::string kind_name() const;
  std::string phase_name() const;
};

// The detours one workstation sees from every source that applies to it and takes the CPU as `daemon` says
// (as: daemon or as: detour), in order of start. Detours that
// overlap are queued: one that arrives while another takes the CPU begins when it ends, so that the CPU time
// taken is the sum of the durations; the stream returns each busy period as one detour. Deterministic from
// (seed, source, workstation); an aligned source draws the same for every workstation.
class NoiseStream {
 public:
  NoiseStream(const std::vector<NoiseSource>* sources, int workstation, std::uint64_t seed,
              bool daemon = false);
  // Whether any source applies to this workstation.
  bool empty() const { return generators_.empty(); }
  // The next detour: it starts after the previous one ended (or at it); {-1, 0} when none is left.
  Detour next();

 private:
  // One source's raw detours at this workstation, arrival after arrival.
  struct Generator {
    const NoiseSource* source;
    std::uint64_t state;  // SplitMix64: 8 bytes per workstation and source, not a 2.5 KB Mersenne twister
    Nanos offset = 0;     // periodic and trace: the phase
    std::int64_t count = 0;
    Nanos arrival = 0;  // the next raw detour's start
    Nanos duration = 0;
    std::size_t cpu = 0;      // trace: the CPU of the trace this workstation replays
    double poisson_time = 0;  // poisson: the exact arrival in ns before rounding
    double uniform();
    void advance();  // draws the next raw detour into arrival and duration
  };
  Generator* earliest();
  std::vector<Generator> generators_;
};

}  // namespace cosched::workload

namespace cosched::workload {

// A noise trace file (docs/models/now.md section 8.3; `cosched calibrate --noise` writes them): '#' comment
// lines, of which "# span_ns: N" gives the span (else the last detour's end) and "# cpus: N" the CPUs (else
// the highest named plus one); a header "cpu,start_ns,duration_ns" or "start_ns,duration_ns"; then one
// detour per line. Throws NoiseTraceError "file:line: what was expected" for anything else.
class NoiseTraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
NoiseTrace read_noise_trace(std::istream& in, const std::string& name);

}  // namespace cosched::workload
