#pragma once
// Per-process state timelines (scenario key output.timeline, docs/scenario-format.md "timeline.csv"):
// a model tells the recorder each time a process enters a state, the recorder keeps the intervals, and
// timeline_csv writes them. Pure C++; the models own their state names (docs/models/smp.md, now.md).
//
// The intervals of a process are canonical: no interval of zero length (a state entered and left in the
// same instant leaves no trace) and no two adjacent intervals with the same state and place (they merge),
// so that the file depends only on which state each process was in at each time, not on the order in
// which a model's events of one instant were processed.

#include <cstdint>
#include <string>
#include <vector>

namespace cosched::metrics {

inline const char* const kTimelineFile = "timeline.csv";

struct TimelineInterval {
  std::int64_t start = 0;
  std::int64_t end = 0;  // exclusive
  int state = 0;         // an index into the model's state names
  int place = -1;        // the CPU or workstation; -1 for none
  bool operator==(const TimelineInterval&) const = default;
};

class TimelineRecorder {
 public:
  explicit TimelineRecorder(int processes = 0) : intervals_(processes) {}

  int processes() const { return static_cast<int>(intervals_.size()); }
  // One more process (an open workload's job starting during the run); returns its index.
  int add_process() {
    intervals_.emplace_back();
    return processes() - 1;
  }
  // `process` is in `state` at `place` from `time` on (time never goes back for one process).
  void enter(int process, std::int64_t time, int state, int place);
  // The intervals of `process` from its first state up to `end`: the open one ends at `end`, those that
  // start at or after `end` are left out.
  std::vector<TimelineInterval> closed(int process, std::int64_t end) const;

 private:
  // Per process; the last interval is open (its end is not yet known).
  std::vector<std::vector<TimelineInterval>> intervals_;
};

// The rows of one process.
struct TimelineLane {
  std::string job;
  int copy = 0;
  int rank = 0;
  std::vector<TimelineInterval> intervals;
};

// How times are printed: integers as they are (SMP cycles), or a nanosecond count as exact decimal
// seconds, at most nine fractional digits and no trailing zeros (NOW: 1500000 -> 0.0015).
enum class TimelineTime { Integer, NanosAsSeconds };

std::string format_time(std::int64_t time, TimelineTime format);

// timeline.csv: the header `job,copy,rank,state,start,end,place`, then every lane's intervals in the
// order given; place is empty for -1.
std::string timeline_csv(const std::vector<TimelineLane>& lanes, const std::vector<std::string>& state_names,
                         TimelineTime format);

}  // namespace cosched::metrics
