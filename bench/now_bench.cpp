// NOW model speed, four figures measured in one run on the same machine, in simulated messages per CPU
// second:
//   1. the sequential engine on a scenario (default: the Brim & Miller short configuration,
//      scenarios/brim-miller/short.yaml);
//   2. the simgrid engine on the same scenario;
//   3. a bare SimGrid micro-benchmark of the same traffic shape: one detached 1-byte message per read
//      request and per reply between per-workstation actors on 32 hosts;
//   4. a bare binary-heap event loop on the same request/reply traffic (no model, no SimGrid: the ceiling).
// Each measurement runs in its own process (the SimGrid engine is a singleton).
//
// Usage: now_bench [SCENARIO] [--set PATH=VALUE ...] [--no-simgrid-engine]

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <queue>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "now/simulation.hpp"
#include "platform/now_platform.hpp"
#include "workload/now_program.hpp"

namespace sg4 = simgrid::s4u;

namespace {

// Time is the process's CPU time (user + system), not the wall clock: the figures are then comparable on a
// machine other work is loading, and "one core" is what the targets speak of.
struct Clock {
  using time_point = double;
  static double now() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  }
};

// The bare micro-benchmark: every actor reads from its NEWS neighbours in turn, one outstanding read at a
// time; a request is answered at once with a reply. Returns messages per wall second.
double bare_messages_per_second(int hosts, int reads_per_actor) {
  int argc = 1;
  char name[] = "now_bench";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  cosched::platform::configure_network_model();
  cosched::config::NowConfig now;
  now.workstations = hosts;
  auto platform = cosched::platform::build_now_platform(engine, now);
  struct Msg {
    bool request;
    int from;
  };
  std::vector<sg4::Mailbox*> boxes;
  for (int h = 0; h < hosts; ++h) boxes.push_back(sg4::Mailbox::by_name("bare-" + std::to_string(h)));
  long messages = 0;
  int done = 0;
  for (int h = 0; h < hosts; ++h) {
    sg4::Actor::create("bare", platform.workstations[h],
                       [h, hosts, reads_per_actor, &boxes, &messages, &done] {
                         boxes[h]->set_receiver(sg4::Actor::self());
                         auto neighbours = cosched::workload::news_neighbours(h, hosts);
                         int reads = 0;
                         auto read = [&] {
                           boxes[neighbours[reads % 4]]->put_init(new Msg{true, h}, 1)->detach();
                           ++messages;
                         };
                         read();
                         bool finished = false;
                         while (!(finished && done == hosts)) {
                           Msg* m = boxes[h]->get<Msg>();
                           if (m->request) {
                             boxes[m->from]->put_init(new Msg{false, h}, 1)->detach();
                             ++messages;
                           } else if (++reads < reads_per_actor) {
                             read();
                           } else if (!finished) {
                             finished = true;
                             ++done;
                             if (done == hosts) {  // wake the others so that they can stop
                               for (int o = 0; o < hosts; ++o)
                                 if (o != h) boxes[o]->put_init(new Msg{false, -1}, 1)->detach();
                             }
                           }
                           delete m;
                         }
                         boxes[h]->set_receiver(nullptr);
                       });
  }
  auto start = Clock::now();
  engine.run();
  return static_cast<double>(messages) / (Clock::now() - start);
}

// The bare heap loop: the traffic of bare_messages_per_second (NEWS reads, one outstanding per host, each
// request answered at once), each message arriving L + 8 ns after it leaves, events ordered by a binary
// heap on (time, host, sequence). Returns messages per wall second.
double heap_messages_per_second(int hosts, int reads_per_host) {
  struct Event {
    std::int64_t at;
    int host;
    std::uint64_t sequence;
    int from;
    bool request;
    bool operator<(const Event& o) const {
      if (at != o.at) return at > o.at;
      if (host != o.host) return host > o.host;
      return sequence > o.sequence;
    }
  };
  constexpr std::int64_t kDelay = 10'008;
  std::vector<std::array<int, 4>> neighbours;
  for (int h = 0; h < hosts; ++h) neighbours.push_back(cosched::workload::news_neighbours(h, hosts));
  std::vector<int> reads(hosts, 0);
  std::priority_queue<Event> heap;
  std::uint64_t sequence = 0;
  long messages = 0;
  auto start = Clock::now();
  for (int h = 0; h < hosts; ++h) {
    heap.push({kDelay, neighbours[h][0], sequence++, h, true});
    ++messages;
  }
  while (!heap.empty()) {
    const Event e = heap.top();
    heap.pop();
    if (e.request) {
      heap.push({e.at + kDelay, e.from, sequence++, e.host, false});
      ++messages;
    } else if (++reads[e.host] < reads_per_host) {
      heap.push({e.at + kDelay, neighbours[e.host][reads[e.host] % 4], sequence++, e.host, true});
      ++messages;
    }
  }
  const double seconds = (Clock::now() - start);
  return static_cast<double>(messages) / seconds;
}

