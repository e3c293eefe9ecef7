#include "metrics/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace cosched::metrics {
namespace {

// Where the intervals of one lane on one place go: a Paje container, a Chrome thread.
struct Track {
  int place = -1;  // -1: no place
  int lane = 0;
  bool operator<(const Track& other) const {
    return std::tie(place, lane) < std::tie(other.place, other.lane);
  }
};

// The tracks that have intervals, in (place, lane) order, no place last.
std::vector<Track> tracks_of(const std::vector<TimelineLane>& lanes) {
  std::set<Track> tracks;
  for (std::size_t lane = 0; lane < lanes.size(); ++lane)
    for (const auto& interval : lanes[lane].intervals)
      tracks.insert({interval.place, static_cast<int>(lane)});
  std::vector<Track> ordered(tracks.begin(), tracks.end());
  std::stable_partition(ordered.begin(), ordered.end(), [](const Track& t) { return t.place >= 0; });
  return ordered;
}

std::string place_name(const TraceLayout& layout, int place) {
  return place >= 0 ? fmt::format("{} {}", layout.place_kind, place)
                    : fmt::format("no {}", layout.place_kind);
}

// A lane's name in both traces: job/copy/rank, the key of its rows in timeline.csv.
std::string lane_name(const TimelineLane& lane) {
  return fmt::format("{}/{}/{}", lane.job, lane.copy, lane.rank);
}

// Paje strings are quoted, with no escape for a quote inside: a name keeps its other characters.
std::string paje_string(std::string text) {
  for (char& c : text)
    if (c == '"')
      c = '\'';
    else if (c == '\n' || c == '\r')
      c = ' ';
  return '"' + text + '"';
}

// A time in the timeline's unit as decimal seconds: exact for nanoseconds, else the shortest double.
std::string seconds(std::int64_t time, const TraceLayout& layout) {
  if (layout.units_per_second == 1e9) return format_time(time, TimelineTime::NanosAsSeconds);
  return fmt::format("{}", static_cast<double>(time) / layout.units_per_second);
}

// A time or duration in microseconds: exact for nanoseconds (times are never negative), else the shortest
// double.
std::string microseconds(std::int64_t time, const TraceLayout& layout) {
  if (layout.units_per_second == 1e9) {
    std::string text = fmt::format("{}.{:03}", time / 1000, time % 1000);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
  }
  return fmt::format("{}", static_cast<double>(time) * 1e6 / layout.units_per_second);
}

// A colour per state, distinct for the few states a model has (Paje colours are "r g b" in [0, 1]).
std::string state_colour(std::size_t state) {
  static const char* const palette[] = {"0.20 0.55 0.25", "0.95 0.60 0.10", "0.85 0.20 0.20",
                                        "0.55 0.35 0.75", "0.60 0.60 0.60", "0.25 0.45 0.85",
                                        "0.55 0.30 0.15", "0.90 0.90 0.90"};
  return palette[state % std::size(palette)];
}

std::int64_t end_of(const std::vector<TimelineLane>& lanes, const TraceMessages& messages) {
  std::int64_t end = 0;
  for (const auto& lane : lanes)
    if (!lane.intervals.empty()) end = std::max(end, lane.intervals.back().end);
  for (const auto& m : messages.messages) end = std::max(end, m.arrived);
  return end;
}

// The places messages leave or reach (they may have no interval in a window).
std::set<int> message_places(const TraceMessages& messages) {
  std::set<int> places;
  for (const auto& m : messages.messages) {
    places.insert(m.from);
    places.insert(m.to);
  }
  return places;
}

}  // namespace

std::vector<TimelineLane> clip_to_window(const std::vector<TimelineLane>& lanes, std::int64_t start,
                                         std::int64_t end) {
  std::vector<TimelineLane> out;
  out.reserve(lanes.size());
  for (const auto& lane : lanes) {
    TimelineLane cut{lane.job, lane.copy, lane.rank, {}};
    for (const auto& interval : lane.intervals) {
      if (interval.end <= start || interval.start >= end) continue;
      auto kept = interval;
      kept.start = std::max(kept.start, start);
      kept.end = std::min(kept.end, end);
      cut.intervals.push_back(kept);
    }
    out.push_back(std::move(cut));
  }
  return out;
}

