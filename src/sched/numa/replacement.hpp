#pragma once
// The NUMA model's page replacement strategies, memory.replacement strategy0 (LRU) and strategy1 (the six
// page classes of Nobukuni 1997, 4.4; docs/models/numa.md section 5). Each is one registry entry that picks
// the victim among a cluster's frames.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

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

// A strategy is an order on frames: it evicts the evictable frame with the smallest (order, last_reference,
// frame). The order is what comes before LRU (strategy0: nothing; strategy1: class, then the lower
// priority first), so a caller whose LRU times are costly to settle (the NUMA machine, A30) needs them only
// for the frames that share the smallest order.
struct NumaReplacementEntry {
  std::string_view name;
  std::string_view doc;
  std::int64_t (*order)(const FrameView& frame);
  // The victim's frame, or nothing when no frame is evictable. Ties go to the lower frame number.
  std::optional<int> victim(std::span<const FrameView> frames) const;
};

std::span<const NumaReplacementEntry> numa_replacements();
const NumaReplacementEntry* find_numa_replacement(std::string_view name);
std::string numa_replacement_names();  // "strategy0 or strategy1"

}  // namespace cosched::sched
