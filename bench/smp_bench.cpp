// SMP model speed: simulated events per wall second on a loaded configuration (bench/smp-loaded.yaml),
// for the machine alone and for the whole SimGrid-driven run, next to the ceiling of a bare C++
// binary-heap event loop doing the same number of events on 32 "CPUs".
//
// The same scenario then runs again under Linux SCHED_OTHER with SMART wakeups (scheduler.policy: linux24),
// its machine rate reported against a bare heap loop measured for its own event count.
//
// Usage: smp_bench [SCENARIO] [REPEATS] [all|linux|rr]   (linux or rr: only that part, e.g. to profile it)

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <queue>
#include <random>
#include <vector>

#include "config/loader.hpp"
#include "smp/setup.hpp"
#include "smp/simulation.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The reference ceiling: a binary heap of (time, cpu) events, each handler scheduling the CPU's next event.
double bare_heap_events_per_second(std::uint64_t events, int cpus) {
  struct Event {
    std::int64_t time;
    int cpu;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : cpu > o.cpu; }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap;
  std::mt19937_64 engine(1);
  for (int c = 0; c < cpus; ++c) heap.push({static_cast<std::int64_t>(engine() % 16), c});
  std::uint64_t checksum = 0;
  auto start = Clock::now();
  for (std::uint64_t i = 0; i < events; ++i) {
    Event e = heap.top();
    heap.pop();
    checksum += static_cast<std::uint64_t>(e.time) ^ static_cast<std::uint64_t>(e.cpu);
    heap.push({e.time + 1 + static_cast<std::int64_t>(engine() % 16), e.cpu});
  }
  double s = seconds_since(start);
  if (checksum == 42) fmt::print("(checksum)\n");
  return static_cast<double>(events) / s;
}

}  // namespace

// Best machine-alone rate over `repeats` runs; sets the event count of a run.
double machine_rate(const cosched::config::Scenario& scenario, int cpus, int repeats, std::uint64_t& events) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    auto start = Clock::now();
    auto machine = cosched::smp::build_machine(scenario, cpus);
    while (machine.run_until(machine.now() + 1'000'000)) {
    }
    double s = seconds_since(start);
    events = machine.events();
    best = std::max(best, static_cast<double>(events) / s);
  }
  return best;
}

int main(int argc, char** argv) {
  using namespace cosched;
  const std::string file = argc > 1 ? argv[1] : std::string(COSCHED_SOURCE_DIR) + "/bench/smp-loaded.yaml";
  const int repeats = argc > 2 ? std::stoi(argv[2]) : 5;
  const std::string part = argc > 3 ? argv[3] : "all";
  if (part != "all" && part != "linux" && part != "rr") {
    fmt::print(stderr, "smp_bench: the third argument is all, linux or rr, not '{}'\n", part);
    return 2;
  }
  if (part != "rr") {
    auto linux_scenario = config::load_scenario(file, {"scheduler.policy=linux24", "scheduler.wakeup=smart"});
    std::uint64_t linux_events = 0;
    const double linux_rate = machine_rate(
        linux_scenario, std::get<config::SmpConfig>(linux_scenario.model_config).cpus, repeats, linux_events);
    const double linux_ceiling = bare_heap_events_per_second(
        linux_events, std::get<config::SmpConfig>(linux_scenario.model_config).cpus);
    fmt::print(
        "linux24 + smart       {:.2f} M events/s, {} events; bare heap {:.2f} M events/s; ratio {:.2f} "
        "(target >= 0.25)\n",
        linux_rate / 1e6, linux_events, linux_ceiling / 1e6, linux_rate / linux_ceiling);
  }
  if (part == "linux") return 0;
  auto scenario = config::load_scenario(file);
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);

  double best = 0;
  std::uint64_t events = 0;
  std::int64_t makespan = 0;
  for (int r = 0; r < repeats; ++r) {
    auto start = Clock::now();
    auto machine = smp::build_machine(scenario, smp.cpus);
    while (machine.run_until(machine.now() + 1'000'000)) {
    }
    double s = seconds_since(start);
    events = machine.events();
    makespan = machine.now();
    best = std::max(best, static_cast<double>(events) / s);
  }
  auto start = Clock::now();
  auto summary = smp::run(scenario, {});
  double simgrid_rate = static_cast<double>(summary["events"].get<std::uint64_t>()) / seconds_since(start);
  double ceiling = bare_heap_events_per_second(events, smp.cpus);

  fmt::print("scenario              {}\n", file);
  fmt::print("events per run        {}  (makespan {} cycles)\n", events, makespan);
  fmt::print("machine alone         {:.2f} M events/s (best of {})\n", best / 1e6, repeats);
  fmt::print("full run on SimGrid   {:.2f} M events/s\n", simgrid_rate / 1e6);
  fmt::print("bare binary heap      {:.2f} M events/s (ceiling)\n", ceiling / 1e6);
  fmt::print("ratio to ceiling      machine {:.2f}, full run {:.2f} (target >= 0.25)\n", best / ceiling,
             simgrid_rate / ceiling);
  return 0;
}
