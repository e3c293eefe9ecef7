#include "barrier/keepalive.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cosched::barrier {

KeepAlive::KeepAlive(const KeepAliveSpec& spec, int processes)
    : spec_(spec), processes_(processes), threshold_(spec.start ? spec.start->of(processes) : 0) {
  if (processes <= 0) throw std::invalid_argument("keep-alive: a job needs at least one process");
  if (spec.period && *spec.period <= 0)
    throw std::invalid_argument("keep-alive: the period must be positive");
}

void KeepAlive::open(KeepAliveRoot& s, int barrier, Nanos now) const {
  s.barrier = barrier;
  s.opened = now;
  s.root_arrived = false;
  s.registered.assign(processes_, 0);
  if (static_cast<int>(s.queued.size()) != processes_) s.queued.assign(processes_, 0);
  s.registrations = 0;
  s.gate_open = false;
  s.gate_time = 0;
  // With a period and an elapsed-time threshold the gate may open with no event at the root: a timer.
  s.due = spec_.period && spec_.after ? now + *spec_.after : -1;
}

bool KeepAlive::try_gate(KeepAliveRoot& s, Nanos now) const {
  if (s.gate_open) return false;
  if (spec_.start && arrived(s) < threshold_) return false;
  if (spec_.after && now - s.opened < *spec_.after) return false;
  s.gate_open = true;
  s.gate_time = now;
  s.due = spec_.period ? now + *spec_.period : -1;
  return true;
}

std::vector<int> KeepAlive::targets(const KeepAliveRoot& s) const {
  std::vector<int> out;
  for (int r = 1; r < processes_; ++r) {
    const bool arrived = s.registered[r] != 0;
    if (s.queued[r]) continue;
    if (spec_.targets == KeepAliveSpec::Targets::All ||
        (spec_.targets == KeepAliveSpec::Targets::NotArrived && !arrived) ||
        (spec_.targets == KeepAliveSpec::Targets::Arrived && arrived))
      out.push_back(r);
  }
  return out;
}

std::vector<int> KeepAlive::root_arrives(KeepAliveRoot& s, int barrier, Nanos now) const {
  if (s.barrier != barrier) open(s, barrier, now);
  s.root_arrived = true;
  try_gate(s, now);
  return {};  // the root's own arrival is no registration message: it sends no round
}

std::vector<int> KeepAlive::registration(KeepAliveRoot& s, int barrier, int from, Nanos now) const {
  if (s.barrier != barrier) open(s, barrier, now);
  if (from > 0 && from < processes_ && !s.registered[from]) {
    s.registered[from] = 1;
    ++s.registrations;
  }
  try_gate(s, now);
  if (!spec_.on_arrivals() || !s.gate_open || arrived(s) >= processes_) return {};
  return targets(s);
}

std::vector<int> KeepAlive::timer(KeepAliveRoot& s, Nanos now) const {
  s.due = -1;
  if (s.barrier < 0) return {};
  if (!s.gate_open) {
    try_gate(s, now);  // the first periodic round comes one period after the gate opens
    return {};
  }
  if (!spec_.period) return {};
  s.due = now + *spec_.period;
  if (arrived(s) >= processes_) return {};
  return targets(s);
}

void KeepAlive::root_passes(KeepAliveRoot& s) const {
  s.barrier = -1;
  s.gate_open = false;
  s.due = -1;
}

nlohmann::ordered_json keepalive_json(const KeepAliveSpec& spec) {
  auto seconds = [](const std::optional<std::int64_t>& ns) {
    return ns ? nlohmann::ordered_json(static_cast<double>(*ns) * 1e-9) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json out;
  out["start"] = spec.start ? spec.start->text() : std::string("none");
  out["period_s"] = seconds(spec.period);
  out["after_s"] = seconds(spec.after);
  out["targets"] = spec.targets == KeepAliveSpec::Targets::All          ? "all"
                   : spec.targets == KeepAliveSpec::Targets::NotArrived ? "not-arrived"
                                                                        : "arrived";
  return out;
}

}  // namespace cosched::barrier
