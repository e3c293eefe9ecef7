#include "sched/numa/replacement.hpp"

#include <tuple>

#include "sched/numa/replacement_registry.hpp"

namespace cosched::sched {

Replacement::Replacement(const config::PolicyChoice& choice)
    : Replacement(numa_replacements().at(choice.name), choice.params) {
  if (!params_) throw std::logic_error("replacement strategy '" + choice.name + "': parameters not read");
}

std::optional<int> Replacement::victim(std::span<const FrameView> frames) const {
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

}  // namespace cosched::sched
