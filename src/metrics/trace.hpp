#pragma once
// Traces for timeline viewers (scenario keys output.trace, output.trace_window; docs/scenario-format.md
// "Traces"): a Paje trace (trace.paje, for ViTE and pajeng) and a Chrome trace-event file (trace.json, for
// Perfetto and chrome://tracing), written from the very intervals that fill timeline.csv (the models'
// TimelineLanes), so that a trace never tells a different story from the CSV.
//
// Both files have the same layout: a container (Paje) or process (Chrome) per place (CPU, workstation or
// cluster), plus one for the intervals spent on no place (a ready or blocked SMP thread); inside each, a
// container or thread per process or thread that spent time there. Times are in seconds (Paje) and
// microseconds (Chrome) from the start of the run.
//
// Messages (output.trace_messages, off by default, for the models that have them): a Paje link per message
// from its sender's place container to its receiver's (PajeStartLink at the send, PajeEndLink at the arrival,
// the message's number as its key and its kind as its value), and in Chrome a flow per message (ph "s" at the
// send, ph "f" at the arrival, with its number as id) between the places' "messages" threads, each end on an
// instant event (ph "i") that names the message.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/scenario.hpp"
#include "metrics/message_trace.hpp"
#include "metrics/timeline.hpp"

namespace cosched::metrics {

inline const char* const kPajeFile = "trace.paje";
inline const char* const kChromeFile = "trace.json";

// How a model's timeline reads as a trace.
struct TraceLayout {
  std::string place_kind;         // "cpu", "workstation" or "cluster": names the place containers
  double units_per_second = 1.0;  // timeline time units (ns, cycles, clocks) per second
  std::string unit_name;          // the timeline's unit, for the traces' comments: "ns", "cycles", "clocks"
};

// The lanes cut to [start, end) (in the timeline's units): intervals outside are left out, those that cross
// a bound are cut at it. Lanes keep their order, even when left with no interval.
std::vector<TimelineLane> clip_to_window(const std::vector<TimelineLane>& lanes, std::int64_t start,
                                         std::int64_t end);

// The Paje trace of `lanes`: the header of event definitions (as SimGrid's tracing writes them), the type
// hierarchy, one entity value per state name, the containers, and one line per state change: a PushState at
// the start of each run of back-to-back intervals on a container, a SetState for each next interval of the
// run, and a PopState at its end.
std::string paje_trace(const std::vector<TimelineLane>& lanes, const std::vector<std::string>& state_names,
                       const TraceLayout& layout, const TraceMessages& messages = {});

// The Chrome trace-event JSON of `lanes`: metadata events naming every process and thread, and one
// complete event (ph "X", written without spaces or category) per interval.
std::string chrome_trace(const std::vector<TimelineLane>& lanes, const std::vector<std::string>& state_names,
                         const TraceLayout& layout, const TraceMessages& messages = {});

// The trace files `output` asks for (name -> content), from the lanes cut to its window and `messages` (the
// recorder keeps only those within the window); none when it asks for no trace.
std::map<std::string, std::string> trace_files(const config::OutputConfig& output,
                                               const std::vector<TimelineLane>& lanes,
                                               const std::vector<std::string>& state_names,
                                               const TraceLayout& layout, const TraceMessages& messages = {});

}  // namespace cosched::metrics
