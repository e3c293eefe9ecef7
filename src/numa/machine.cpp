#include "numa/machine.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>

#include "numa/memory.hpp"
#include "numa/reference_stream.hpp"
#include "numa/reference_table.hpp"
#include "numa/rmt.hpp"
#include "numa/sync_points.hpp"
#include "sched/numa/allocation_registry.hpp"
#include "sched/numa/priority.hpp"
#include "sched/numa/replacement.hpp"
#include "util/log.hpp"
#include "util/normal.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(cosched_numa);
XBT_LOG_EXTERNAL_CATEGORY(cosched_numa_sched);
XBT_LOG_EXTERNAL_CATEGORY(cosched_numa_memory);

// A decision line (README, "Why did it do that?") behind a flag the machine keeps: a line that is off costs
// one test, and its formatting is a cold function (util/log.hpp).
#define NUMA_LOG(on, category, ...)               \
  do {                                            \
    if (on) [[unlikely]]                          \
      COSCHED_COLD_CDEBUG(category, __VA_ARGS__); \
  } while (false)

namespace cosched::numa {
namespace {

// A processor's state at a clock (docs/models/numa.md section 7); Off: the thread holds no processor.
enum class State : std::uint8_t { Off, Effective, Comm, Sync, Disk };

// What a thread that is not executing waits for.
enum class OpKind : std::uint8_t {
  None,
  Memory,   // a page fetch, migration or disk load; the access is evaluated again when it ends
  Write,    // the acknowledgements of its updates (sequential consistency, thesis 4.2.4)
  Barrier,  // the release of a sync point (thesis 4.2.3)
  Drain     // release consistency: its updates' acknowledgements, before it arrives at a sync point
};

struct Op {
  OpKind kind = OpKind::None;
  int page = -1;  // Memory, Write: the page accessed
  bool write = false;
  bool disk = false;  // Memory: a disk access
  int cluster = -1;   // Memory with disk: where the page is loaded
  int point = -1;     // Drain: the sync point it arrives at next
  bool done = false;  // it ended while the thread held no processor
  std::uint32_t serial = 0;
};

struct Thread {
  int process = 0, index = 0;
  int cluster = -1, last_cluster = -1;
  State state = State::Off;
  Clock since = 0;
  std::int64_t eff = 0;  // effective clocks, up to seg_start while Effective
  Clock seg_start = 0;
  Clock pre_until = 0;  // the clocks before this one are effective whatever is drawn (a completing access)
  std::int64_t next_sync = 0;
  int sync_point = 0;
  ReferenceStream stream;
  std::uint32_t version = 0;
  bool next_is_sync = false;
  Op op;
  int outstanding_writes = 0;  // release consistency
  std::uint64_t placement = 0;
  std::int64_t placement_eff = 0;
  std::vector<std::pair<Clock, std::int64_t>> eff_log;  // (time, eff) at each start of effective execution
  std::int64_t access_events = 0;
};

struct Process {
  std::string name;
  int copy = 0;
  int threads = 0;
  int first_thread = 0;
  const ReferenceTable* local = nullptr;
  const ReferenceTable* shared = nullptr;
  double shared_rate = 0;
  int local_pages = 0, local_base = 0, shared_base = 0;
  double priority = 0;
  bool ran = false, finished = false;
  std::vector<int> allocation;  // clusters in this slice, by thread
  std::vector<char> allocated;  // by cluster: in `allocation`
  std::vector<int> previous;    // by thread: its cluster at the process's last run (-1: none)
  std::int64_t eff_base = 0;
  Clock t_base = 0;
  int active = 0;
  // When the process finishes if no thread changes state (A9), and the sequence number that orders it
  // among events of the same clock; kNever: not while no thread executes. Kept here, not in the event heap:
  // it changes at every state change of a thread, and a heap entry for each would pile up stale.
  Clock finish_at = kNever;
  std::uint64_t finish_seq = 0;
  SyncPoints sync;
  metrics::NumaProcessRecord stats;
};

enum class EventKind : std::uint8_t { Thread, Disk, Local };
struct Event {
  Clock at;
  std::uint64_t seq;
  EventKind kind;
  int id;
  std::uint32_t version;
  bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

enum class Purpose : std::uint8_t { Request, PageData, Nack, Update, Ack, Arrive, Release };
struct Payload {
  Purpose purpose = Purpose::Request;
  int thread = -1, page = -1;
  bool migrate = false;
  int write = -1;
  int process = -1, point = -1;
  int from = 0, to = 0;
};

// Chapter 5's three rates over `over` processor-clocks (docs/models/numa.md section 7): net = E / T,
// calibrated = net (1 + I / T), maximum = (E + I) / T.
metrics::NumaRates rates(std::int64_t effective, std::int64_t idle, double over) {
  const double net = effective / over;
  return {net, net * (1 + idle / over), (effective + idle) / over};
}

}  // namespace

struct Machine::Impl final : MemoryObserver {
  const config::NumaConfig& numa;
  const platform::NumaTopology& topology;
  Network& network;
  const bool end_at_first_finish;
  const bool release;  // memory.consistency release (section 6.7), read once: it is asked at every write
  const bool remote_writes;  // memory.write_miss remote (A13, section 6.1)
  const bool oldest_source;  // memory.copy_source oldest (A12, section 6.1)
  const bool record_timeline;
  metrics::MessageRecorder* const message_trace;  // null unless messages are traced
  const Execution execution;
  const sched::NumaPolicyEntry& policy;
  const config::PolicyParams& policy_params;
  const SyncPoints::Members barrier;
  // The decision categories are on (log settings are made before the run).
  const bool log_sched = XBT_LOG_ISENABLED(cosched_numa_sched, xbt_log_priority_debug);
  const bool log_memory = XBT_LOG_ISENABLED(cosched_numa_memory, xbt_log_priority_debug);
  const int clusters_n;
  const std::array<int, kMessageKinds> bytes;

  std::vector<ReferenceTable> tables;  // per profile: local, shared
  std::vector<Process> processes;
  std::vector<Thread> threads;
  ResourceTree rmt;
  Memory memory;
  std::mt19937_64 sched_rng;
  std::mt19937_64 lru_rng;  // LRU times' draws: their own stream, so that they never shift a thread's

  std::priority_queue<Event, std::vector<Event>, std::greater<>> heap;
  int next_finish = -1;  // the process whose finish comes first (Process::finish_at), -1: none
  std::uint64_t seq = 0;
  std::vector<Payload> payloads;
  std::vector<int> free_payloads;
  std::vector<Payload> local_messages;  // messages to the sender's own cluster, handed over as events
  std::vector<std::int64_t> trace_ids;  // by payload slot, when messages are traced: the recorder's id

