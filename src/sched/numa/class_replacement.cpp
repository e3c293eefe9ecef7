#include "sched/numa/class_replacement.hpp"

namespace cosched::sched {
namespace {

// Thesis 4.4, Strategy1: "Uses page class. Processes are scanned in reverse priority order." A25: class-major
// (class 1 of every process before class 2 of any), within a class the lowest-priority process first (the
// largest rank), within a process LRU, ties to the lower frame.
std::int64_t strategy1(const config::PolicyParams&, const FrameView& frame) {
  constexpr std::int64_t kRanks = std::int64_t{1} << 32;
  return static_cast<std::int64_t>(frame.page_class) * kRanks + (kRanks - 1 - frame.priority_rank);
}

}  // namespace

const NumaReplacementEntry kStrategy1Entry{
    {"strategy1",
     "the six page classes in order, lowest-priority process first, then LRU (thesis 4.4, A24, A25)",
     {},
     config::default_params<NumaReplacementParams>,
     config::no_keys_json},
    strategy1};

}  // namespace cosched::sched
