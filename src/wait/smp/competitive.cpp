#include "wait/smp/competitive.hpp"

#include <algorithm>

namespace cosched::wait {

CompetitiveWaiter::CompetitiveWaiter(Competitive kind, Cycles switch_time, Cycles adjust)
    : kind_(kind), switch_time_(switch_time), adjust_(adjust), threshold_(switch_time) {}

Cycles CompetitiveWaiter::spin_budget(const ArrivalView& view) {
  if (static_cast<std::size_t>(view.thread) >= ttime_.size()) {
    ttime_.resize(static_cast<std::size_t>(view.thread) + 1, {0, 0, 0});
    tcount_.resize(static_cast<std::size_t>(view.thread) + 1, 0);
  }
  return kind_ == Competitive::Fixed ? switch_time_ : threshold_;
}

void CompetitiveWaiter::record(const WaitRecord& record) {
  // tblkd: 0 after a successful spin, else the time from the block until the thread runs again.
  const Cycles tblkd = record.succeeded ? 0 : record.blocked_cycles;
  switch (kind_) {
    case Competitive::Fixed:
      return;
    case Competitive::LastOne:
      threshold_ = tblkd < 2 * switch_time_ ? std::min(switch_time_, threshold_ + adjust_)
                                            : std::max<Cycles>(0, threshold_ - adjust_);
      return;
    case Competitive::CoarseAdjustment:
      threshold_ = tblkd < 2 * switch_time_ ? switch_time_ : 0;
      return;
    case Competitive::AverageThree: {
      const auto id = static_cast<std::size_t>(record.thread);
      if (id >= ttime_.size()) {
        ttime_.resize(id + 1, {0, 0, 0});
        tcount_.resize(id + 1, 0);
      }
      ttime_[id][tcount_[id] % 3] = tblkd;
      ++tcount_[id];
      // Figure 10 compares "Average(tcount[id])", read as the average of the thread's three slots.
      const Cycles sum = ttime_[id][0] + ttime_[id][1] + ttime_[id][2];
      threshold_ = sum < 3 * switch_time_ ? std::min(switch_time_, threshold_ + adjust_)
                                          : std::max<Cycles>(0, threshold_ - adjust_);
      return;
    }
  }
}

}  // namespace cosched::wait
