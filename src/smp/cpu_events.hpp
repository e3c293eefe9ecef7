#pragma once
// The SMP machine's pending events: each CPU has at most one, and the next to process is the one with the
// smallest (time, CPU id) (docs/models/smp.md: events with equal time are processed in ascending CPU id).
//
// Implementation note: a tournament (winner) tree over the CPUs rather than a binary heap of events. Setting
// or clearing a CPU's event replays the matches on its path to the root (log2 of the CPU count, 5 for 32
// CPUs), and the next event is the root's winner, read without a pop. A heap of (time, CPU, version) entries
// needs a pop and a push per event and leaves superseded entries behind. Both give the minimum of
// (time, CPU id) over the CPUs' current events, so the order of events is the same.

#include <cstdint>
#include <limits>
#include <vector>

namespace cosched::smp {

class CpuEvents {
 public:
  using Cycles = std::int64_t;
  using CpuId = int;
  // The time of a CPU without a pending event.
  static constexpr Cycles kNone = std::numeric_limits<Cycles>::max();

  explicit CpuEvents(int cpus = 0) {
    while (leaves_ < cpus) leaves_ *= 2;
    time_.assign(static_cast<std::size_t>(leaves_), kNone);
    // Node n's children are 2n and 2n + 1; the leaves are leaves_ + cpu; winner_[n] is the CPU that wins the
    // subtree of n. With every time kNone, the leftmost CPU of each subtree wins (ties go to the lower id).
    winner_.resize(2 * static_cast<std::size_t>(leaves_));
    for (int cpu = 0; cpu < leaves_; ++cpu) winner_[static_cast<std::size_t>(leaves_ + cpu)] = cpu;
    for (int n = leaves_ - 1; n >= 1; --n) winner_[static_cast<std::size_t>(n)] = winner_[2 * n];
  }

  // The CPU's one pending event is now at `time` (replacing any earlier one).
  void set(CpuId cpu, Cycles time) {
    time_[static_cast<std::size_t>(cpu)] = time;
    replay(cpu);
  }
  // The CPU has no pending event.
  void clear(CpuId cpu) { set(cpu, kNone); }

  bool empty() const { return time_[static_cast<std::size_t>(top_cpu())] == kNone; }
  // The CPU of the next event (smallest time, then smallest id); meaningful unless empty().
  CpuId top_cpu() const { return winner_[1]; }
  Cycles top_time() const { return time_[static_cast<std::size_t>(top_cpu())]; }
  Cycles time(CpuId cpu) const { return time_[static_cast<std::size_t>(cpu)]; }

 private:
  void replay(CpuId cpu) {
    for (std::size_t n = (static_cast<std::size_t>(leaves_) + static_cast<std::size_t>(cpu)) / 2; n >= 1;
         n /= 2) {
      const CpuId left = winner_[2 * n];
      const CpuId right = winner_[2 * n + 1];
      // Every CPU of the left subtree has a lower id than every CPU of the right one: the left wins ties.
      // Without a branch (the mask is all ones when the right wins): a match's outcome is hard to predict.
      const CpuId right_wins =
          -static_cast<CpuId>(time_[static_cast<std::size_t>(right)] < time_[static_cast<std::size_t>(left)]);
      winner_[n] = left ^ ((left ^ right) & right_wins);
    }
  }

  int leaves_ = 1;  // the CPU count rounded up to a power of two (the padding CPUs never have events)
  std::vector<Cycles> time_;  // per CPU: its pending event's time, or kNone
  std::vector<CpuId> winner_;
};

}  // namespace cosched::smp