  Clock now = 0;
  Clock slice_end = 0;
  int slices = 0;
  bool ended = false;
  std::string ended_by = "slices";
  Clock end_clock = 0;
  std::uint64_t events = 0;
  std::uint64_t placements = 0;
  std::array<std::int64_t, kMessageKinds> messages{};
  metrics::TimelineRecorder timeline;

  Impl(const MachineSetup& setup)
      : numa(*setup.numa),
        topology(*setup.topology),
        network(*setup.network),
        end_at_first_finish(setup.end_at_first_finish),
        release(setup.numa->consistency == config::NumaConsistency::Release),
        remote_writes(setup.numa->write_miss == config::NumaWriteMiss::Remote),
        oldest_source(setup.numa->copy_source == config::NumaCopySource::Oldest),
        record_timeline(setup.timeline),
        message_trace(setup.messages),
        execution(setup.execution),
        policy(sched::numa_allocation_policies().at(setup.numa->policy.name)),
        policy_params(setup.numa->policy.as<config::PolicyParams>()),
        barrier(setup.numa->barrier),
        clusters_n(static_cast<int>(setup.topology->up.size())),
        bytes(message_bytes(*setup.numa)),
        rmt(*setup.topology, setup.numa->pages_per_cluster, count_processes(*setup.numa)),
        memory(clusters_n, setup.numa->pages_per_cluster, sched::Replacement(setup.numa->replacement), rmt,
               *this),
        sched_rng(util::mix_seed(setup.seed, 3)),
        lru_rng(util::mix_seed(setup.seed, 4)) {
    build(setup.seed);
  }

  static int count_processes(const config::NumaConfig& numa) {
    int n = 0;
    for (const auto& profile : numa.processes) n += profile.copies;
    return n;
  }

  void build(std::uint64_t seed) {
    tables.reserve(2 * numa.processes.size());
    for (const auto& profile : numa.processes) {
      tables.push_back(build_reference_table(profile.local_table, profile.local_pages));
      tables.push_back(build_reference_table(profile.shared_table, profile.shared_pages));
    }
    for (std::size_t j = 0; j < numa.processes.size(); ++j) {
      const auto& profile = numa.processes[j];
      for (int copy = 0; copy < profile.copies; ++copy) {
        Process p;
        const int id = static_cast<int>(processes.size());
        p.name = profile.name;
        p.copy = copy;
        p.threads = profile.threads;
        p.first_thread = static_cast<int>(threads.size());
        p.local = &tables[2 * j];
        p.shared = &tables[2 * j + 1];
        p.shared_rate = profile.shared_rate;
        p.local_pages = profile.local_pages;
        p.sync = SyncPoints(profile.threads, barrier, profile.sync_min, profile.sync_max,
                            util::mix_seed(seed, 2, static_cast<std::uint64_t>(id)));
        p.previous.assign(profile.threads, -1);
        p.allocated.assign(clusters_n, 0);
        p.stats.name = profile.name;
        p.stats.copy = copy;
        p.stats.threads = profile.threads;
        p.local_base = memory.pages();
        for (int k = 0; k < profile.threads; ++k)
          for (int i = 0; i < profile.local_pages; ++i) memory.add_page(id, p.first_thread + k, i);
        p.shared_base = memory.pages();
        for (int i = 0; i < profile.shared_pages; ++i) memory.add_page(id, -1, i);
        for (int k = 0; k < profile.threads; ++k) {
          Thread t;
          t.process = id;
          t.index = k;
          t.next_sync = p.sync.interval();
          t.stream =
              ReferenceStream(*p.local, *p.shared, p.shared_rate, util::mix_seed(seed, 1, threads.size()));
          threads.push_back(std::move(t));
        }
        processes.push_back(std::move(p));
      }
    }
    if (record_timeline) timeline = metrics::TimelineRecorder(static_cast<int>(threads.size()));
  }

  // ---- events and messages ----

  void push(Clock at, EventKind kind, int id, std::uint32_t version) {
    heap.push(Event{at, seq++, kind, id, version});
  }

  void send(Payload payload, MessageKind kind, Clock at) {
    ++messages[static_cast<int>(kind)];
    int slot;
    if (!free_payloads.empty()) {
      slot = free_payloads.back();
      free_payloads.pop_back();
      payloads[slot] = payload;
    } else {
      slot = static_cast<int>(payloads.size());
      payloads.push_back(payload);
    }
    if (message_trace) {
      // Only what crosses the network is traced: a message to the sender's own cluster is no link.
      if (trace_ids.size() < payloads.size()) trace_ids.resize(payloads.size(), -1);
      trace_ids[slot] = payload.from == payload.to
                            ? -1
                            : message_trace->sent(payload.from, payload.to, static_cast<int>(kind), at);
    }
    if (payload.from == payload.to) {  // a message to the sender's own cluster needs no network
      push(at, EventKind::Local, slot, 0);
      return;
    }
    network.send(Message{payload.from, payload.to, kind, static_cast<std::uint64_t>(slot)}, at);
  }

  int hops(int a, int b) const { return 2 * topology.height_of_lca(a, b); }
  int id_of(const Thread& t) const { return static_cast<int>(&t - threads.data()); }

  // The names in decision lines: "p16#0", "p16#0 thread 3", "local page 5 of p16#0 thread 3", "shared page 12
  // of p16#0".
  std::string process_name(int id) const {
    return fmt::format("{}#{}", processes[id].name, processes[id].copy);
  }
  std::string thread_name(const Thread& t) const {
    return fmt::format("{} thread {}", process_name(t.process), t.index);
  }
  std::string page_name(int page) const {
    const Page& pg = memory.page(page);
    if (pg.thread >= 0) return fmt::format("local page {} of {}", pg.index, thread_name(threads[pg.thread]));
    return fmt::format("shared page {} of {}", pg.index, process_name(pg.process));
  }
  std::string process_names(const std::vector<int>& ids) const {
    if (ids.empty()) return "(none)";
    std::vector<std::string> out;
    for (int id : ids) out.push_back(process_name(id));
    return fmt::format("{}", fmt::join(out, " "));
  }

  // ---- accounting ----

