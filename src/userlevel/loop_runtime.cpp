#include "userlevel/loop_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/log.hpp"
#include "util/normal.hpp"

XBT_LOG_EXTERNAL_CATEGORY(cosched_userlevel);

namespace cosched::userlevel {
namespace {

// SplitMix64's finaliser: the second uniform of an iteration's draw from its first.
std::uint64_t next_bits(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;  // [0, 1) from 53 bits
}

// Whole cycles, at least one (as the machine's computation intervals, workload/compute_interval.hpp).
Cycles whole(double cycles) {
  return std::max<Cycles>(1, std::llround(cycles));
}

}  // namespace

IterationCosts::IterationCosts(const config::SmpLoop& loop, std::uint64_t seed)
    : distribution_(loop.cost), seed_(seed) {
  const auto& entries = distribution_.entries();
  constant_ = entries.size() == 1 && entries.front().begin == entries.front().end;
  if (constant_) constant_cost_ = whole(entries.front().begin);
  for (const auto& [index, cycles] : loop.exceptions) exceptions_.emplace_back(index, whole(cycles));
  std::sort(exceptions_.begin(), exceptions_.end());
}

Cycles IterationCosts::draw(int phase, std::int64_t index) const {
  if (constant_) return constant_cost_;
  // Counter-based: the bits depend on (seed, phase, index) only, not on the order of the draws.
  const std::uint64_t bits =
      util::mix_seed(seed_, static_cast<std::uint64_t>(phase) + 1, static_cast<std::uint64_t>(index));
  const std::size_t entry = distribution_.entry_at(unit(bits));
  return whole(distribution_.value_at(entry, unit(next_bits(bits))));
}

Cycles IterationCosts::cost(int phase, std::int64_t index) const {
  if (!exceptions_.empty()) {
    auto it = std::lower_bound(exceptions_.begin(), exceptions_.end(), std::make_pair(index, Cycles{0}));
    if (it != exceptions_.end() && it->first == index) return it->second;
  }
  return draw(phase, index);
}

Cycles IterationCosts::sum(int phase, std::int64_t begin, std::int64_t end) const {
  auto first = std::lower_bound(exceptions_.begin(), exceptions_.end(), std::make_pair(begin, Cycles{0}));
  auto last = std::lower_bound(first, exceptions_.end(), std::make_pair(end, Cycles{0}));
  Cycles total = 0;
  if (constant_) {
    total = (end - begin - (last - first)) * constant_cost_;
    for (auto it = first; it != last; ++it) total += it->second;
    return total;
  }
  for (std::int64_t i = begin; i < end; ++i) {
    if (first != last && first->first == i) {
      total += (first++)->second;
    } else {
      total += draw(phase, i);
    }
  }
  return total;
}

Chunk static_chunk(std::int64_t iterations, std::int64_t chunk, int threads, int thread, std::int64_t k) {
  if (chunk <= 0) {
    // No chunk_size: "approximately equal" contiguous chunks, at most one per thread (OpenMP 5.2, 11.5.3).
    // Our choice where the specification leaves the sizes unspecified: the first iterations % threads
    // threads get one iteration more, in thread order.
    if (k > 0) return {};
    const std::int64_t base = iterations / threads;
    const std::int64_t extra = iterations % threads;
    const std::int64_t begin = thread * base + std::min<std::int64_t>(thread, extra);
    return {begin, begin + base + (thread < extra ? 1 : 0)};
  }
  // Chunks of chunk_size assigned round-robin in thread order; the last may be shorter (11.5.3).
  const std::int64_t index = k * threads + thread;
  const std::int64_t begin = index * chunk;
  if (begin >= iterations) return {};
  return {begin, std::min(iterations, begin + chunk)};
}

Chunk shared_chunk(bool guided, std::int64_t iterations, std::int64_t chunk, int threads, std::int64_t next) {
  const std::int64_t left = iterations - next;
  if (left <= 0) return {};
  const std::int64_t minimum = std::max<std::int64_t>(1, chunk);  // chunk_size defaults to 1 (11.5.3)
  std::int64_t size = minimum;
  if (guided) {
    // "proportional to the number of unassigned iterations divided by the number of threads" (11.5.3), at
    // least chunk_size: our choice of the proportion is 1, ceil(left / threads), as libgomp's iter.c.
    size = std::max(minimum, (left + threads - 1) / threads);
  }
  return {next, next + std::min(size, left)};
}

namespace {

class LoopRuntime final : public JobRuntime {
 public:
  LoopRuntime(const config::SmpLoop& loop, int threads, std::uint64_t seed)
      : costs_(loop, seed),
        iterations_(loop.iterations),
        chunk_(loop.chunk),
        dispatch_(loop.dispatch),
        threads_(threads),
        schedule_(loop.schedule),
        position_(threads),
        stats_(threads),
        logs_(XBT_LOG_ISENABLED(cosched_userlevel, xbt_log_priority_debug)) {
    if (threads <= 0) throw std::invalid_argument("loop runtime: a job needs at least one thread");
    if (loop.iterations < 1) throw std::invalid_argument("loop runtime: iterations must be at least 1");
  }