// Runs `body` in a child process and returns the double it writes back; exits with status 2 if the child
// fails (a bad scenario, say), after the child has printed why.
template <typename Body>
double in_child(Body body) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    try {
      double value = body();
      if (write(fds[1], &value, sizeof value) != sizeof value) _exit(1);
      _exit(0);
    } catch (const std::exception& e) {
      fmt::print(stderr, "now_bench: error: {}\n", e.what());
      std::fflush(stderr);
      _exit(2);
    }
  }
  close(fds[1]);  // else the read below never sees the end of a child that died without writing
  double value = -1;
  if (read(fds[0], &value, sizeof value) != sizeof value) value = -1;
  waitpid(pid, nullptr, 0);
  close(fds[0]);
  if (value < 0) std::exit(2);
  return value;
}

// One run of the scenario under an engine; returns messages per wall second.
double model_messages_per_second(const std::string& file, const std::vector<std::string>& sets,
                                 cosched::now::EngineKind engine) {
  return in_child([&] {
    auto scenario = cosched::config::load_scenario(file, sets);
    cosched::now::RunOptions options;
    options.engine = engine;
    auto start = Clock::now();
    auto out = cosched::now::run(scenario, {}, options);
    double s = (Clock::now() - start);
    fmt::print("{:10} engine: {} messages, makespan {:.4f} s simulated, {:.2f} s CPU\n",
               cosched::now::engine_name(engine), out.messages, out.makespan, s);
    std::fflush(stdout);
    return static_cast<double>(out.messages) / s;
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = std::string(COSCHED_SOURCE_DIR) + "/scenarios/brim-miller/short.yaml";
  std::vector<std::string> sets;
  bool simgrid_engine = true;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--set" && i + 1 < argc) {
      sets.push_back(argv[++i]);
    } else if (arg == "--no-simgrid-engine") {
      simgrid_engine = false;
    } else if (arg == "--help" || arg == "-h") {
      fmt::print(
          "usage: now_bench [SCENARIO] [--set PATH=VALUE]... [--no-simgrid-engine]\n"
          "  SCENARIO defaults to scenarios/brim-miller/short.yaml\n");
      return 0;
    } else {
      file = arg;
    }
  }
  using cosched::now::EngineKind;
  const double sequential = model_messages_per_second(file, sets, EngineKind::Sequential);
  const double simgrid = simgrid_engine ? model_messages_per_second(file, sets, EngineKind::SimGrid) : 0;
  const double bare = in_child([] { return bare_messages_per_second(32, 20000); });
  const double heap = in_child([] { return heap_messages_per_second(32, 2'000'000); });
  fmt::print("scenario                 {}\n", file);
  fmt::print("sequential engine        {:.0f} messages/s\n", sequential);
  if (simgrid_engine) fmt::print("simgrid engine           {:.0f} messages/s\n", simgrid);
  fmt::print("bare SimGrid messages    {:.0f} messages/s (32 hosts, detached 1-byte request and reply)\n",
             bare);
  fmt::print("bare heap loop           {:.0f} messages/s (32 hosts, same request/reply traffic, no model)\n",
             heap);
  fmt::print("sequential / bare SimGrid {:.2f} (target >= 10)\n", sequential / bare);
  fmt::print("sequential / heap loop    {:.3f} (target >= 0.25)\n", sequential / heap);
  if (simgrid_engine) fmt::print("simgrid / bare SimGrid    {:.2f}\n", simgrid / bare);
  return 0;
}
