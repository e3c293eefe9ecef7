#include "now/stream.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "metrics/timeline.hpp"
#include "util/log.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_now_jobs);

namespace cosched::now {

Stream::Stream(StreamBuild build, std::unique_ptr<sched::JobScheduler> scheduler, StreamTiming timing,
               int workstations, int capacity, std::vector<JobLayout>* layouts,
               std::shared_ptr<sched::GangMatrix> matrix)
    : build_(std::move(build)),
      scheduler_(std::move(scheduler)),
      timing_(timing),
      workstations_(workstations),
      capacity_(capacity),
      layouts_(layouts),
      matrix_(std::move(matrix)),
      start_(build_.jobs.size(), -1),
      row_(build_.jobs.size(), -1),
      suspensions_(build_.jobs.size(), 0),
      load_(by_rows() ? static_cast<std::size_t>(capacity) : 1, std::vector<int>(workstations, 0)),
      pending_(workstations) {
  if (layouts_->size() != build_.jobs.size())
    throw std::logic_error("NOW stream: one job layout per job of the stream expected");
  // The jobs come in submit order (now/stream_jobs.hpp); the coordinator relies on it.
  for (std::size_t j = 1; j < build_.jobs.size(); ++j)
    if (build_.jobs[j].job.submit < build_.jobs[j - 1].job.submit)
      throw std::logic_error("NOW stream: jobs not in submit order");
}

Nanos Stream::next_decision() const {
  Nanos next = next_submit_ < build_.jobs.size() ? build_.jobs[next_submit_].job.submit : kNoTime;
  if (!notices_.empty()) next = std::min(next, notices_.begin()->first);
  if (const auto wakeup = scheduler_->next_wakeup(); wakeup && !done()) next = std::min(next, *wakeup);
  return next;
}

void Stream::job_finished(int job, Nanos time) {
  const Nanos known = time + timing_.notice;
  const Nanos before = next_decision();
  notices_.emplace(known, job);
  // The coordinator's new schedule reaches the workstations start_delay after it learns of the finish:
  // the row's slots are the job's until then (docs/models/now-streams.md section 5.4).
  if (by_rows()) matrix_->leave_row(job, known + timing_.start_delay);
  if (known < before && earlier_) earlier_(known);
}

std::vector<int> Stream::decide(Nanos now) {
  // sched::JobScheduler's order at one instant: finishes by job, submits by job, one decision.
  while (!notices_.empty() && notices_.begin()->first <= now) {
    const int job = notices_.begin()->second;
    if (notices_.begin()->first < now)
      throw std::logic_error(
          fmt::format("NOW stream: the finish of job {} reached the coordinator late", job));
    notices_.erase(notices_.begin());
    for (int w : (*layouts_)[job].workstation_of) --load_[by_rows() ? row_[job] : 0][w];
    scheduler_->finished(job, now);
    ++known_finished_;
    XBT_DEBUG("t=%ss job %s (%d): finished, known to the coordinator", seconds(now).c_str(),
              name(job).c_str(), job);
  }
  while (next_submit_ < build_.jobs.size() && build_.jobs[next_submit_].job.submit <= now) {
    const auto& submitted = build_.jobs[next_submit_].job;
    scheduler_->submit(submitted, now);
    XBT_DEBUG("t=%ss job %s (%d): submitted, %d processes, estimate %ss", seconds(now).c_str(),
              name(submitted.id).c_str(), submitted.id, submitted.processes,
              seconds(submitted.estimate).c_str());
    ++next_submit_;
  }
  std::vector<int> touched;
  const Nanos at = now + timing_.start_delay;
  for (const auto& start : scheduler_->decide(now)) {
    check_start(start);
    const int job = start.job;
    if (XBT_LOG_ISENABLED(cosched_now_jobs, xbt_log_priority_debug)) log_start(start, now, at);
    start_[job] = at;
    ++started_;
    row_[job] = start.row;
    (*layouts_)[job].workstation_of = start.workstations;
    if (by_rows()) matrix_->enter_row(job, start.row, at);
    if (matrix_ && matrix_->by_suspensions()) {
      matrix_->set_active(job, !start.suspended, at);
      if (start.suspended) ++suspensions_[job];
    }
    for (std::size_t rank = 0; rank < start.workstations.size(); ++rank) {
      const int w = start.workstations[rank];
      ++load_[by_rows() ? start.row : 0][w];
      queue_event(w, {at, job, static_cast<int>(rank)}, touched);
    }
  }
  carry_out_signals(now, at, touched);
  return touched;
}

void Stream::carry_out_signals(Nanos now, Nanos at, std::vector<int>& touched) {
  for (const auto& signal : scheduler_->take_signals()) {
    if (!matrix_ || !matrix_->by_suspensions() || start_[signal.job] < 0)
      throw std::logic_error(fmt::format(
          "NOW stream: the job scheduler suspended or resumed job {}, which it cannot", signal.job));
    const Nanos effective = at + signal.delay;
    matrix_->set_active(signal.job, signal.run, effective);
    if (!signal.run) ++suspensions_[signal.job];
    XBT_DEBUG("t=%ss job %s (%d): %s at t=%ss", seconds(now).c_str(), name(signal.job).c_str(), signal.job,
              signal.run ? "resumed" : "suspended", seconds(effective).c_str());
    for (int w : (*layouts_)[signal.job].workstation_of) {
      queue_event(w, {effective, signal.job, ProcessStart::kSignal}, touched);
    }
  }
}

void Stream::queue_event(int w, ProcessStart event, std::vector<int>& touched) {
  if (std::find(touched.begin(), touched.end(), w) == touched.end()) touched.push_back(w);
  auto& pending = pending_[w];
  auto after = std::upper_bound(pending.begin(), pending.end(), event.at,
                                [](Nanos at, const ProcessStart& queued) { return at < queued.at; });
  pending.insert(after, event);
}

std::string Stream::name(int job) const {
  return build_.jobs[job].profile.name;
}

std::string Stream::seconds(Nanos time) {
  return metrics::format_time(time, metrics::TimelineTime::NanosAsSeconds);
}

// The start as the coordinator decides it, with the waiting jobs submitted before it that it passes (EASY's
// backfilling; gang's first fit into a later row).
void Stream::log_start(const sched::JobStart& start, Nanos now, Nanos at) const {
  std::vector<int> passed;
  for (int earlier = 0; earlier < start.job; ++earlier)
    if (start_[earlier] < 0) passed.push_back(earlier);
  const std::string workstations = fmt::format("{}", fmt::join(start.workstations, " "));
  const std::string row = start.row >= 0 ? fmt::format(", row {}", start.row) : "";
  const std::string ahead =
      passed.empty() ? "" : fmt::format(", ahead of waiting job(s) {}", fmt::join(passed, " "));
  XBT_DEBUG("t=%ss job %s (%d): starts at t=%ss on workstations %s%s%s", seconds(now).c_str(),
            name(start.job).c_str(), start.job, seconds(at).c_str(), workstations.c_str(), row.c_str(),
            ahead.c_str());
}

// A policy's start that the workstations cannot carry out is a bug in the policy: refused loudly.
void Stream::check_start(const sched::JobStart& start) const {
  const auto fail = [&](const std::string& why) {
    throw std::logic_error(fmt::format("NOW stream: the job scheduler started job {} {}", start.job, why));
  };
  if (start.job < 0 || start.job >= static_cast<int>(build_.jobs.size())) fail("that does not exist");
  if (start_[start.job] >= 0) fail("twice");
  if (start.job >= static_cast<int>(next_submit_)) fail("before its submit");
  if (static_cast<int>(start.workstations.size()) != build_.jobs[start.job].job.processes)
    fail(fmt::format("on {} workstations for {} processes", start.workstations.size(),
                     build_.jobs[start.job].job.processes));
  if (by_rows() && (start.row < 0 || start.row >= capacity_)) fail(fmt::format("in row {}", start.row));
  if (start.suspended && !(matrix_ && matrix_->by_suspensions())) fail("suspended");
  const auto& load = load_[by_rows() ? start.row : 0];
  const int limit = by_rows() ? 1 : capacity_;
  std::vector<int> seen;
  for (int w : start.workstations) {
    if (w < 0 || w >= workstations_) fail(fmt::format("on workstation {}", w));
    if (std::find(seen.begin(), seen.end(), w) != seen.end())
      fail(fmt::format("with two processes on workstation {}", w));
    seen.push_back(w);
    if (load[w] >= limit) fail(fmt::format("on workstation {}, which is full", w));
  }
}

ProcessStart Stream::pop_start(int w) {
  ProcessStart out = pending_[w].front();
  pending_[w].pop_front();
  return out;
}

}  // namespace cosched::now