  void set_state(Thread& t, State s, Clock at) {
    Process& p = processes[t.process];
    if (t.state != State::Off) {
      const Clock spent = at - t.since;
      auto& c = p.stats.clocks;
      switch (t.state) {
        case State::Effective:
          c.effective += spent;
          break;
        case State::Comm:
          c.comm += spent;
          if (t.op.kind == OpKind::Write || t.op.kind == OpKind::Drain) c.comm_updates += spent;
          break;
        case State::Sync:
          c.sync += spent;
          break;
        case State::Disk:
          c.disk += spent;
          break;
        case State::Off:
          break;
      }
    }
    const bool was = t.state == State::Effective, is = s == State::Effective;
    if (was != is) {
      p.eff_base += static_cast<std::int64_t>(p.active) * (at - p.t_base);
      p.t_base = at;
      p.active += is ? 1 : -1;
      schedule_finish(p, static_cast<int>(&p - processes.data()), at);
    }
    t.state = s;
    t.since = at;
  }

  std::int64_t target(const Process& p) const {
    return static_cast<std::int64_t>(std::ceil(numa.work)) * p.threads;
  }

  // A9: the process finishes when its threads' effective clocks add up to threads x work.
  void schedule_finish(Process& p, int id, Clock at) {
    const std::int64_t left = target(p) - p.eff_base;
    if (p.finished || (left > 0 && p.active == 0)) {  // it finishes only once a thread executes again
      set_finish(id, kNever, 0);
      return;
    }
    const Clock when = p.t_base + (left <= 0 ? 0 : (left + p.active - 1) / p.active);
    set_finish(id, std::max(when, at), seq++);
  }

  static bool finishes_before(const Process& a, const Process& b) {
    return a.finish_at != b.finish_at ? a.finish_at < b.finish_at : a.finish_seq < b.finish_seq;
  }

  // Process id's finish moves to `at` (kNever: none); next_finish follows the earliest, rescanning the
  // processes (a few dozen) only when the earliest one's moves later.
  void set_finish(int id, Clock at, std::uint64_t sequence) {
    Process& p = processes[id];
    const bool later = at > p.finish_at || (at == p.finish_at && sequence > p.finish_seq);
    p.finish_at = at;
    p.finish_seq = sequence;
    if (next_finish == id) {
      if (!later) return;
      next_finish = -1;
      for (std::size_t i = 0; i < processes.size(); ++i)
        if (processes[i].finish_at != kNever &&
            (next_finish < 0 || finishes_before(processes[i], processes[next_finish])))
          next_finish = static_cast<int>(i);
    } else if (at != kNever && (next_finish < 0 || finishes_before(p, processes[next_finish]))) {
      next_finish = id;
    }
  }

  // Whether the earliest finish comes before every event of the heap (clock, then sequence number).
  bool finish_is_next() const {
    if (next_finish < 0) return false;
    if (heap.empty()) return true;
    const Process& p = processes[next_finish];
    const Event& top = heap.top();
    return p.finish_at != top.at ? p.finish_at < top.at : p.finish_seq < top.seq;
  }

  // ---- execution (docs/models/numa.md sections 6.1-6.2) ----

  // The thread executes from `at`; its first `pre` clocks are effective whatever happens (the clock that
  // completes an access whose data has arrived).
  void start_effective(Thread& t, Clock at, int pre) {
    set_state(t, State::Effective, at);  // what it waited for decides which comm it was: before clearing it
    t.op = Op{};
    t.seg_start = at;
    t.pre_until = at + pre;
    t.eff_log.emplace_back(at, t.eff);
    schedule_next(t, at, pre);
  }

  // Draws the clock of the thread's next event: an access that needs more than a local action, or its next
  // sync point, whichever comes first. Stepped execution: the next clock not decided yet, or the sync point.
  void schedule_next(Thread& t, Clock from, int pre) {
    const std::int64_t to_sync = std::max<std::int64_t>(0, t.next_sync - t.eff);
    const int id = id_of(t);
    ++t.version;
    if (execution == Execution::Stepped) {
      t.next_is_sync = to_sync <= pre;
      push(from + (t.next_is_sync ? to_sync : pre), EventKind::Thread, id, t.version);
      return;
    }
    const Clock g = t.stream.clocks_to_event();
    t.next_is_sync = g >= kNever || pre + g >= to_sync;
    push(from + (t.next_is_sync ? to_sync : pre + g), EventKind::Thread, id, t.version);
  }

  // The page a reference of thread t touches.
  int page_of(const Thread& t, const Process& p, ReferenceStream::Reference r) const {
    return r.shared ? p.shared_base + p.shared->entry_page[r.entry]
                    : p.local_base + t.index * p.local_pages + p.local->entry_page[r.entry];
  }

  // Stepped execution: clock `at` drawn as the thesis says (the space, then the entry, then its type). An
  // effective clock records its reference and the next clock is drawn at at + 1 (false); a clock that needs
  // more than a local action gives its reference (true).
  bool step(Thread& t, Clock at, ReferenceStream::Reference& r) {
    const Process& p = processes[t.process];
    bool event;
    r = t.stream.draw_clock(event);
    if (event) return true;
    if (r.entry >= 0) {
      const int frame = memory.frame_of(page_of(t, p, r), t.cluster);
      if (frame >= 0) touch(t.cluster, frame, at);
    }
    t.pre_until = at + 1;
    schedule_next(t, at, 1);
    return false;
  }

  void materialize(Thread& t, Clock at) {
    if (t.state == State::Effective) {
      t.eff += at - t.seg_start;
      t.seg_start = at;
    }
  }

  // The thread's entry weights changed: a running thread draws its next event again (the draw is
  // memoryless, so this keeps the distribution exact).
  void redraw(Thread& t, Clock at) {
    if (t.state != State::Effective) return;
    materialize(t, at);
    t.eff_log.emplace_back(at, t.eff);
    schedule_next(t, at, static_cast<int>(std::max<Clock>(0, t.pre_until - at)));
  }

  void on_thread_event(Thread& t, Clock at) {
    materialize(t, at);
    if (t.next_is_sync) {
      reach_sync(t, at);
      return;
    }
    const Process& p = processes[t.process];
    ReferenceStream::Reference r;
    if (execution == Execution::Stepped) {
      if (!step(t, at, r)) return;
    } else {
      r = t.stream.draw_event();
    }
    ++t.access_events;
    const ReferenceTable& table = r.shared ? *p.shared : *p.local;
    set_state(t, State::Comm, at);
    access(t, page_of(t, p, r), table.entry_write[r.entry], at);
  }

  void touch(int cluster, int frame, Clock at) {
    const int tid = memory.occupant(cluster);
    if (tid < 0) return memory.touch(cluster, frame, at, nullptr);
    const MemoryObserver::Stamp here = stamp(tid);
    memory.touch(cluster, frame, at, &here);
  }