  Next next(int thread, int phase, Cycles now) override {
    auto& mine = position_[thread];
    if (mine.phase != phase) {
      mine = Position{phase, 0};  // its first call in this phase
      if (phase != phase_) {
        // The first call of the phase by any thread: every thread finished the last phase (its barrier
        // completed), so the shared counter starts over.
        phase_ = phase;
        next_ = 0;
      }
    }
    Chunk chunk;
    Cycles work = 0;
    auto& stats = stats_[thread];
    switch (schedule_) {
      case workload::LoopSchedule::Static:
        chunk = static_chunk(iterations_, chunk_, threads_, thread, mine.next_static++);
        break;
      case workload::LoopSchedule::Dynamic:
      case workload::LoopSchedule::Guided:
        chunk =
            shared_chunk(schedule_ == workload::LoopSchedule::Guided, iterations_, chunk_, threads_, next_);
        if (chunk.end > chunk.begin) {
          // Taking a chunk from the shared counter costs `dispatch`, paid before running it; finding the
          // counter exhausted is free (our choice: the brief's "each chunk taken" costs, not each look).
          next_ = chunk.end;
          work = dispatch_;
          ++stats.dispatches;
          stats.dispatch_cycles += dispatch_;
        }
        break;
    }
    if (chunk.end <= chunk.begin) {
      if (logs_) [[unlikely]]
        util::log_userlevel(now, thread, "phase %d: no chunk left, done", phase);
      return Next{Next::Kind::Done, 0};
    }
    ++stats.chunks;
    stats.iterations += chunk.end - chunk.begin;
    work += costs_.sum(phase, chunk.begin, chunk.end);
    if (logs_) [[unlikely]] {
      const auto first = static_cast<long long>(chunk.begin), last = static_cast<long long>(chunk.end - 1);
      if (schedule_ == workload::LoopSchedule::Static) {
        util::log_userlevel(now, thread, "phase %d: its static chunk %lld..%lld, %lld cycles", phase, first,
                            last, static_cast<long long>(work));
      } else {
        util::log_userlevel(now, thread,
                            "phase %d: takes chunk %lld..%lld from the shared counter, %lld cycles "
                            "(dispatch %lld)",
                            phase, first, last, static_cast<long long>(work),
                            static_cast<long long>(dispatch_));
      }
    }
    return Next{Next::Kind::Work, work};
  }

  // A loop never answers WaitForWork: a thread without a chunk is done with the phase.
  bool work_available() const override { return false; }
  const ThreadStats& stats(int thread) const override { return stats_[thread]; }

 private:
  struct Position {
    int phase = -1;
    std::int64_t next_static = 0;  // static: the index k of its next chunk
  };

  IterationCosts costs_;
  std::int64_t iterations_;
  std::int64_t chunk_;
  Cycles dispatch_;
  int threads_;
  workload::LoopSchedule schedule_;
  int phase_ = -1;
  std::int64_t next_ = 0;  // dynamic, guided: the shared counter, the first unassigned iteration
  std::vector<Position> position_;
  std::vector<ThreadStats> stats_;
  bool logs_;  // cosched_userlevel is on at debug (log settings are made before the run)
};

}  // namespace

std::unique_ptr<JobRuntime> make_loop_runtime(const config::SmpLoop& loop, int threads, std::uint64_t seed) {
  return std::make_unique<LoopRuntime>(loop, threads, seed);
}

}  // namespace cosched::userlevel
