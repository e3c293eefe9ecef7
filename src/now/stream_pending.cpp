// TEMPORARY (branch now-stream): minimal definitions of what the job-sched and swf branches implement
// (sched/job_scheduler_registry.hpp, now/stream_jobs.hpp, workload/swf.hpp), so that the stream's driving
// can be built and tested before they land. Deleted at merge; nothing else includes or names this file.
// Semantics follow the headers: fcfs starts the queue's head when enough workstations are free (lowest
// indices first); gang places a job first-fit into the lowest row whose workstations are free; time-share
// places each process on the least-loaded workstation (lowest index on ties) below `mpl` processes.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "config/input_error.hpp"
#include "now/stream_jobs.hpp"
#include "sched/job_scheduler_registry.hpp"
#include "workload/swf.hpp"

namespace cosched {

namespace sched {
namespace {

// Workstations hold up to `capacity` processes each; a job takes `processes` distinct workstations.
class SlotScheduler : public JobScheduler {
 public:
  SlotScheduler(int workstations, int capacity, bool rows, bool in_order)
      : rows_(rows),
        in_order_(in_order),
        capacity_(capacity),
        load_(rows ? capacity : 1, std::vector<int>(workstations, 0)) {}
  void submit(const StreamJob& job, SimTime) override { queue_.push_back(job); }
  void finished(int job, SimTime) override {
    const auto& placed = placed_.at(job);
    for (int w : placed.second) --load_[placed.first][w];
    placed_.erase(job);
  }
  std::vector<JobStart> decide(SimTime) override {
    std::vector<JobStart> out;
    for (auto it = queue_.begin(); it != queue_.end();) {
      auto start = place(*it);
      if (!start) {
        if (in_order_) break;
        ++it;
        continue;
      }
      out.push_back(*start);
      it = queue_.erase(it);
    }
    return out;
  }

 private:
  std::optional<JobStart> place(const StreamJob& job) {
    for (std::size_t row = 0; row < load_.size(); ++row) {
      auto& load = load_[row];
      const int limit = rows_ ? 1 : capacity_;
      std::vector<int> order(load.size());
      for (std::size_t w = 0; w < order.size(); ++w) order[w] = static_cast<int>(w);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return load[a] < load[b]; });
      std::vector<int> chosen;
      for (int w : order)
        if (load[w] < limit && static_cast<int>(chosen.size()) < job.processes) chosen.push_back(w);
      if (static_cast<int>(chosen.size()) < job.processes) continue;
      for (int w : chosen) ++load[w];
      placed_[job.id] = {row, chosen};
      return JobStart{job.id, chosen, rows_ ? static_cast<int>(row) : -1};
    }
    return std::nullopt;
  }

  bool rows_, in_order_;
  int capacity_;
  std::vector<std::vector<int>> load_;  // by row (one unless gang), by workstation
  std::deque<StreamJob> queue_;
  std::map<int, std::pair<std::size_t, std::vector<int>>> placed_;
};

const JobSchedulerEntry kEntries[] = {
    {"fcfs", "first come first served on dedicated workstations", 1, 1, true, false,
     [](const config::JobSchedulerConfig&, int w) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<SlotScheduler>(w, 1, false, true);
     }},
    {"gang", "Ousterhout matrix of mpl rows", 1, 64, false, true,
     [](const config::JobSchedulerConfig& c, int w) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<SlotScheduler>(w, c.mpl, true, false);
     }},
    {"time-share", "up to mpl processes per workstation", 1, 64, false, false,
     [](const config::JobSchedulerConfig& c, int w) -> std::unique_ptr<JobScheduler> {
       return std::make_unique<SlotScheduler>(w, c.mpl, false, false);
     }},
};

}  // namespace

std::span<const JobSchedulerEntry> job_schedulers() {
  return kEntries;
}
const JobSchedulerEntry* find_job_scheduler(std::string_view name) {
  for (const auto& e : kEntries)
    if (e.name == name) return &e;
  return nullptr;
}
std::string job_scheduler_names() {
  return "fcfs, gang and time-share";
}

}  // namespace sched