  MemoryObserver::Stamp stamp(int thread) const override {
    return {threads[thread].eff, threads[thread].placement};
  }

  // One access of thread t, at `at`, evaluated against where the page is now (docs/models/numa.md
  // section 6.1).
  void access(Thread& t, int page, bool write, Clock at) {
    const Page& pg = memory.page(page);
    const int here = t.cluster;
    const int frame = memory.frame_of(page, here);
    if (pg.thread >= 0) {  // a local page
      if (frame >= 0) return complete(t, here, frame, at);
      if (pg.moving) {
        NUMA_LOG(log_memory, cosched_numa_memory,
                 "clock %lld cluster %d: %s misses %s: on its way here, waits", static_cast<long long>(at),
                 here, thread_name(t).c_str(), page_name(page).c_str());
        return wait_memory(t, page, write, at);
      }
      if (pg.cluster >= 0) {
        NUMA_LOG(log_memory, cosched_numa_memory,
                 "clock %lld cluster %d: %s misses %s: asks cluster %d to migrate it (%d hops)",
                 static_cast<long long>(at), here, thread_name(t).c_str(), page_name(page).c_str(),
                 pg.cluster, hops(here, pg.cluster));
        send({Purpose::Request, id_of(t), page, true, -1, t.process, -1, here, pg.cluster},
             MessageKind::Communication, at);
        return wait_memory(t, page, write, at);
      }
      return disk(t, page, write, at);
    }
    if (frame >= 0) {
      if (!write || pg.copies.size() == 1) return complete(t, here, frame, at);
      return start_write(t, page, here, frame, at);
    }
    if (pg.copies.empty()) return disk(t, page, write, at);
    if (write && remote_writes) return start_write(t, page, here, -1, at);  // A13: no copy here is made
    const int holder = memory.copy_source(page, oldest_source, [&](int c) { return hops(here, c); });  // A12
    NUMA_LOG(log_memory, cosched_numa_memory,
             "clock %lld cluster %d: %s misses %s: asks cluster %d (%d hops)", static_cast<long long>(at),
             here, thread_name(t).c_str(), page_name(page).c_str(), holder, hops(here, holder));
    send({Purpose::Request, id_of(t), page, false, -1, t.process, -1, here, holder},
         MessageKind::Communication, at);
    wait_memory(t, page, write, at);
  }

  void complete(Thread& t, int cluster, int frame, Clock at) {
    touch(cluster, frame, at);
    start_effective(t, at, 1);
  }

  void wait_memory(Thread& t, int page, bool write, Clock at) {
    t.op = Op{OpKind::Memory, page, write};
    set_state(t, State::Comm, at);
  }

  void disk(Thread& t, int page, bool write, Clock at) {
    Process& p = processes[t.process];
    ++p.stats.disk_accesses;
    t.op = Op{OpKind::Memory, page, write, true, t.cluster};
    t.op.serial = ++t.version;  // no other event of the thread is pending while it waits
    set_state(t, State::Disk, at);
    push(at + numa.disk, EventKind::Disk, id_of(t), t.op.serial);
    NUMA_LOG(log_memory, cosched_numa_memory, "clock %lld cluster %d: %s misses %s: disk, until clock %lld",
             static_cast<long long>(at), t.cluster, thread_name(t).c_str(), page_name(page).c_str(),
             static_cast<long long>(at + numa.disk));
  }

  // Thesis 4.2.4: "Every write access starts update processing by sending update messages to every copy. The
  // processor stops until it collects all acknowledges." Under release consistency it goes on, and waits at
  // its next sync point instead. `frame` is the writer's copy, or -1 when it has none (A13, write_miss
  // remote): then every copy is updated.
  void start_write(Thread& t, int page, int cluster, int frame, Clock at) {
    const Page& pg = memory.page(page);
    Process& p = processes[t.process];
    ++p.stats.writes;
    const int tid = id_of(t);
    const int w = memory.begin_write(tid, page, cluster, frame);
    NUMA_LOG(log_memory, cosched_numa_memory, "clock %lld cluster %d: %s writes %s: updates %d other copies",
             static_cast<long long>(at), cluster, thread_name(t).c_str(), page_name(page).c_str(),
             memory.write(w).outstanding);
    for (const auto& c : pg.copies)
      if (c.cluster != cluster)
        send({Purpose::Update, tid, page, false, w, t.process, -1, cluster, c.cluster}, MessageKind::Update,
             at);
    if (release) {
      ++t.outstanding_writes;
      if (frame >= 0) return complete(t, cluster, frame, at);
      return start_effective(t, at, 1);
    }
    t.op = Op{OpKind::Write, page, true};
    set_state(t, State::Comm, at);
  }

  // An operation of thread t ended at `at`.
  void op_ended(Thread& t, Clock at) {
    if (t.cluster < 0) {  // it holds no processor: it takes this up when it runs again (A20)
      t.op.done = true;
      return;
    }
    const Op op = t.op;
    switch (op.kind) {
      case OpKind::Memory:
        t.op = Op{};
        set_state(t, State::Comm, at);
        access(t, op.page, op.write, at);
        break;
      case OpKind::Write: {
        const int frame = memory.frame_of(op.page, t.cluster);
        if (frame >= 0) touch(t.cluster, frame, at);
        start_effective(t, at, 1);
        break;
      }
      case OpKind::Barrier:
        start_effective(t, at, 0);
        break;
      case OpKind::Drain:
        arrive(t, op.point, at);
        break;
      case OpKind::None:
        break;
    }
  }

  // ---- synchronization (thesis 4.2.3, A6-A8) ----

  void reach_sync(Thread& t, Clock at) {
    Process& p = processes[t.process];
    const int k = t.sync_point++;
    t.next_sync += p.sync.interval();
    if (!p.sync.is_member(k, t.index)) return start_effective(t, at, 0);
    ++p.stats.barriers;
    if (t.outstanding_writes > 0) {
      t.op = Op{OpKind::Drain};
      t.op.point = k;
      set_state(t, State::Comm, at);
      return;
    }
    arrive(t, k, at);
  }

  int where(const Thread& t) const { return t.cluster >= 0 ? t.cluster : t.last_cluster; }

  void arrive(Thread& t, int k, Clock at) {
    Process& p = processes[t.process];
    // A drain's wait ends here: it is counted as one (comm_updates) before its op is replaced.
    set_state(t, State::Sync, at);
    t.op = Op{OpKind::Barrier};
    const Thread& coordinator = threads[p.first_thread + p.sync.coordinator(k)];
    send({Purpose::Arrive, id_of(t), -1, false, -1, t.process, k, where(t), where(coordinator)},
         MessageKind::Communication, at);
  }

