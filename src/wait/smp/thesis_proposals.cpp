#include "wait/smp/thesis_proposals.hpp"

#include <algorithm>

namespace cosched::wait {

bool YieldOnWake::release_after_success(const ArrivalView& view, int woken) {
  // Thesis chapter 10: (1) the completion of b moved peers from blocked to ready, and (2) currently there are
  // no idle processors ("the number of ready tasks is bigger than the processors number" for priority-based
  // schedulers).
  if (woken <= 0) return false;
  if (runnable_exceeds_cpus_) return view.runnable_threads > view.cpus;
  return view.idle_cpus == 0;
}

Cycles GranularityAware::spin_budget(const ArrivalView& view) {
  const auto id = static_cast<std::size_t>(view.thread);
  if (id >= threads_.size()) threads_.resize(id + 1);
  if (view.since_last_arrival >= 0) {
    auto& h = threads_[id];
    h.samples[h.count % 3] = view.since_last_arrival;
    ++h.count;
  }
  const Cycles grain = estimate();
  return grain > coarse_ ? 0 : spin_;
}

Cycles GranularityAware::estimate() const {
  Cycles best = -1;
  for (const auto& h : threads_) {
    if (h.count == 0) continue;
    const int n = std::min(h.count, 3);
    Cycles sum = 0;
    for (int i = 0; i < n; ++i) sum += h.samples[i];
    best = std::max(best, sum / n);
  }
  return best;
}

}  // namespace cosched::wait