namespace workload {

SwfTrace parse_swf(const std::string& text, const std::string& name) {
  SwfTrace trace;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto semicolon = line.find(';');
    if (semicolon != std::string::npos) {
      const std::string comment = line.substr(semicolon + 1);
      if (const auto colon = comment.find(':'); colon != std::string::npos) {
        auto trim = [](std::string s) {
          s.erase(0, s.find_first_not_of(" \t"));
          s.erase(s.find_last_not_of(" \t\r") + 1);
          return s;
        };
        trace.header[trim(comment.substr(0, colon))] = trim(comment.substr(colon + 1));
      }
      line.resize(semicolon);
    }
    std::istringstream fields(line);
    std::vector<double> values;
    std::string word;
    while (fields >> word) {
      char* end = nullptr;
      const double v = std::strtod(word.c_str(), &end);
      if (end == word.c_str() || *end != '\0')
        throw SwfError(fmt::format("{}:{}: field {}: expected a number, got \"{}\"", name, number,
                                   values.size() + 1, word));
      values.push_back(v);
    }
    if (values.empty()) continue;
    if (values.size() != 18)
      throw SwfError(fmt::format("{}:{}: expected 18 fields, got {}", name, number, values.size()));
    SwfRecord r;
    r.number = static_cast<std::int64_t>(values[0]);
    r.submit = values[1];
    r.wait = values[2];
    r.run_time = values[3];
    r.allocated_processors = static_cast<std::int64_t>(values[4]);
    r.requested_processors = static_cast<std::int64_t>(values[7]);
    r.requested_time = values[8];
    r.line = number;
    if (r.allocated_processors <= 0 && r.requested_processors <= 0) {
      trace.skipped.push_back({number, "no processors"});
    } else if (r.run_time <= 0) {
      trace.skipped.push_back({number, "no run time"});
    } else {
      trace.jobs.push_back(r);
    }
  }
  if (auto it = trace.header.find("MaxProcs"); it != trace.header.end())
    trace.max_procs = std::stoll(it->second);
  return trace;
}

SwfTrace read_swf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the SWF file", path));
  std::stringstream text;
  text << in.rdbuf();
  return parse_swf(text.str(), path);
}

}  // namespace workload

namespace now {

StreamBuild build_stream(const workload::SwfTrace& trace, const config::NowConfig& now, int workstations,
                         std::uint64_t) {
  const auto& stream = *now.stream;
  StreamBuild out;
  out.arrival_scale = stream.arrival_scale;
  std::int64_t index = 0;
  double first_submit = -1;
  for (const auto& r : trace.jobs) {
    if (index++ < stream.first) continue;
    if (stream.jobs && static_cast<std::int64_t>(out.jobs.size() + out.skipped_too_large) >= *stream.jobs)
      break;
    const int processes =
        static_cast<int>(r.allocated_processors > 0 ? r.allocated_processors : r.requested_processors);
    if (processes > workstations) {
      ++out.skipped_too_large;
      continue;
    }
    if (first_submit < 0) first_submit = r.submit;
    StreamJobSpec spec;
    spec.job.id = static_cast<int>(out.jobs.size());
    spec.job.submit = std::llround((r.submit - first_submit) * stream.arrival_scale * 1e9);
    spec.job.processes = processes;
    spec.run_time = std::llround(r.run_time * stream.time_scale * 1e9);
    spec.job.estimate =
        r.requested_time > 0 ? std::llround(r.requested_time * stream.time_scale * 1e9) : spec.run_time;
    const config::NowJobClass* chosen = &stream.classes.front();
    for (const auto& c : stream.classes)
      if ((!c.min_processes || processes >= *c.min_processes) &&
          (!c.max_processes || processes <= *c.max_processes)) {
        chosen = &c;
        break;
      }
    spec.job_class = chosen->name;
    spec.profile = chosen->profile;
    spec.profile.name = fmt::format("{}-{}", chosen->name, r.number);
    spec.profile.processes = processes;
    // Phases of the class's sync_interval in dedicated time, as many as fit the run time.
    spec.profile.interval_basis = config::IntervalBasis::Dedicated;
    spec.profile.barriers = static_cast<int>(
        std::max<std::int64_t>(1, std::llround(static_cast<double>(spec.run_time) /
                                               static_cast<double>(chosen->profile.sync_interval))));
    spec.profile.sync_interval = spec.run_time / spec.profile.barriers;
    spec.swf_number = r.number;
    spec.swf_line = r.line;
    out.jobs.push_back(std::move(spec));
  }
  if (out.jobs.empty()) throw config::InputError("workload.stream: no usable job in the SWF file");
  return out;
}

}  // namespace now
}  // namespace cosched