  void count_arrival(int process, int k, int cluster, Clock at) {
    Process& p = processes[process];
    if (!p.sync.arrive(k)) return;
    for (int i = 0; i < p.threads; ++i) {
      if (!p.sync.is_member(k, i)) continue;
      Thread& m = threads[p.first_thread + i];
      send({Purpose::Release, p.first_thread + i, -1, false, -1, process, k, cluster, where(m)},
           MessageKind::Communication, at);
    }
  }

  // ---- memory (thesis 4.2.4, 4.4; numa/memory.hpp) ----

  // The thread running on `cluster` and its process, if it is one of the page's.
  Thread* user_here(int page, int cluster) {
    const int tid = memory.user_here(page, cluster);
    return tid >= 0 ? &threads[tid] : nullptr;
  }

  bool entry_is_event(const Thread& t, int page, bool write) const {
    const int frame = memory.frame_of(page, t.cluster);
    if (frame < 0) return true;
    const Page& pg = memory.page(page);
    if (pg.thread >= 0) return false;
    return write && pg.copies.size() > 1;
  }

  // Page `page`'s state changed on or about `cluster`: the entries of the thread there follow.
  void page_changed(int page, int cluster, Clock at) override {
    Thread* t = user_here(page, cluster);
    if (!t) return;
    const Process& p = processes[t->process];
    const Page& pg = memory.page(page);
    const bool shared = pg.thread < 0;
    const ReferenceTable& table = shared ? *p.shared : *p.local;
    bool changed = false;
    for (int k = table.page_first[pg.index]; k < table.page_first[pg.index + 1]; ++k) {
      const int e = table.page_entries[k];
      const std::int64_t w = entry_is_event(*t, page, table.entry_write[e]) ? table.entry_weight[e] : 0;
      changed |= t->stream.set(shared, e, w);
    }
    if (changed) redraw(*t, at);
  }

  // Puts page `page` into a frame of `cluster` (evicting if it must); false when no frame can be evicted.
  bool install(int page, int cluster, Clock at) {
    const bool loads = log_memory && memory.frame_of(page, cluster) < 0;
    std::optional<Memory::Eviction> evicted;
    if (!memory.install(page, cluster, at, evicted)) {
      NUMA_LOG(log_memory, cosched_numa_memory,
               "clock %lld cluster %d: %s waits for a frame: every frame pinned", static_cast<long long>(at),
               cluster, page_name(page).c_str());
      return false;
    }
    // Table 5.5: evictions by the victim's class.
    if (evicted) {
      ++processes[memory.page(evicted->page).process]
            .stats.pages_replaced[static_cast<int>(evicted->page_class)];
      NUMA_LOG(log_memory, cosched_numa_memory, "clock %lld cluster %d: evicts %s (%s) for %s",
               static_cast<long long>(at), cluster, page_name(evicted->page).c_str(),
               std::string(sched::page_class_name(evicted->page_class)).c_str(), page_name(page).c_str());
    }
    NUMA_LOG(loads, cosched_numa_memory, "clock %lld cluster %d: %s loaded in frame %d",
             static_cast<long long>(at), cluster, page_name(page).c_str(), memory.frame_of(page, cluster));
    drop_kept_copies(page, at);
    return true;
  }

  // A11 (section 6.6): a copy outside its running process's clusters that the rescheduling kept, as the
  // page's last copy or under coherency processing, goes without cost as soon as it is neither (a copy was
  // made elsewhere, its write round ended): otherwise every write would update a copy the process no longer
  // uses (docs/models/numa.md 6.8, check 2).
  void drop_kept_copies(int page, Clock at) {
    const Page& pg = memory.page(page);
    if (pg.thread >= 0 || pg.copies.size() < 2) return;
    Process& p = processes[pg.process];
    if (!p.ran) return;
    const int dropped = memory.drop_copies(page, 1, p.allocated, at);
    p.stats.copies_dropped += dropped;
    NUMA_LOG(log_memory && dropped > 0, cosched_numa_memory,
             "clock %lld: %s drops %d copies of %s outside its clusters (A11)", static_cast<long long>(at),
             process_name(pg.process).c_str(), dropped, page_name(page).c_str());
  }

  // A30: a page's time is its last reference on this cluster. References in skipped stretches of effective
  // execution are not drawn one by one; the last one is drawn when it is needed, from the exact distribution
  // of the page's references over the effective clocks the thread here has run since the time last settled
  // (docs/models/numa.md section 6.4).
  Clock last_reference(int cluster, int frame, Clock at) override {
    Frame& f = memory.frame(cluster, frame);
    if (execution == Execution::Stepped) return f.last_ref;
    const Page& pg = memory.page(f.page);
    Thread* t = user_here(f.page, cluster);
    if (!t) return f.last_ref;
    const std::int64_t eff_now = t->eff + (t->state == State::Effective ? at - t->seg_start : 0);
    const std::int64_t from = f.stamp == t->placement ? f.ref_eff : t->placement_eff;
    const std::int64_t window = eff_now - from;
    if (window <= 0) return f.last_ref;
    const Process& p = processes[t->process];
    double q;
    if (pg.thread >= 0) {
      q = p.local->total > 0
              ? (1 - p.shared_rate) *
                    static_cast<double>(p.local->page_read[pg.index] + p.local->page_write[pg.index]) /
                    p.local->total
              : 0;
    } else {
      const bool writes_local = pg.copies.size() == 1;
      q = p.shared->total > 0 ? p.shared_rate *
                                    static_cast<double>(p.shared->page_read[pg.index] +
                                                        (writes_local ? p.shared->page_write[pg.index] : 0)) /
                                    p.shared->total
                              : 0;
    }
    const double pev = t->stream.event_probability();
    if (pev < 1) q /= 1 - pev;
    f.ref_eff = eff_now;
    f.stamp = t->placement;
    const Clock back = geometric(std::min(q, 1.0), lru_rng);
    if (back >= window) return f.last_ref;
    f.last_ref = std::max(f.last_ref, time_of(*t, eff_now - 1 - back));
    return f.last_ref;
  }

  // The clock at which thread t ran its e-th effective clock (in its current placement).
  Clock time_of(const Thread& t, std::int64_t e) const {
    auto it = std::upper_bound(t.eff_log.begin(), t.eff_log.end(), e,
                               [](std::int64_t v, const auto& entry) { return v < entry.second; });
    if (it == t.eff_log.begin()) return t.eff_log.empty() ? 0 : t.eff_log.front().first;
    --it;
    return it->first + (e - it->second);
  }

