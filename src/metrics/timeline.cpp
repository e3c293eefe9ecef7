#include "metrics/timeline.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "metrics/result_files.hpp"

namespace cosched::metrics {

void TimelineRecorder::enter(int process, std::int64_t time, int state, int place) {
  auto& intervals = intervals_.at(process);
  if (!intervals.empty()) {
    auto& open = intervals.back();
    if (open.state == state && open.place == place) return;
    if (time < open.start) throw std::logic_error("timeline: a process's time went back");
    if (time == open.start) {
      // The open state lasted no time: it leaves no trace, and the one before may go on.
      intervals.pop_back();
      if (!intervals.empty() && intervals.back().state == state && intervals.back().place == place) return;
    } else {
      open.end = time;
    }
  }
  intervals.push_back(TimelineInterval{time, time, state, place});
}

std::vector<TimelineInterval> TimelineRecorder::closed(int process, std::int64_t end) const {
  std::vector<TimelineInterval> out;
  for (const auto& interval : intervals_.at(process)) {
    if (interval.start >= end) break;
    out.push_back(interval);
  }
  if (!out.empty()) out.back().end = end;
  return out;
}

std::string format_time(std::int64_t time, TimelineTime format) {
  if (format == TimelineTime::Integer) return std::to_string(time);
  const bool negative = time < 0;
  const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(time) : time;
  std::string text = fmt::format("{}{}", negative ? "-" : "", magnitude / 1'000'000'000);
  std::uint64_t fraction = magnitude % 1'000'000'000;
  if (fraction == 0) return text;
  int digits = 9;
  while (fraction % 10 == 0) {
    fraction /= 10;
    --digits;
  }
  return text + fmt::format(".{:0{}}", fraction, digits);
}

std::string timeline_csv(const std::vector<TimelineLane>& lanes, const std::vector<std::string>& state_names,
                         TimelineTime format) {
  std::string csv = "job,copy,rank,state,start,end,place\n";
  for (const auto& lane : lanes) {
    const std::string prefix = fmt::format("{},{},{},", csv_cell(lane.job), lane.copy, lane.rank);
    for (const auto& interval : lane.intervals) {
      csv += prefix;
      csv += state_names.at(interval.state);
      csv += ',';
      csv += format_time(interval.start, format);
      csv += ',';
      csv += format_time(interval.end, format);
      csv += ',';
      if (interval.place >= 0) csv += std::to_string(interval.place);
      csv += '\n';
    }
  }
  return csv;
}

}  // namespace cosched::metrics