std::string paje_trace(const std::vector<TimelineLane>& lanes, const std::vector<std::string>& state_names,
                       const TraceLayout& layout, const TraceMessages& messages) {
  // The event definitions SimGrid's tracing writes (its "basic" header), with their field names and types.
  std::string out = fmt::format(
      "# cosched trace: one state per interval of timeline.csv; times in seconds ({} {} per second)\n",
      layout.units_per_second, layout.unit_name);
  out +=
      "%EventDef PajeDefineContainerType 0\n%       Alias string\n%       Type string\n%       Name string\n"
      "%EndEventDef\n"
      "%EventDef PajeDefineStateType 1\n%       Alias string\n%       Type string\n%       Name string\n"
      "%EndEventDef\n"
      "%EventDef PajeDefineEntityValue 2\n%       Alias string\n%       Type string\n%       Name string\n"
      "%       Color color\n%EndEventDef\n"
      "%EventDef PajeCreateContainer 3\n%       Time date\n%       Alias string\n%       Type string\n"
      "%       Container string\n%       Name string\n%EndEventDef\n"
      "%EventDef PajeDestroyContainer 4\n%       Time date\n%       Type string\n%       Name string\n"
      "%EndEventDef\n"
      "%EventDef PajePushState 5\n%       Time date\n%       Type string\n%       Container string\n"
      "%       Value string\n%EndEventDef\n"
      "%EventDef PajePopState 6\n%       Time date\n%       Type string\n%       Container string\n"
      "%EndEventDef\n"
      "%EventDef PajeSetState 10\n%       Time date\n%       Type string\n%       Container string\n"
      "%       Value string\n%EndEventDef\n";
  const bool links = !messages.kinds.empty();
  if (links)
    out +=
        "%EventDef PajeDefineLinkType 7\n%       Alias string\n%       Type string\n"
        "%       StartContainerType string\n%       EndContainerType string\n%       Name string\n"
        "%EndEventDef\n"
        "%EventDef PajeStartLink 8\n%       Time date\n%       Type string\n%       Container string\n"
        "%       Value string\n%       StartContainer string\n%       Key string\n%EndEventDef\n"
        "%EventDef PajeEndLink 9\n%       Time date\n%       Type string\n%       Container string\n"
        "%       Value string\n%       EndContainer string\n%       Key string\n%EndEventDef\n";
  // The type hierarchy: the run, its places, the processes or threads on a place, and their state.
  out += "0 MACHINE 0 \"Machine\"\n";
  out += fmt::format("0 PLACE MACHINE {}\n", paje_string(layout.place_kind));
  out += "0 LANE PLACE \"Thread\"\n";
  out += "1 STATE LANE \"State\"\n";
  for (std::size_t s = 0; s < state_names.size(); ++s)
    out += fmt::format("2 S{} STATE {} \"{}\"\n", s, paje_string(state_names[s]), state_colour(s));
  // Messages: links between place containers, in the machine; a value per kind.
  if (links) {
    out += "7 LINK MACHINE PLACE PLACE \"Message\"\n";
    for (std::size_t k = 0; k < messages.kinds.size(); ++k)
      out += fmt::format("2 K{} LINK {} \"{}\"\n", k, paje_string(messages.kinds[k]), state_colour(k));
  }

  const auto tracks = tracks_of(lanes);
  const std::string zero = seconds(0, layout);
  out += fmt::format("3 {} M MACHINE 0 \"run\"\n", zero);
  const auto place_alias = [](int place) {
    return place >= 0 ? fmt::format("P{}", place) : std::string("PN");
  };
  const auto track_alias = [&](const Track& t) { return fmt::format("{}L{}", place_alias(t.place), t.lane); };
  std::set<int> places;
  for (const auto& track : tracks) {
    if (places.insert(track.place).second)
      out += fmt::format("3 {} {} PLACE M {}\n", zero, place_alias(track.place),
                         paje_string(place_name(layout, track.place)));
    // Named with its place too: a thread that moves has a container on each place it ran on, and pj_dump
    // names a state's container by its name alone.
    out += fmt::format("3 {} {} LANE {} {}\n", zero, track_alias(track), place_alias(track.place),
                       paje_string(lane_name(lanes[track.lane]) + " on " + place_name(layout, track.place)));
  }
  for (int place : message_places(messages))
    if (places.insert(place).second)
      out += fmt::format("3 {} {} PLACE M {}\n", zero, place_alias(place),
                         paje_string(place_name(layout, place)));

  // The compact form: a track's run of back-to-back intervals is one push of its first state, a set of each
  // next one's, and a pop at the run's end (one line per state change, not a push and a pop per interval).
  // Pajeng needs the events in time order; at one instant pops come first, so that a run ending there never
  // pops the next one's state. Links start and end after the states of their instant (their order among
  // states does not matter).
  enum Kind { kPop, kPush, kStartLink, kEndLink };
  struct Event {
    std::int64_t time;
    Kind kind;
    int track;  // a link's message
    int state;
    bool continues = false;  // a kPush that continues its track's run: a set of the state
  };
  std::map<Track, int> track_index;
  for (std::size_t i = 0; i < tracks.size(); ++i) track_index[tracks[i]] = static_cast<int>(i);
  std::vector<Event> events;
  // Back to back: the next interval of the lane starts on the same place as this one ends.
  const auto back_to_back = [](const TimelineInterval& a, const TimelineInterval& b) {
    return a.place == b.place && a.end == b.start;
  };
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    const auto& intervals = lanes[lane].intervals;
    for (std::size_t i = 0; i < intervals.size(); ++i) {
      const auto& interval = intervals[i];
      const int track = track_index.at({interval.place, static_cast<int>(lane)});
      const bool continues = i > 0 && back_to_back(intervals[i - 1], interval);
      events.push_back({interval.start, kPush, track, interval.state, continues});
      if (i + 1 == intervals.size() || !back_to_back(interval, intervals[i + 1]))
        events.push_back({interval.end, kPop, track, interval.state});
    }
  }
  for (std::size_t i = 0; i < messages.messages.size(); ++i) {
    const auto& m = messages.messages[i];
    events.push_back({m.sent, kStartLink, static_cast<int>(i), m.kind});
    events.push_back({m.arrived, kEndLink, static_cast<int>(i), m.kind});
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return std::tie(a.time, a.kind, a.track) < std::tie(b.time, b.kind, b.track);
  });
  for (const auto& event : events) {
    const auto time = seconds(event.time, layout);
    if (event.kind == kStartLink) {
      out += fmt::format("8 {} LINK M K{} {} m{}\n", time, event.state,
                         place_alias(messages.messages[event.track].from), event.track);
      continue;
    }
    if (event.kind == kEndLink) {
      out += fmt::format("9 {} LINK M K{} {} m{}\n", time, event.state,
                         place_alias(messages.messages[event.track].to), event.track);
      continue;
    }
    const auto alias = track_alias(tracks[event.track]);
    if (event.kind == kPush) {
      out += fmt::format("{} {} STATE {} S{}\n", event.continues ? 10 : 5, time, alias, event.state);
    } else {
      out += fmt::format("6 {} STATE {}\n", time, alias);
    }
  }

  const auto end = seconds(end_of(lanes, messages), layout);
  for (const auto& track : tracks) out += fmt::format("4 {} LANE {}\n", end, track_alias(track));
  for (int place : places) out += fmt::format("4 {} PLACE {}\n", end, place_alias(place));
  out += fmt::format("4 {} MACHINE M\n", end);
  return out;
}