  void retry_pending(int cluster, Clock at) {
    const auto waiting = memory.take_waiting(cluster);
    for (const auto& [page, tid] : waiting) {
      if (!install(page, cluster, at)) {
        memory.wait_for_frame(cluster, page, tid);
        continue;
      }
      op_ended(threads[tid], at);
    }
  }

  void arrive_page(int page, int cluster, int tid, Clock at) {
    if (!install(page, cluster, at)) {
      memory.wait_for_frame(cluster, page, tid);
      return;
    }
    op_ended(threads[tid], at);
  }

  // ---- deliveries ----

  void deliver(int slot, Clock at) {
    if (message_trace) message_trace->arrived(trace_ids[slot], at);
    const Payload m = payloads[slot];
    free_payloads.push_back(slot);
    switch (m.purpose) {
      case Purpose::Request: {
        const Page& pg = memory.page(m.page);
        Process& p = processes[pg.process];
        const int frame = memory.frame_of(m.page, m.to);
        // A local page moves only to the cluster its thread runs on (A20): when the thread asked from a
        // cluster it has left since for another one (back to this one: it finds the page here; or a third:
        // no thread would use the page where it asked), the requester evaluates its access again from where
        // it runs. A thread that holds no processor has the page on the cluster it last ran on.
        const int owner_at = threads[m.thread].cluster;
        const bool owner_left = m.migrate && owner_at >= 0 && owner_at != m.from;
        if (frame < 0 || (m.migrate && pg.moving) || owner_left) {
          NUMA_LOG(log_memory, cosched_numa_memory, "clock %lld cluster %d: refuses %s to cluster %d (%s)",
                   static_cast<long long>(at), m.to, page_name(m.page).c_str(), m.from,
                   frame < 0 || pg.moving ? "not here"
                   : owner_at == m.to     ? "its thread runs here"
                                          : "its thread runs elsewhere");
          send({Purpose::Nack, m.thread, m.page, m.migrate, -1, m.process, -1, m.to, m.from},
               MessageKind::Communication, at);
          break;
        }
        const int route = hops(m.to, m.from);
        if (m.migrate) {
          // Thesis 4.2.4: local pages move on demand; the old frame is freed as the page leaves.
          memory.remove(m.to, frame, at);
          retry_pending(m.to, at);
          memory.mark_moving(m.page);
          ++p.stats.page_transfers.migrations;
        } else {
          ++p.stats.page_transfers.copies;
        }
        p.stats.page_transfers.hops += route;
        NUMA_LOG(log_memory, cosched_numa_memory,
                 "clock %lld cluster %d: sends %s to cluster %d (%s, %d hops)", static_cast<long long>(at),
                 m.to, page_name(m.page).c_str(), m.from, m.migrate ? "migration" : "copy", route);
        send({Purpose::PageData, m.thread, m.page, m.migrate, -1, m.process, -1, m.to, m.from},
             MessageKind::Page, at);
        break;
      }
      case Purpose::PageData:
        arrive_page(m.page, m.to, m.thread, at);
        break;
      case Purpose::Nack:
        op_ended(threads[m.thread], at);
        break;
      case Purpose::Update:
        // A16: applying an update costs the receiving processor nothing; its acknowledgement leaves at once.
        send({Purpose::Ack, m.thread, m.page, false, m.write, m.process, -1, m.to, m.from},
             MessageKind::Communication, at);
        break;
      case Purpose::Ack: {
        if (!memory.acknowledge(m.write)) break;
        // The write's round is over. Its slot is freed last: what follows may start other writes.
        const WriteRound w = memory.write(m.write);
        drop_kept_copies(w.page, at);  // before the writer goes on: its next write may update the others
        Thread& t = threads[w.thread];
        NUMA_LOG(log_memory, cosched_numa_memory,
                 "clock %lld cluster %d: %s: every other copy of %s acknowledged", static_cast<long long>(at),
                 w.cluster, thread_name(t).c_str(), page_name(w.page).c_str());
        if (release) {
          if (--t.outstanding_writes == 0 && t.op.kind == OpKind::Drain) op_ended(t, at);
        } else {
          op_ended(t, at);
        }
        retry_pending(w.cluster, at);
        memory.end_write(m.write);
        break;
      }
      case Purpose::Arrive:
        count_arrival(m.process, m.point, m.to, at);
        break;
      case Purpose::Release: {
        Thread& t = threads[m.thread];
        if (t.op.kind == OpKind::Barrier) op_ended(t, at);
        break;
      }
    }
  }

  // ---- slices (thesis 4.3, chapter 5) ----

  bool run_slice() {
    if (ended) return false;
    if (slices >= numa.slices ||
        std::all_of(processes.begin(), processes.end(), [](const Process& p) { return p.finished; })) {
      ended = true;
      end_clock = now;
      return false;
    }
    const Clock start = now;
    slice_end = start + numa.time_slice;
    schedule(start);
    while (!ended) {
      const Clock next = std::min(heap.empty() ? kNever : heap.top().at,
                                  next_finish < 0 ? kNever : processes[next_finish].finish_at);
      const Clock limit = std::min(next, slice_end - 1);
      if (auto d = network.next_delivery(limit)) {
        ++events;
        now = d->at;
        deliver(static_cast<int>(d->message.tag), now);
        continue;
      }
      if (next >= slice_end) break;
      if (finish_is_next()) {
        const int id = next_finish;
        now = next;
        set_finish(id, kNever, 0);
        ++events;
        finish(processes[id], now);
        continue;
      }
      const Event ev = heap.top();
      heap.pop();
      now = ev.at;
      handle(ev);
    }
    if (ended) {
      finish_accounting(now);
      end_clock = now;
      ++slices;
      return true;
    }
    now = slice_end;
    deschedule(slice_end);
    NUMA_LOG(log_sched, cosched_numa_sched, "clock %lld slice %d ends", static_cast<long long>(slice_end),
             slices);
    ++slices;
    return true;
  }

