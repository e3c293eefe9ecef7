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
// With --scale, instead: the sequential engine's CPU time per message and peak memory on the scaling
// scenarios (scenarios/scale/news-{32,128,512,1024}.yaml), the sizes alternated for ROUNDS rounds (default
// 3), the median of each size, and the ratio of the cost per message at the largest size to the smallest.
// The time is that of the run itself (preparing, driving, collecting), not the process's start-up.
//
// Usage: now_bench [SCENARIO] [--set PATH=VALUE ...] [--no-simgrid-engine]
//        now_bench --scale [--rounds ROUNDS]

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <queue>
#include <simgrid/s4u.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "scenario/loader.hpp"
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
// time; a request is answered at once with a reply. Returns messages per CPU second.
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
// heap on (time, host, sequence). Returns messages per CPU second.
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

// Runs `body` in a child process and returns the value (a double, or a struct of them) it writes back;
// exits with status 2 if the child fails (a bad scenario, say), after the child has printed why.
template <typename Body>
auto in_child(Body body) -> decltype(body()) {
  using Value = decltype(body());
  static_assert(std::is_trivially_copyable_v<Value>);
  int fds[2];
  if (pipe(fds) != 0) std::exit(2);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    try {
      const Value value = body();
      if (write(fds[1], &value, sizeof value) != sizeof value) _exit(1);
      _exit(0);
    } catch (const std::exception& e) {
      fmt::print(stderr, "now_bench: error: {}\n", e.what());
      std::fflush(stderr);
      _exit(2);
    }
  }
  close(fds[1]);  // else the read below never sees the end of a child that died without writing
  Value value{};
  const bool got = read(fds[0], &value, sizeof value) == sizeof value;
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(2);
  return value;
}

// One run of a scenario under an engine, in its own process: its messages, its simulated makespan, the
// CPU time of the run itself (not the process's start-up) and the process's peak resident memory.
struct TimedRun {
  double messages = 0;
  double makespan = 0;
  double cpu_seconds = 0;
  double peak_mib = 0;
};

TimedRun timed_run(const std::string& file, const std::vector<std::string>& sets,
                   cosched::now::EngineKind engine) {
  return in_child([&] {
    auto scenario = cosched::config::load_scenario(file, sets);
    cosched::now::RunOptions options;
    options.engine = engine;
    auto start = Clock::now();
    auto out = cosched::now::run(scenario, {}, options);
    TimedRun run;
    run.cpu_seconds = Clock::now() - start;
    run.messages = static_cast<double>(out.messages);
    run.makespan = out.makespan;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    run.peak_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
    return run;
  });
}

// One run of the scenario under an engine; returns messages per CPU second.
double model_messages_per_second(const std::string& file, const std::vector<std::string>& sets,
                                 cosched::now::EngineKind engine) {
  const TimedRun run = timed_run(file, sets, engine);
  fmt::print("{:10} engine: {:.0f} messages, makespan {:.4f} s simulated, {:.2f} s CPU\n",
             cosched::now::engine_name(engine), run.messages, run.makespan, run.cpu_seconds);
  std::fflush(stdout);
  return run.messages / run.cpu_seconds;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int scale(int rounds) {
  const std::vector<int> sizes = {32, 128, 512, 1024};
  std::vector<std::vector<TimedRun>> points(sizes.size());
  for (int round = 1; round <= rounds; ++round) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto file = fmt::format("{}/scenarios/scale/news-{}.yaml", COSCHED_SOURCE_DIR, sizes[i]);
      const TimedRun point = timed_run(file, {}, cosched::now::EngineKind::Sequential);
      points[i].push_back(point);
      fmt::print("round {} news-{:<5} {:>11.0f} messages {:8.3f} s CPU {:7.1f} ns/message {:6.1f} MiB\n",
                 round, sizes[i], point.messages, point.cpu_seconds, point.cpu_seconds / point.messages * 1e9,
                 point.peak_mib);
      std::fflush(stdout);
    }
  }
  fmt::print("\nworkstations  messages     ns/message (median of {})  messages/s   peak memory\n", rounds);
  std::vector<double> cost(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::vector<double> per_message;
    std::vector<double> peak;
    for (const auto& p : points[i]) {
      per_message.push_back(p.cpu_seconds / p.messages * 1e9);
      peak.push_back(p.peak_mib);
    }
    cost[i] = median(per_message);
    fmt::print("{:>12}  {:>11.0f}  {:>10.1f}                 {:>10.0f}   {:6.1f} MiB\n", sizes[i],
               points[i].front().messages, cost[i], 1e9 / cost[i], median(peak));
  }
  fmt::print("cost per message, {} / {} workstations: {:.2f} (target <= 1.5)\n", sizes.back(), sizes.front(),
             cost.back() / cost.front());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = std::string(COSCHED_SOURCE_DIR) + "/scenarios/brim-miller/short.yaml";
  std::vector<std::string> sets;
  bool simgrid_engine = true;
  bool scaling = false;
  int rounds = 3;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--scale") {
      scaling = true;
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
      if (rounds < 1) {
        fmt::print(stderr, "now_bench: error: --rounds: expected a positive integer, got '{}'\n", argv[i]);
        return 2;
      }
    } else if (arg == "--set" && i + 1 < argc) {
      sets.push_back(argv[++i]);
    } else if (arg == "--no-simgrid-engine") {
      simgrid_engine = false;
    } else if (arg == "--help" || arg == "-h") {
      fmt::print(
          "usage: now_bench [SCENARIO] [--set PATH=VALUE]... [--no-simgrid-engine]\n"
          "       now_bench --scale [--rounds ROUNDS]\n"
          "  SCENARIO defaults to scenarios/brim-miller/short.yaml\n"
          "  --scale: CPU time per message and peak memory on "
          "scenarios/scale/news-{{32,128,512,1024}}.yaml\n");
      return 0;
    } else {
      file = arg;
    }
  }
  if (scaling) return scale(rounds);
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
