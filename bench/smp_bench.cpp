// SMP model speed: simulated events per CPU second on a loaded configuration (bench/smp-loaded.yaml),
// for the machine alone and for the whole SimGrid-driven run, next to the ceiling of a bare C++
// binary-heap event loop doing the same number of events on 32 "CPUs".
//
// The same scenario also runs under Linux SCHED_OTHER with SMART wakeups (scheduler.policy: linux24).
// Every machine-alone run is followed by a bare heap loop of the same event count, and the ratios of these
// pairs are reported (median, min, max) with the ratio of the best rates: the machine is shared with other
// work, so rates measured far apart in time are not comparable. Times are the process's CPU time, not wall
// time, so that other work on the machine does not count as this run's.
//
// A third part runs a parallel-loop job (bench/smp-loop.yaml: a million iterations per phase, dynamic chunks
// of 1) and reports its rate against the same bare heap loop (issue 23: at least 0.2 of it).
//
// Usage: smp_bench [SCENARIO] [REPEATS] [all|linux|rr|loop]   (linux, rr or loop: only that part)

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <queue>
#include <random>
#include <vector>

#include "scenario/loader.hpp"
#include "smp/setup.hpp"
#include "smp/simulation.hpp"

namespace {

// CPU seconds used by this process so far (it is single-threaded: SimGrid's actors run in its one thread).
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double seconds_since(double start) {
  return cpu_seconds() - start;
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
  const double start = cpu_seconds();
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

// Machine-alone rates over `repeats` runs, each followed by a bare heap loop of the same event count, so that
// every run has a ratio against a ceiling measured right after it (the machine is shared: rates drift).
struct MachineRates {
  double best = 0;             // best machine rate
  double best_heap = 0;        // best bare heap rate
  std::vector<double> ratios;  // per run: machine rate / the heap rate measured right after it
  std::uint64_t events = 0;
  std::int64_t makespan = 0;
};

MachineRates machine_rates(const cosched::config::Scenario& scenario, int cpus, int repeats) {
  MachineRates rates;
  for (int r = 0; r < repeats; ++r) {
    const double start = cpu_seconds();
    auto machine = cosched::smp::build_machine(scenario, cpus);
    while (machine.run_until(machine.now() + 1'000'000)) {
    }
    double s = seconds_since(start);
    rates.events = machine.events();
    rates.makespan = machine.now();
    const double rate = static_cast<double>(rates.events) / s;
    const double heap = bare_heap_events_per_second(rates.events, cpus);
    rates.best = std::max(rates.best, rate);
    rates.best_heap = std::max(rates.best_heap, heap);
    rates.ratios.push_back(rate / heap);
  }
  std::sort(rates.ratios.begin(), rates.ratios.end());
  return rates;
}

void print_paired(const MachineRates& rates) {
  const auto& r = rates.ratios;
  fmt::print("  paired ratios         median {:.3f}, min {:.3f}, max {:.3f} over {} runs; best/best {:.3f}\n",
             r[r.size() / 2], r.front(), r.back(), r.size(), rates.best / rates.best_heap);
}

int main(int argc, char** argv) {
  using namespace cosched;
  const std::string file = argc > 1 ? argv[1] : std::string(COSCHED_SOURCE_DIR) + "/bench/smp-loaded.yaml";
  const int repeats = argc > 2 ? std::stoi(argv[2]) : 5;
  const std::string part = argc > 3 ? argv[3] : "all";
  if (part != "all" && part != "linux" && part != "rr" && part != "loop" && part != "eevdf") {
    fmt::print(stderr, "smp_bench: the third argument is all, linux, rr, loop or eevdf, not '{}'\n", part);
    return 2;
  }
  if (part == "all" || part == "loop") {
    auto loop_scenario = config::load_scenario(std::string(COSCHED_SOURCE_DIR) + "/bench/smp-loop.yaml");
    const auto rates =
        machine_rates(loop_scenario, std::get<config::SmpConfig>(loop_scenario.model_config).cpus, repeats);
    fmt::print(
        "loop dynamic chunk 1  {:.2f} M events/s (best of {}), {} events; bare heap {:.2f} M events/s "
        "(best); target: ratio >= 0.2\n",
        rates.best / 1e6, repeats, rates.events, rates.best_heap / 1e6);
    print_paired(rates);
    if (part == "loop") return 0;
  }
  if (part != "rr") {
    auto linux_scenario = config::load_scenario(file, {"scheduler.policy=linux24", "scheduler.wakeup=smart"});
    const auto rates =
        machine_rates(linux_scenario, std::get<config::SmpConfig>(linux_scenario.model_config).cpus, repeats);
    fmt::print(
        "linux24 + smart       {:.2f} M events/s (best of {}), {} events; bare heap {:.2f} M events/s "
        "(best); "
        "target: ratio >= 0.25\n",
        rates.best / 1e6, repeats, rates.events, rates.best_heap / 1e6);
    print_paired(rates);
    if (part == "all" || part == "eevdf") {
      // Issue 33's target: the same workload under eevdf (6.12's defaults) in at most 1.5 times linux24's CPU
      // time per run (their event counts differ: the run is the unit).
      auto fair_scenario = config::load_scenario(file, {"scheduler={policy: eevdf, quantum: 100, cs_in: 3%, "
                                                        "cs_out: 3%, shuffle: true}"});
      const auto fair =
          machine_rates(fair_scenario, std::get<config::SmpConfig>(fair_scenario.model_config).cpus, repeats);
      const double linux_run = static_cast<double>(rates.events) / rates.best;
      const double fair_run = static_cast<double>(fair.events) / fair.best;
      fmt::print("eevdf (6.12)          {:.2f} M events/s (best of {}), {} events; {:.3f} s per run against "
                 "linux24's {:.3f} s: ratio {:.2f} (target <= 1.5)\n",
                 fair.best / 1e6, repeats, fair.events, fair_run, linux_run, fair_run / linux_run);
    }
  }
  if (part == "linux" || part == "eevdf") return 0;
  auto scenario = config::load_scenario(file);
  const auto& smp = std::get<config::SmpConfig>(scenario.model_config);

  const auto rr = machine_rates(scenario, smp.cpus, repeats);
  const double start = cpu_seconds();
  const auto record = smp::run(scenario, {});
  double simgrid_rate = static_cast<double>(record.events) / seconds_since(start);
  double ceiling = bare_heap_events_per_second(rr.events, smp.cpus);

  fmt::print("scenario              {}\n", file);
  fmt::print("events per run        {}  (makespan {} cycles)\n", rr.events, rr.makespan);
  fmt::print("machine alone         {:.2f} M events/s (best of {})\n", rr.best / 1e6, repeats);
  print_paired(rr);
  fmt::print("full run on SimGrid   {:.2f} M events/s\n", simgrid_rate / 1e6);
  fmt::print("bare binary heap      {:.2f} M events/s (after the full run)\n", ceiling / 1e6);
  fmt::print("ratio to ceiling      full run {:.2f} (target >= 0.25)\n", simgrid_rate / ceiling);
  return 0;
}