  void handle(const Event& ev) {
    switch (ev.kind) {
      case EventKind::Thread: {
        Thread& t = threads[ev.id];
        if (ev.version != t.version || t.cluster < 0 || t.state != State::Effective) return;
        ++events;
        on_thread_event(t, ev.at);
        break;
      }
      case EventKind::Disk: {
        Thread& t = threads[ev.id];
        if (t.op.kind != OpKind::Memory || !t.op.disk || t.op.serial != ev.version) return;
        ++events;
        const Op op = t.op;
        if (!install(op.page, op.cluster, ev.at)) {
          memory.wait_for_frame(op.cluster, op.page, ev.id);
          return;
        }
        op_ended(t, ev.at);
        break;
      }
      case EventKind::Local:
        ++events;
        deliver(ev.id, ev.at);
        break;
    }
  }

  void finish(Process& p, Clock at) {
    p.finished = true;
    p.stats.finished = true;
    XBT_DEBUG("process %s copy %d finished at clock %lld", p.name.c_str(), p.copy,
              static_cast<long long>(at));
    if (end_at_first_finish) {
      ended = true;
      ended_by = "first-finish";
      return;
    }
    for (int k = 0; k < p.threads; ++k) {
      Thread& t = threads[p.first_thread + k];
      if (t.cluster >= 0) leave(t, at);
    }
    if (std::all_of(processes.begin(), processes.end(), [](const Process& q) { return q.finished; })) {
      ended = true;
      ended_by = "all-finished";
    }
  }

  void schedule(Clock at) {
    // Priorities (thesis 3.1.3, A10), from the slice that just ended.
    std::vector<double> priority(processes.size());
    std::vector<sched::ProcessSlice> slice(processes.size());
    for (std::size_t i = 0; i < processes.size(); ++i) {
      priority[i] = processes[i].priority;
      slice[i] = {processes[i].ran, static_cast<int>(processes[i].allocation.size()), processes[i].finished};
    }
    if (slices > 0) sched::age(priority, slice, numa.aging_coefficient);
    for (std::size_t i = 0; i < processes.size(); ++i) processes[i].priority = priority[i];
    const auto order = sched::priority_order(priority, slice);
    // Finished processes are in no order: their pages count as the lowest priority's.
    std::vector<int> rank(processes.size(), static_cast<int>(processes.size()));
    for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int>(r);
    memory.set_priority_ranks(std::move(rank));
    NUMA_LOG(log_sched, cosched_numa_sched, "clock %lld slice %d: priority order %s",
             static_cast<long long>(at), slices, process_names(order).c_str());

    // Every cluster is free for the new slice (4.4 step 2); then processes in priority order.
    rmt.release_all();
    std::vector<char> free(clusters_n, 1);
    memory.clear_occupants();
    for (auto& p : processes) {
      p.ran = false;
      for (int c : p.allocation) p.allocated[c] = 0;
      p.allocation.clear();
    }
    for (int id : order) {
      Process& p = processes[id];
      std::vector<int> previous;
      for (int c : p.previous)
        if (c >= 0) previous.push_back(c);
      const int home = rmt.home_node(id, p.threads);
      const auto& sw = topology.switches[home];
      sched::AllocationRequest request{p.threads, free,     rmt.pages_by_cluster(id),
                                       sw.first,  sw.count, previous};
      auto got = policy.allocate(policy_params, request, sched_rng);
      if (!got) {  // A19: it waits this slice; the next process is tried
        NUMA_LOG(log_sched, cosched_numa_sched,
                 "clock %lld slice %d: %s waits: %s found no %d clusters (A19)", static_cast<long long>(at),
                 slices, process_name(id).c_str(), policy.spec.name.data(), p.threads);
        continue;
      }
      const auto pages_here = rmt.pages_by_cluster(id);
      const auto placed = sched::place_threads(*got, p.previous);
      p.allocation = placed;
      NUMA_LOG(log_sched, cosched_numa_sched, "clock %lld slice %d: %s gets clusters %s (%s)",
               static_cast<long long>(at), slices, process_name(id).c_str(),
               fmt::format("{}", fmt::join(*got, " ")).c_str(), policy.spec.name.data());
      p.ran = true;
      ++p.stats.slices_run;
      for (int k = 0; k < p.threads; ++k) {
        const int c = placed[k];
        free[c] = 0;
        p.allocated[c] = 1;
        rmt.allocate(id, c);
        memory.occupy(c, id, p.first_thread + k);
        ++p.stats.placements.threads;
        if (pages_here[c] > 0) ++p.stats.placements.on_page_clusters;
        if (p.previous[k] == c) ++p.stats.placements.stayed;
        NUMA_LOG(log_sched, cosched_numa_sched, "clock %lld cluster %d: %s placed (%s)",
                 static_cast<long long>(at), c, thread_name(threads[p.first_thread + k]).c_str(),
                 p.previous[k] < 0    ? "first run"
                 : p.previous[k] == c ? "stays"
                                      : fmt::format("moved from cluster {}", p.previous[k]).c_str());
      }
    }
    for (auto& p : processes)
      if (p.ran) drop_copies(p, at);
    for (auto& p : processes) {
      if (!p.ran) continue;
      for (int k = 0; k < p.threads; ++k) resume(threads[p.first_thread + k], p.allocation[k], at);
    }
    if (record_timeline) {
      for (std::size_t tid = 0; tid < threads.size(); ++tid) {
        const Thread& t = threads[tid];
        const Process& p = processes[t.process];
        const int state = p.finished ? 2 : (t.cluster >= 0 ? 0 : 1);
        timeline.enter(static_cast<int>(tid), at, state, t.cluster);
      }
    }
  }

  // A11: "Shared copy pages that do not reside on currently allocated clusters are removed without any cost."
  // When a process is scheduled its copies outside its new allocation go, but the last copy of a page stays
  // (dropping it would turn a cheap page into a disk access), and so does a page under coherency processing.
  void drop_copies(Process& p, Clock at) {
    const int dropped = memory.drop_copies(p.shared_base, p.shared->pages, p.allocated, at);
    p.stats.copies_dropped += dropped;
    NUMA_LOG(log_memory && dropped > 0, cosched_numa_memory,
             "clock %lld: %s drops %d copies outside its clusters (A11)", static_cast<long long>(at),
             process_name(static_cast<int>(&p - processes.data())).c_str(), dropped);
  }

