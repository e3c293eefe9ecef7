#pragma once
// Keep-alive messages of a root barrier (Brim & Miller 3.4; the variants of their section 4): the root's
// decisions, as a pure state machine the root's Node drives. docs/models/now.md section 4.6 states the
// rules, the sentences they rest on and the choices the paper leaves open.
//
// The barrier is open at the root from the first arrival the root learns of (its own, or the first
// registration it handles) until the root passes it. The gate opens at the first instant every threshold
// given holds: `start` (ceil(F x P) processes arrived, the root included once it has arrived, as the
// root knows from the registrations it has handled) and `after` (the barrier open that long); with
// neither, at the opening. Rounds, each one keep-alive to every target in rank order:
// - arrival rounds (KeepAliveSpec::on_arrivals): each registration handled while the gate is open, the
//   one that opens it included, unless all P processes have then arrived (the completion notices follow);
// - periodic rounds (`period`): at G + period, G + 2 period, ... (G: when the gate opened) while the
//   barrier is open.
// Targets: every rank but the root (`all`), those whose registration the root has not handled
// (`not-arrived`), or those whose registration it has handled (`arrived`); less those that still have a
// keep-alive queued at the root (a second one back to back would do nothing more).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "barrier/keepalive_spec.hpp"

namespace cosched::barrier {

using Nanos = std::int64_t;

// The root's state for the barrier it has open.
struct KeepAliveRoot {
  int barrier = -1;  // the open barrier; -1: none
  Nanos opened = 0;
  bool root_arrived = false;
  std::vector<char> registered;  // by rank: its registration handled
  int registrations = 0;
  bool gate_open = false;
  Nanos gate_time = 0;
  Nanos due = -1;            // the next timer (gate check or periodic round); -1: none
  std::vector<char> queued;  // by rank: a keep-alive for it queued at the root, not yet sent
};

class KeepAlive {
 public:
  KeepAlive(const KeepAliveSpec& spec, int processes);
  const KeepAliveSpec& spec() const { return spec_; }
  int processes() const { return processes_; }
  // The processes that must have arrived for `start` (ceil(F x P)); 0 without `start`.
  int threshold() const { return threshold_; }
  // Events at the root (rank 0); each returns the ranks of the round to send now (empty: none).
  std::vector<int> root_arrives(KeepAliveRoot& s, int barrier, Nanos now) const;
  std::vector<int> registration(KeepAliveRoot& s, int barrier, int from, Nanos now) const;
  std::vector<int> timer(KeepAliveRoot& s, Nanos now) const;
  // The root passes its open barrier: it closes.
  void root_passes(KeepAliveRoot& s) const;

 private:
  void open(KeepAliveRoot& s, int barrier, Nanos now) const;
  int arrived(const KeepAliveRoot& s) const { return s.registrations + (s.root_arrived ? 1 : 0); }
  // Opens the gate if every threshold holds at `now`; returns true if it opened now.
  bool try_gate(KeepAliveRoot& s, Nanos now) const;
  std::vector<int> targets(const KeepAliveRoot& s) const;

  KeepAliveSpec spec_;
  int processes_;
  int threshold_;
};

// Its resolved form in summary.json (only written when enabled()).
nlohmann::ordered_json keepalive_json(const KeepAliveSpec& spec);

}  // namespace cosched::barrier
