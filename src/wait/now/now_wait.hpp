#pragma once
// Waiting algorithms of the NOW model (Brim & Miller 3.1 and 3.3; Arpaci-Dusseau's conditional
// two-phase waiting). A wait for a read reply or a barrier is a sequence of spin phases, then blocking.
// The algorithm decides each phase's length; the workstation's node does the spinning and counts the
// messages that arrive during a phase. docs/models/now.md states the rules and their sources.

#include <cstdint>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "config/policy.hpp"
#include "config/scenario.hpp"

namespace cosched::wait {

using Nanos = std::int64_t;
inline constexpr Nanos kSpinForever = std::numeric_limits<Nanos>::max() / 4;

enum class WaitKind { Read, Barrier };

// Messages that arrived for a process, by kind.
struct MessageCounts {
  int read_requests = 0;
  int read_replies = 0;
  int barrier_arrivals = 0;
  int barrier_notices = 0;
  int barrier_replies = 0;  // the root's replies to arrivals (informed waiting)
  int wakeups = 0;          // prefetching wake-ups (wait.prefetch)
  int keep_alives = 0;      // the barrier root's keep-alives (B&M 3.4)
  int total() const {
    return read_requests + read_replies + barrier_arrivals + barrier_notices + barrier_replies + wakeups +
           keep_alives;
  }
};

// What a waiting process knows when its algorithm decides.
struct Observation {
  WaitKind kind = WaitKind::Read;
  Nanos phase_length = 0;                   // next_spin: the length of the spin phase that just ended
  MessageCounts messages;                   // next_spin: the messages that arrived during it
  std::optional<Nanos> since_last_message;  // next_spin: since the phase\'s last message, if any
  Nanos barrier_elapsed = 0;                // at a barrier: the time since this process arrived at it
  std::optional<int> arrived;               // what the root told it: processes arrived at the barrier so far
  // Informed waiting (B&M 3.3, docs/models/now.md section 5.2), at a barrier:
  Nanos told_elapsed = 0;     // with `arrived`: how long the barrier had been open when the root told it
  Nanos since_told = 0;       // with `arrived`: the time since it learnt it (0 at the root, which knows)
  Nanos phase_elapsed = 0;    // the time from the start of its phase (its last pass, or 0) to its arrival
  Nanos phase_dedicated = 0;  // its phase's length on a dedicated machine (sync_interval x its factor)
};

using Resume = config::NowWaitParams::Resume;

class NowWaitAlgorithm {
 public:
  virtual ~NowWaitAlgorithm() = default;
  // The time a message arriving during a spin phase extends the phase to at least (from its arrival);
  // 0: messages do not extend phases (the count rule judges them at the phase's end).
  virtual Nanos extension(WaitKind) const { return 0; }
  // SPIN_FOREVER: the wait never blocks, whatever interrupts it.
  virtual bool spins_forever(WaitKind) const { return false; }
  // What a spin interrupted by a preemption or the end of a quantum does when the process runs again.
  Resume resume() const { return resume_; }
  void set_resume(Resume resume) { resume_ = resume; }

  // Length of the first spin phase of a wait; 0 blocks at once.
  virtual Nanos first_spin(const Observation& seen) const = 0;
  // At the end of a spin phase: the next phase's length, or 0 to block.
  virtual Nanos next_spin(const Observation& seen) const = 0;
  // The first phase of a process that blocked during this wait, was woken and runs again.
  virtual Nanos after_wake(const Observation& seen) const { return first_spin(seen); }
  // The algorithm needs the root's replies to arrivals (`Observation::arrived`); the process then
  // decides afresh (first_spin, or after_wake if it blocked) when it has handled its reply.
  virtual bool needs_arrival_replies() const { return false; }

 private:
  Resume resume_ = Resume::Restart;
};

// What the defaults of the two-phase algorithms derive from.
struct WaitPlatform {
  Nanos latency = 0;
  Nanos overhead = 0;
  Nanos context_switch = 0;
  Nanos load_imbalance = 0;  // V: the largest difference between two processes' phase computation
  // The job's imbalance as the informed algorithms know it (B&M 3.3: "foreknowledge of the imbalance").
  Nanos sync_interval = 0;
  double imbalance = 1.0;  // v: phase factors uniform on [2/(1+v), 2v/(1+v)] (docs/models/now.md 4.1)
  int processes = 1;
};

// A waiting algorithm as its registry lists it (wait/now/now_wait_registry.hpp); each algorithm declares its
// own beside its code: what every policy declares (its parameters derive from config::NowWaitParams), and
// the family's trait and factory.
struct NowWaitEntry {
  config::PolicySpec spec;
  // The algorithm for these parameters, with the platform its defaults derive from (resume not yet set).
  std::unique_ptr<NowWaitAlgorithm> (*make)(const config::PolicyParams& params, const WaitPlatform& platform);
  // The algorithm needs the root's replies to arrivals (informed waiting): barrier kind root only.
  bool root_replies = false;
};

// The keys every algorithm takes (prefetch, prefetch_lead; B&M 4: a read's partner may be woken ahead
// whatever the reader's waiting algorithm), and resume, which every algorithm that spins takes.
inline const config::Names<Resume> kResumeNames = {
    {"restart", Resume::Restart}, {"keep", Resume::Keep}, {"block", Resume::Block}};
inline constexpr config::PolicyKey kResumeKey = config::choice_key<&config::NowWaitParams::resume,
                                                                   kResumeNames>(
    "resume",
    "what a spin cut by a preemption or a quantum's end does when the process runs again: restart, keep or "
    "block (default block)");
inline constexpr config::PolicyKey kPrefetchKey = {
    "prefetch", "send each read's partner a wake-up ahead of the read (B&M 4; boolean, default false)",
    [](const config::Field& f, config::PolicyParams& p) {
      config::params_as<config::NowWaitParams>(p).prefetch = f.boolean();
    }};
inline constexpr config::PolicyKey kPrefetchLeadKey =
    config::duration_key<&config::NowWaitParams::prefetch_lead, config::Zero::Allowed>(
        "prefetch_lead", "how long before a read its partner is woken (duration, default W + L + 2o)");

// Writes prefetch and prefetch_lead when given, and resume, into an algorithm's resolved `wait` object.
void prefetch_json(const config::PolicyParams& params, nlohmann::ordered_json& out);
void resume_json(const config::PolicyParams& params, nlohmann::ordered_json& out);

// The algorithm `wait` names, through its registry entry (wait/now/now_wait_registry.cpp), its resume set.
std::unique_ptr<NowWaitAlgorithm> make_now_wait(const config::PolicyChoice& wait,
                                                const WaitPlatform& platform);
// How long before a read its partner is woken (wait.prefetch, which every algorithm takes): the given
// prefetch_lead, else W + L + 2o; -1 when prefetch is off.
Nanos prefetch_lead(const config::PolicyChoice& wait, const WaitPlatform& platform);

}  // namespace cosched::wait
