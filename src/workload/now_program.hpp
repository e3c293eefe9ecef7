#pragma once
// What one process of a parallel job does on the NOW (Brim & Miller 3.1, docs/models/now.md): per phase,
// a number of remote reads each preceded by comm_interval of computation, then the rest of the phase's
// computation, then a barrier. Load imbalance draws each phase's length per process.

#include <array>
#include <cstdint>
#include <optional>
#include <random>

#include "workload/now_pattern.hpp"

namespace cosched::workload {

using Nanos = std::int64_t;

struct ProgramSpec {
  Nanos comm_interval = 0;
  Nanos sync_interval = 0;
  double imbalance = 1.0;
  Pattern pattern = Pattern::None;
  IntervalBasis basis = IntervalBasis::Compute;
  Nanos read_round_trip = 0;  // 2L + 4o: one read on a dedicated machine, for the dedicated basis
  int processes = 1;
};

struct Phase {
  std::int64_t reads = 0;  // remote reads in this phase
  Nanos chunk = 0;         // computation before each read
  Nanos residual = 0;      // computation after the last read, before the barrier
  Nanos budget = 0;        // sync_interval x the phase's imbalance factor (its length as drawn)
  Nanos compute() const { return reads * chunk + residual; }
};

// The phase-length factor of load imbalance v: uniform on [2/(1+v), 2v/(1+v)], mean 1, so the slowest
// process's computation is at most v times the fastest's and a phase lasts sync_interval on average.
double imbalance_factor(double v, std::mt19937_64& engine);
double imbalance_spread(double v);  // (max factor - min factor): V = spread * sync_interval

// The neighbours of a process on a 2-D torus of R x C processes (R the largest divisor of P not above
// sqrt P), in the order a NEWS pattern reads them: north, east, west, south.
std::array<int, 4> news_neighbours(int rank, int processes);
// NEWS read number `read` of a phase reads from the (read mod 4)th of those neighbours.
inline int news_partner(const std::array<int, 4>& neighbours, std::int64_t read) {
  return neighbours[read % 4];
}

class ProcessProgram {
 public:
  ProcessProgram(const ProgramSpec& spec, int rank, std::uint64_t stream_seed);
  // The next phase (one call per barrier, in order).
  Phase next_phase();
  // The process read number `read` of the current phase reads from.
  int read_partner(std::int64_t read);
  // Under the NEWS pattern, the neighbours its reads take turns at (news_partner), which take no random
  // draw; nothing under the others.
  std::optional<std::array<int, 4>> news_partners() const;

 private:
  ProgramSpec spec_;
  int rank_;
  std::array<int, 4> news_{};
  std::mt19937_64 engine_;
};

}  // namespace cosched::workload
