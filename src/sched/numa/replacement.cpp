#include "sched/numa/replacement.hpp"

#include <tuple>

#include "util/registry.hpp"

namespace cosched::sched {
namespace {

// Thesis 4.4, Strategy0: "Simple LRU without page classification": the least recently referenced frame
// (A30: its last access on this cluster, or its loading), ties to the lower frame.
std::int64_t strategy0(const FrameView&) {
  return 0;
}

// Thesis 4.4, Strategy1: "Uses page class. Processes are scanned in reverse priority order." A25: class-major
// (class 1 of every process before class 2 of any), within a class the lowest-priority process first (the
// largest rank), within a process LRU, ties to the lower frame.
std::int64_t strategy1(const FrameView& frame) {
  constexpr std::int64_t kRanks = std::int64_t{1} << 32;
  return static_cast<std::int64_t>(frame.page_class) * kRanks + (kRanks - 1 - frame.priority_rank);
}

const NumaReplacementEntry kReplacements[] = {
    {"strategy0", "LRU over the cluster's evictable frames, whatever their class (thesis 4.4, A30)",
     strategy0},
    {"strategy1",
     "the six page classes in order, lowest-priority process first, then LRU (thesis 4.4, A24, A25)",
     strategy1},
};

}  // namespace

std::optional<int> NumaReplacementEntry::victim(std::span<const FrameView> frames) const {
  const FrameView* best = nullptr;
  std::int64_t best_order = 0;
  for (const auto& frame : frames) {
    // Thesis 4.4 para 4: "Both strategies will not select coherency processing shared pages as the victim
    // page for replacement"; frames whose page is arriving or leaving are left alone too.
    if (!frame.evictable) continue;
    const std::int64_t o = order(frame);
    if (best == nullptr || std::tie(o, frame.last_reference, frame.frame) <
                               std::tie(best_order, best->last_reference, best->frame)) {
      best = &frame;
      best_order = o;
    }
  }
  if (best == nullptr) return std::nullopt;
  return best->frame;
}

std::string_view page_class_name(PageClass c) {
  switch (c) {
    case PageClass::OtherCopy:
      return "other_copy";
    case PageClass::OwnCopy:
      return "own_copy";
    case PageClass::OtherLast:
      return "other_last";
    case PageClass::OtherLocal:
      return "other_local";
    case PageClass::OwnLast:
      return "own_last";
    case PageClass::OwnLocal:
      return "own_local";
  }
  return "unknown";
}

// Thesis 4.4 para 3: (a) the running process's page or another's (A24: the process allocated this cluster in
// the slice), (b) shared or local, (c) a shared page with other copies is a "copy page", one without is the
// "last one" (the next access after its eviction goes to disk). Local pages have no copies.
PageClass page_class(bool running, bool shared, bool other_copies) {
  if (!shared) return running ? PageClass::OwnLocal : PageClass::OtherLocal;
  if (other_copies) return running ? PageClass::OwnCopy : PageClass::OtherCopy;
  return running ? PageClass::OwnLast : PageClass::OtherLast;
}

std::span<const NumaReplacementEntry> numa_replacements() {
  return kReplacements;
}

const NumaReplacementEntry* find_numa_replacement(std::string_view name) {
  return util::find_named(numa_replacements(), name);
}

std::string numa_replacement_names() {
  return util::names_of(numa_replacements(), " or ");
}

}  // namespace cosched::sched