  void resume(Thread& t, int cluster, Clock at) {
    t.cluster = cluster;
    t.last_cluster = cluster;
    t.placement = ++placements;
    t.placement_eff = t.eff;
    t.eff_log.clear();
    rebuild(t);
    const Op op = t.op;
    switch (op.kind) {
      case OpKind::None:
        start_effective(t, at, 0);
        break;
      case OpKind::Memory:
        if (op.done) {
          t.op = Op{};
          set_state(t, State::Comm, at);
          access(t, op.page, op.write, at);
        } else {
          set_state(t, op.disk ? State::Disk : State::Comm, at);
        }
        break;
      case OpKind::Write:
        if (op.done) {
          start_effective(t, at, 1);
        } else {
          set_state(t, State::Comm, at);
        }
        break;
      case OpKind::Barrier:
        if (op.done) {
          start_effective(t, at, 0);
        } else {
          set_state(t, State::Sync, at);
        }
        break;
      case OpKind::Drain:
        if (t.outstanding_writes == 0) {
          arrive(t, op.point, at);
        } else {
          set_state(t, State::Comm, at);
        }
        break;
    }
  }

  // The thread's entry weights on its new cluster: every memory entry needs more than a local action but
  // those of pages resident here (a shared write also needs no other copy).
  void rebuild(Thread& t) {
    const Process& p = processes[t.process];
    std::vector<std::int64_t> local(p.local->entry_weight);
    for (std::size_t e = 0; e < local.size(); ++e) {
      const Page& pg = memory.page(p.local_base + t.index * p.local_pages + p.local->entry_page[e]);
      if (pg.cluster == t.cluster && !pg.moving) local[e] = 0;
    }
    std::vector<std::int64_t> shared(p.shared->entry_weight);
    for (const Frame& f : memory.frames(t.cluster)) {
      if (f.page < 0) continue;
      const Page& pg = memory.page(f.page);
      if (pg.process != t.process || pg.thread >= 0) continue;
      for (int k = p.shared->page_first[pg.index]; k < p.shared->page_first[pg.index + 1]; ++k) {
        const int e = p.shared->page_entries[k];
        if (!p.shared->entry_write[e] || pg.copies.size() == 1) shared[e] = 0;
      }
    }
    t.stream.assign(local, shared);
  }

  // Thread t gives its cluster up at `at` (the slice's end, or its process finished).
  void leave(Thread& t, Clock at) {
    // Settle the LRU times of its pages here before it leaves (section 6.4).
    const auto& frames = memory.frames(t.cluster);
    for (int f = 0; f < static_cast<int>(frames.size()); ++f)
      if (frames[f].page >= 0 && user_here(frames[f].page, t.cluster)) last_reference(t.cluster, f, at);
    materialize(t, at);
    set_state(t, State::Off, at);
    ++t.version;
    processes[t.process].previous[t.index] = t.cluster;
    memory.vacate(t.cluster);
    t.cluster = -1;
  }

  void deschedule(Clock at) {
    for (int c = 0; c < clusters_n; ++c)
      if (memory.occupant(c) >= 0) leave(threads[memory.occupant(c)], at);
    for (auto& p : processes) {
      int low = std::numeric_limits<int>::max();
      for (int k = 0; k < p.threads; ++k) low = std::min(low, threads[p.first_thread + k].sync_point);
      p.sync.forget_passed(low);
    }
  }

  void finish_accounting(Clock at) {
    for (auto& t : threads) {
      if (t.cluster < 0) continue;
      materialize(t, at);
      set_state(t, State::Off, at);
    }
  }

  metrics::NumaRunRecord record() const {
    metrics::NumaRunRecord out;
    out.clocks = end_clock;
    out.slices = slices;
    out.ended_by = ended_by;
    for (const auto& p : processes) {
      metrics::NumaProcessRecord r = p.stats;
      const auto& c = r.clocks;
      std::int64_t eff = 0;
      for (int k = 0; k < p.threads; ++k) eff += threads[p.first_thread + k].eff;
      r.effective_per_thread = static_cast<double>(eff) / p.threads;
      const double held = static_cast<double>(c.effective + c.sync + c.comm);
      if (held > 0) {
        r.rates = rates(c.effective, 0, held);  // no idle time: its three rates are equal
        r.breakdown = {c.effective / held, c.sync / held, c.comm / held, 0, c.disk / held};
      }
      out.processor_clocks += c;
      for (int k = 0; k < sched::kPageClasses; ++k) out.pages_replaced[k] += r.pages_replaced[k];
      out.page_transfers += r.page_transfers;
      out.disk_accesses += r.disk_accesses;
      out.placements += r.placements;
      out.copies_dropped += r.copies_dropped;
      out.jobs.push_back(std::move(r));
    }
    auto& c = out.processor_clocks;
    c.idle = static_cast<std::int64_t>(clusters_n) * end_clock - (c.effective + c.sync + c.comm + c.disk);
    const double t_prime = static_cast<double>(c.effective + c.sync + c.comm + c.idle);
    if (t_prime > 0) {
      out.rates = rates(c.effective, c.idle, t_prime);
      out.rates_with_disk = rates(c.effective, c.idle, t_prime + static_cast<double>(c.disk));
      out.breakdown = {c.effective / t_prime, c.sync / t_prime, c.comm / t_prime, c.idle / t_prime,
                       c.disk / t_prime};
    }
    out.messages = messages;
    out.network = network.traffic();
    out.events = events;
    return out;
  }
};

Machine::Machine(const MachineSetup& setup) : impl_(std::make_unique<Impl>(setup)) {}
Machine::~Machine() = default;

bool Machine::run_slice() {
  return impl_->run_slice();
}
Clock Machine::now() const {
  return impl_->now;
}
int Machine::slices() const {
  return impl_->slices;
}
std::uint64_t Machine::events() const {
  return impl_->events;
}
std::int64_t Machine::access_events() const {
  std::int64_t n = 0;
  for (const auto& t : impl_->threads) n += t.access_events;
  return n;
}
metrics::NumaRunRecord Machine::record() const {
  return impl_->record();
}

const std::vector<std::string>& Machine::timeline_states() {
  static const std::vector<std::string> names{"running", "waiting", "finished"};
  return names;
}

const std::vector<std::string>& Machine::message_kinds() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n(kMessageKinds);
    n[static_cast<int>(MessageKind::Page)] = "page";
    n[static_cast<int>(MessageKind::Update)] = "update";
    n[static_cast<int>(MessageKind::Communication)] = "communication";
    return n;
  }();
  return names;
}

std::vector<metrics::TimelineLane> Machine::timeline() const {
  std::vector<metrics::TimelineLane> lanes;
  for (std::size_t tid = 0; tid < impl_->threads.size(); ++tid) {
    const auto& t = impl_->threads[tid];
    const auto& p = impl_->processes[t.process];
    lanes.push_back(
        {p.name, p.copy, t.index, impl_->timeline.closed(static_cast<int>(tid), impl_->end_clock)});
  }
  return lanes;
}

}  // namespace cosched::numa