std::string chrome_trace(const std::vector<TimelineLane>& lanes, const std::vector<std::string>& state_names,
                         const TraceLayout& layout, const TraceMessages& messages) {
  const auto tracks = tracks_of(lanes);
  const auto with_messages = message_places(messages);
  int unplaced = 0;  // the process of no place: after every place
  for (const auto& track : tracks) unplaced = std::max(unplaced, track.place + 1);
  for (int place : with_messages) unplaced = std::max(unplaced, place + 1);
  const auto pid = [unplaced](int place) { return place >= 0 ? place : unplaced; };

  std::string out = fmt::format(
      "{{\"displayTimeUnit\": \"ns\", \"otherData\": {{\"generator\": \"cosched\", \"timeline_unit\": {}, "
      "\"timeline_units_per_second\": {}}},\n\"traceEvents\": [\n",
      nlohmann::json(layout.unit_name).dump(), layout.units_per_second);
  bool first = true;
  const auto add = [&out, &first](const std::string& event) {
    out += first ? "" : ",\n";
    out += event;
    first = false;
  };
  std::set<int> places;
  const auto name_place = [&](int place) {
    if (!places.insert(place).second) return;
    add(fmt::format(R"({{"name": "process_name", "ph": "M", "pid": {}, "args": {{"name": {}}}}})", pid(place),
                    nlohmann::json(place_name(layout, place)).dump()));
    // Places in their order, no place last.
    add(fmt::format(R"({{"name": "process_sort_index", "ph": "M", "pid": {}, "args": {{"sort_index": {}}}}})",
                    pid(place), pid(place)));
  };
  for (const auto& track : tracks) {
    name_place(track.place);
    add(fmt::format(R"({{"name": "thread_name", "ph": "M", "pid": {}, "tid": {}, "args": {{"name": {}}}}})",
                    pid(track.place), track.lane, nlohmann::json(lane_name(lanes[track.lane])).dump()));
  }
  // A place's messages are on a thread of their own, past every lane's: a message's ends are instants, which
  // a lane's complete events need not enclose.
  const auto messages_tid = lanes.size();
  for (int place : with_messages) {
    name_place(place);
    add(fmt::format(
        R"({{"name": "thread_name", "ph": "M", "pid": {}, "tid": {}, "args": {{"name": "messages"}}}})",
        pid(place), messages_tid));
  }
  std::vector<std::string> names;
  for (const auto& name : state_names) names.push_back(nlohmann::json(name).dump());
  for (std::size_t lane = 0; lane < lanes.size(); ++lane)
    for (const auto& interval : lanes[lane].intervals) {
      const std::string duration = microseconds(interval.end - interval.start, layout);
      // Compact (the bulk of the file): no spaces, no category (every complete event is a state).
      add(fmt::format(R"({{"name":{},"ph":"X","ts":{},"dur":{},"pid":{},"tid":{}}})",
                      names.at(interval.state), microseconds(interval.start, layout), duration,
                      pid(interval.place), lane));
    }
  // Each message: an instant naming it and a flow end at the sender's send and at the receiver's arrival,
  // the flow's ends bound to those instants (bp "e": the slice at that time), its number as the flow's id.
  std::vector<std::string> kinds;
  for (const auto& kind : messages.kinds) kinds.push_back(nlohmann::json(kind).dump());
  for (std::size_t i = 0; i < messages.messages.size(); ++i) {
    const auto& m = messages.messages[i];
    const auto& kind = kinds.at(m.kind);
    const auto sent = microseconds(m.sent, layout), arrived = microseconds(m.arrived, layout);
    add(fmt::format(
        R"({{"name": {}, "cat": "message", "ph": "i", "s": "t", "ts": {}, "pid": {}, "tid": {}, "args": {{"message": {}, "to": {}}}}})",
        kind, sent, pid(m.from), messages_tid, i, nlohmann::json(place_name(layout, m.to)).dump()));
    add(fmt::format(
        R"({{"name": {}, "cat": "message", "ph": "s", "id": {}, "ts": {}, "pid": {}, "tid": {}}})", kind, i,
        sent, pid(m.from), messages_tid));
    add(fmt::format(
        R"({{"name": {}, "cat": "message", "ph": "i", "s": "t", "ts": {}, "pid": {}, "tid": {}, "args": {{"message": {}, "from": {}}}}})",
        kind, arrived, pid(m.to), messages_tid, i, nlohmann::json(place_name(layout, m.from)).dump()));
    add(fmt::format(
        R"({{"name": {}, "cat": "message", "ph": "f", "bp": "e", "id": {}, "ts": {}, "pid": {}, "tid": {}}})",
        kind, i, arrived, pid(m.to), messages_tid));
  }
  out += "\n]}\n";
  return out;
}

std::map<std::string, std::string> trace_files(const config::OutputConfig& output,
                                               const std::vector<TimelineLane>& lanes,
                                               const std::vector<std::string>& state_names,
                                               const TraceLayout& layout, const TraceMessages& messages) {
  std::map<std::string, std::string> files;
  if (!output.traces()) return files;
  const auto window = output.trace_window;
  const auto cut = window ? clip_to_window(lanes, window->first, window->second) : lanes;
  if (output.trace_paje) files[kPajeFile] = paje_trace(cut, state_names, layout, messages);
  if (output.trace_chrome) files[kChromeFile] = chrome_trace(cut, state_names, layout, messages);
  return files;
}

}  // namespace cosched::metrics
