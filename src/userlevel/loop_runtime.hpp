#pragma once
// A parallel loop's user-level runtime (issue 23; docs/models/smp.md, "User-level scheduling", "Parallel
// loops"): OpenMP's static, dynamic and guided schedules (OpenMP 5.2, 11.5.3, the schedule clause) handing
// a job's threads chunks of iterations, phase after phase, through the JobRuntime contract.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "userlevel/job_runtime.hpp"

namespace cosched::userlevel {

// The cost of a phase's iterations: drawn from the loop's distribution by a counter-based stream, so that
// iteration i of phase p costs the same whichever thread runs it and in whatever order (the schedules are
// compared on the same iterations), and nothing is stored per iteration. The exceptions override the draw.
class IterationCosts {
 public:
  IterationCosts(const config::SmpLoop& loop, std::uint64_t seed);
  // Cycles of iteration `index` of phase `phase`: at least one.
  Cycles cost(int phase, std::int64_t index) const;
  // Cycles of iterations [begin, end) of phase `phase`.
  Cycles sum(int phase, std::int64_t begin, std::int64_t end) const;

 private:
  Cycles draw(int phase, std::int64_t index) const;
  const workload::Distribution distribution_;
  std::vector<std::pair<std::int64_t, Cycles>> exceptions_;  // sorted by index
  std::uint64_t seed_;
  bool constant_;  // one value: no draw
  Cycles constant_cost_ = 0;
};

// The iterations [begin, end) of one chunk.
struct Chunk {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

// The chunk a schedule gives next (OpenMP 5.2, 11.5.3): the static assignment of thread `thread`'s k-th
// chunk, and the shared counter's next chunk for dynamic and guided. Empty (begin == end) when none is left.
Chunk static_chunk(std::int64_t iterations, std::int64_t chunk, int threads, int thread, std::int64_t k);
Chunk shared_chunk(bool guided, std::int64_t iterations, std::int64_t chunk, int threads, std::int64_t next);

}  // namespace cosched::userlevel
