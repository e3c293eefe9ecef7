#pragma once
// The NUMA model's page replacement strategies, memory.replacement (Nobukuni 1997, 4.4; docs/models/numa.md
// section 5): which of a cluster's frames is evicted. What every strategy sees and declares; each declares
// its entry in its own file (lru_replacement: strategy0, class_replacement: strategy1), and
// replacement_registry lists them.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "config/policy.hpp"

namespace cosched::sched {

// Thesis 4.4, in strategy1's eviction order; table 5.5's columns in this order too.
enum class PageClass : std::uint8_t { OtherCopy, OwnCopy, OtherLast, OtherLocal, OwnLast, OwnLocal };
constexpr int kPageClasses = 6;
std::string_view page_class_name(PageClass c);  // other_copy, own_copy, ... (the result files' keys)

// (a) the page's process is the one running on this cluster (A24), (b) shared or local, (c) other copies.
PageClass page_class(bool running, bool shared, bool other_copies);

// One frame as a strategy sees it.
struct FrameView {
  int frame = 0;
  PageClass page_class = PageClass::OwnLocal;
  int priority_rank = 0;  // the page's process in the slice's priority order: 0 the highest priority
  std::int64_t last_reference = 0;  // clock of its last reference on this cluster (A30)
  bool evictable = true;            // false while under coherency processing or moving
};

// A replacement strategy's parameters: none is common to all; a strategy with keys derives its own struct.
struct NumaReplacementParams : config::PolicyParams {};

// A strategy as its registry lists it (sched/numa/replacement_registry.hpp). A strategy is an order on
// frames: it evicts the evictable frame with the smallest (order, last_reference, frame). The order is what
// comes before LRU (strategy0: nothing; strategy1: class, then the lower priority first), so a caller whose
// LRU times are costly to settle (the NUMA machine, A30) needs them only for the frames that share the
// smallest order.
struct NumaReplacementEntry {
  config::PolicySpec spec;
  std::int64_t (*order)(const config::PolicyParams& params, const FrameView& frame);
};

// The strategy a scenario chose, with its parameters.
class Replacement {
 public:
  Replacement(const NumaReplacementEntry& entry, std::shared_ptr<const config::PolicyParams> params)
      : entry_(&entry), params_(std::move(params)) {}
  // The chosen strategy, found in the registry.
  explicit Replacement(const config::PolicyChoice& choice);

  std::string_view name() const { return entry_->spec.name; }
  std::int64_t order(const FrameView& frame) const { return entry_->order(*params_, frame); }
  // The victim's frame, or nothing when no frame is evictable. Ties go to the lower frame number.
  std::optional<int> victim(std::span<const FrameView> frames) const;

 private:
  const NumaReplacementEntry* entry_;
  std::shared_ptr<const config::PolicyParams> params_;
};

}  // namespace cosched::sched
