#pragma once
// What a NOW workstation reports of each of its processes: where its time went, how its waits ended,
// the diagnostics of a run and its barrier log (docs/models/now.md section 7).

#include <cstdint>

#include "config/scenario.hpp"
#include "message/now_message.hpp"

namespace cosched::now {

// Where a process's time went (Brim & Miller figure 4's job states).
struct TimeBreakdown {
  Nanos compute = 0;      // application work and message overheads
  Nanos communicate = 0;  // spin-waiting for read replies
  Nanos synchronize = 0;  // spin-waiting at barriers
  Nanos switching = 0;    // being switched in
  // Off the CPU ("idle"), by reason:
  Nanos ready = 0;            // runnable, waiting for the CPU
  Nanos blocked_read = 0;     // blocked waiting for a read reply
  Nanos blocked_barrier = 0;  // blocked at a barrier
  Nanos finished = 0;         // done, while the rest of its job runs
  Nanos idle() const { return ready + blocked_read + blocked_barrier + finished; }
  Nanos total() const { return compute + communicate + synchronize + switching + idle(); }
  TimeBreakdown& operator+=(const TimeBreakdown& o) {
    compute += o.compute;
    communicate += o.communicate;
    synchronize += o.synchronize;
    switching += o.switching;
    ready += o.ready;
    blocked_read += o.blocked_read;
    blocked_barrier += o.blocked_barrier;
    finished += o.finished;
    return *this;
  }
};

struct WaitCounts {
  std::int64_t barrier_spins = 0;             // barrier waits that spun
  std::int64_t barrier_spins_successful = 0;  // ... and ended without blocking
  std::int64_t read_spins = 0;
  std::int64_t read_spins_successful = 0;
  std::int64_t blocks = 0;
  WaitCounts& operator+=(const WaitCounts& o) {
    barrier_spins += o.barrier_spins;
    barrier_spins_successful += o.barrier_spins_successful;
    read_spins += o.read_spins;
    read_spins_successful += o.read_spins_successful;
    blocks += o.blocks;
    return *this;
  }
};

// What the diagnostics of a run need from one process (docs/models/now.md section 7).
struct ReadStats {
  std::int64_t count = 0;
  Nanos time = 0;  // from the start of the read's wait to its end
};
struct Diagnostics {
  ReadStats reads[kPartnerStates];  // by the partner's state when the request reached it
  std::int64_t wakes = 0;           // wake-ups by a message, followed by a dispatch
  Nanos wake_to_dispatch = 0;       // summed over them
  // Prefetching wake-ups (wait.prefetch): sent by the process, and received by it, by its state when the
  // wake-up arrived.
  std::int64_t wakeups_sent = 0;
  std::int64_t wakeups_received[kPartnerStates] = {};
  std::int64_t arrival_replies = 0;  // the root's replies to arrivals the process handled
  // Keep-alives (docs/models/now.md section 4.6): rounds the root queued, keep-alives it sent, and
  // keep-alives this process handled.
  std::int64_t keepalive_rounds = 0;
  std::int64_t keepalives_sent = 0;
  std::int64_t keepalives_handled = 0;
  Diagnostics& operator+=(const Diagnostics& o) {
    wakeups_sent += o.wakeups_sent;
    for (int s = 0; s < kPartnerStates; ++s) wakeups_received[s] += o.wakeups_received[s];
    arrival_replies += o.arrival_replies;
    for (int s = 0; s < kPartnerStates; ++s) {
      reads[s].count += o.reads[s].count;
      reads[s].time += o.reads[s].time;
    }
    wakes += o.wakes;
    wake_to_dispatch += o.wake_to_dispatch;
    keepalive_rounds += o.keepalive_rounds;
    keepalives_sent += o.keepalives_sent;
    keepalives_handled += o.keepalives_handled;
    return *this;
  }
};
// One process at one barrier.
struct BarrierRecord {
  Nanos arrived = -1;
  Nanos passed = -1;
  int blocks = 0;  // times it blocked while waiting at it
};

}  // namespace cosched::now
