#include "sched/numa_replacement.hpp"

#include <tuple>

#include "util/registry.hpp"

namespace cosched::sched {
namespace {

// The evictable frame that `before` orders first, or nothing.
template <typename Before>
std::optional<int> first_evictable(std::span<const FrameView> frames, Before before) {
  const FrameView* best = nullptr;
  for (const auto& frame : frames) {
    // Thesis 4.4 para 4: "Both strategies will not select coherency processing shared pages as the victim
    // page for replacement"; frames whose page is arriving or leaving are left alone too.
    if (!frame.evictable) continue;
    if (best == nullptr || before(frame, *best)) best = &frame;
  }
  if (best == nullptr) return std::nullopt;
  return best->frame;
}

// Thesis 4.4, Strategy0: "Simple LRU without page classification": the least recently referenced frame
// (A30: its last access on this cluster, or its loading), ties to the lower frame.
std::optional<int> strategy0(std::span<const FrameView> frames) {
  return first_evictable(frames, [](const FrameView& a, const FrameView& b) {
    return std::tie(a.last_reference, a.frame) < std::tie(b.last_reference, b.frame);
  });
}

// Thesis 4.4, Strategy1: "Uses page class. Processes are scanned in reverse priority order." A25: class-major
// (class 1 of every process before class 2 of any), within a class the lowest-priority process first (the
// largest rank), within a process LRU, ties to the lower frame.
std::optional<int> strategy1(std::span<const FrameView> frames) {
  return first_evictable(frames, [](const FrameView& a, const FrameView& b) {
    return std::make_tuple(a.page_class, -a.priority_rank, a.last_reference, a.frame) <
           std::make_tuple(b.page_class, -b.priority_rank, b.last_reference, b.frame);
  });
}

const NumaReplacementEntry kReplacements[] = {
    {"strategy0", "LRU over the cluster's evictable frames, whatever their class (thesis 4.4, A30)",
     strategy0},
    {"strategy1",
     "the six page classes in order, lowest-priority process first, then LRU (thesis 4.4, A24, A25)",
     strategy1},
};

}  // namespace

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
