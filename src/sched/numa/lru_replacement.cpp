#include "sched/numa/lru_replacement.hpp"

namespace cosched::sched {

// Thesis 4.4, Strategy0: "Simple LRU without page classification": the least recently referenced frame
// (A30: its last access on this cluster, or its loading), ties to the lower frame; nothing comes before LRU.
const NumaReplacementEntry kStrategy0Entry{
    {"strategy0",
     "LRU over the cluster's evictable frames, whatever their class (thesis 4.4, A30)",
     {},
     config::default_params<NumaReplacementParams>,
     config::no_keys_json},
    [](const config::PolicyParams&, const FrameView&) -> std::int64_t { return 0; }};

}  // namespace cosched::sched
