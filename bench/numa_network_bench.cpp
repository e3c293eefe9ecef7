// NUMA hop-level network speed (src/numa/hop_network.hpp): messages and hops per CPU second on a w488-shaped
// tree (fan-out 4, 8, 8: 256 clusters, 37 switches, buffers of 9, 9 and 4 entries) built here by hand, so no
// platform file or SimGrid engine is involved. Three closed-loop workloads:
//   uniform communication: every cluster keeps WINDOW messages of 16 B in flight to uniformly random
//   clusters; uniform pages: the same with pages (4096 B, 50 clocks a hop at the bottom level's bandwidth);
//   update broadcast: WRITERS writers, each sending an update to every other cluster (255) and waiting for
//   every acknowledgement before its next write from a new random cluster (the DSM's update protocol).
// Times are the process's CPU time, not wall time, so that other work on the machine does not count.
//
// Usage: numa_network_bench [MESSAGES] [WINDOW] [WRITERS]   (defaults 2000000 4 16)

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <random>
#include <vector>

#include "numa/hop_network.hpp"

namespace {

using cosched::numa::Clock;
using cosched::numa::HopNetwork;
using cosched::numa::Message;
using cosched::numa::MessageKind;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// A uniform tree of the given fan-outs (root first) with the conventions of platform/numa_platform.hpp:
// clusters numbered left to right, switches level by level, a port's capacity the input lines of the switch
// it leaves (children + 1, the root: children), -1 for a cluster's injection port.
cosched::platform::NumaTopology uniform_tree(const std::vector<int>& fanout, double bandwidth) {
  cosched::platform::NumaTopology t;
  t.levels = static_cast<int>(fanout.size());
  t.fanout = fanout;
  const int levels = t.levels;
  // below[l]: clusters under one switch of level l + 1; first_switch[l]: the first switch of level l + 1.
  std::vector<int> below(levels), first_switch(levels + 1, 0);
  int clusters = 1;
  for (int l = levels - 1; l >= 0; --l) below[l] = clusters *= fanout[l];
  for (int l = 0, count = 1; l < levels; ++l) {
    first_switch[l + 1] = first_switch[l] + count;
    if (l + 1 < levels) count *= fanout[l];
  }
  const auto input_lines = [&](int level) { return fanout[level - 1] + (level > 1 ? 1 : 0); };
  // Switches, their up port (to the parent) and the parent's down port (to them).
  std::vector<int> up_port, down_port;
  for (int l = 0, count = 1; l < levels; count *= fanout[l], ++l) {
    for (int i = 0; i < count; ++i) {
      const int parent = l == 0 ? -1 : first_switch[l - 1] + i / fanout[l - 1];
      t.switches.push_back(
          {fmt::format("s{}-{}", l + 1, i), l + 1, parent, i * below[l], below[l], input_lines(l + 1)});
      if (l == 0) {
        up_port.push_back(-1);
        down_port.push_back(-1);
        continue;
      }
      up_port.push_back(static_cast<int>(t.ports.size()));
      t.ports.push_back({fmt::format("s{}-{}-up", l + 1, i), l, bandwidth, input_lines(l + 1)});
      down_port.push_back(static_cast<int>(t.ports.size()));
      t.ports.push_back({fmt::format("s{}-{}-down", l + 1, i), l, bandwidth, input_lines(l)});
    }
  }
  for (int c = 0; c < clusters; ++c) {
    std::vector<int> ancestor(levels);
    for (int k = 0; k < levels; ++k) {
      const int level = levels - k;  // height k + 1
      ancestor[k] = first_switch[level - 1] + c / below[level - 1];
    }
    std::vector<int> up(levels), down(levels);
    up[0] = static_cast<int>(t.ports.size());
    t.ports.push_back({fmt::format("c{}-up", c), levels, bandwidth, -1});
    down[0] = static_cast<int>(t.ports.size());
    t.ports.push_back({fmt::format("c{}-down", c), levels, bandwidth, input_lines(levels)});
    for (int k = 1; k < levels; ++k) {
      up[k] = up_port[ancestor[k - 1]];
      down[k] = down_port[ancestor[k - 1]];
    }
    t.up.push_back(up);
    t.down.push_back(down);
    t.ancestor.push_back(ancestor);
  }
  return t;
}

struct Result {
  std::uint64_t checksum = 0;  // of every delivery's clock, source and destination, in order
  std::uint64_t messages = 0;
  std::uint64_t hops = 0;
  Clock clocks = 0;
  double seconds = 0;
  std::vector<cosched::numa::LevelTraffic> traffic;
};

void print(const char* name, const Result& r) {
  fmt::print(
      "{:<22} {:>9} msgs {:>10} hops {:>11} clk {:>7.2f} s  {:>6.2f} M msgs/s {:>6.2f} M hops/s {:>6.1f} M "
      "clk/s\n",
      name, r.messages, r.hops, r.clocks, r.seconds, r.messages / r.seconds * 1e-6, r.hops / r.seconds * 1e-6,
      r.clocks / r.seconds * 1e-6);
  fmt::print("    deliveries checksum {:016x}\n", r.checksum);
  for (std::size_t l = 0; l < r.traffic.size(); ++l) {
    const auto& t = r.traffic[l];
    fmt::print("    level {}: hops {:>10}  blocked {:>12} clk  queued {:>12} clk\n", l + 1,
               t.hops[0] + t.hops[1] + t.hops[2], t.blocked_clocks, t.queued_clocks);
  }
}

int random_other(std::mt19937_64& engine, int clusters, int not_this) {
  const int pick = static_cast<int>(engine() % static_cast<std::uint64_t>(clusters - 1));
  return pick >= not_this ? pick + 1 : pick;
}

constexpr Clock kForever = std::numeric_limits<Clock>::max();

// Every cluster keeps `window` messages of `kind` in flight; each delivery makes its sender send another.
Result uniform(const cosched::platform::NumaTopology& tree, MessageKind kind, std::uint64_t messages,
               int window) {
  HopNetwork network(tree, cosched::config::NumaConfig{});
  const int clusters = static_cast<int>(tree.up.size());
  std::mt19937_64 engine(1);
  const double start = cpu_seconds();
  for (int c = 0; c < clusters; ++c)
    for (int w = 0; w < window; ++w) network.send({c, random_other(engine, clusters, c), kind, 0}, 0);
  Result r;
  while (r.messages < messages) {
    const auto d = network.next_delivery(kForever);
    ++r.messages;
    r.checksum =
        (r.checksum ^ (static_cast<std::uint64_t>(d->at) * 65536 + d->message.from * 256 + d->message.to)) *
        0x100000001b3;
    const int from = d->message.from;
    network.send({from, random_other(engine, clusters, from), kind, 0}, d->at);
    r.clocks = d->at;
  }
  r.seconds = cpu_seconds() - start;
  r.hops = network.events();
  r.traffic = network.traffic();
  return r;
}

// `writers` concurrent writes: an update to every other cluster, each acknowledged; a writer's next write
// leaves from a new random cluster when its last acknowledgement is back. Tags: writer, and 1 for an update.
Result broadcast(const cosched::platform::NumaTopology& tree, std::uint64_t messages, int writers) {
  HopNetwork network(tree, cosched::config::NumaConfig{});
  const int clusters = static_cast<int>(tree.up.size());
  std::mt19937_64 engine(2);
  std::vector<int> acks_missing(writers);
  const auto write = [&](int writer, Clock now) {
    const int from = static_cast<int>(engine() % static_cast<std::uint64_t>(clusters));
    for (int to = 0; to < clusters; ++to)
      if (to != from)
        network.send({from, to, MessageKind::Update, static_cast<std::uint64_t>(writer) << 1 | 1}, now);
    acks_missing[writer] = clusters - 1;
  };
  const double start = cpu_seconds();
  for (int w = 0; w < writers; ++w) write(w, 0);
  Result r;
  while (r.messages < messages) {
    const auto d = network.next_delivery(kForever);
    ++r.messages;
    r.checksum =
        (r.checksum ^ (static_cast<std::uint64_t>(d->at) * 65536 + d->message.from * 256 + d->message.to)) *
        0x100000001b3;
    r.clocks = d->at;
    const int writer = static_cast<int>(d->message.tag >> 1);
    if (d->message.tag & 1)
      network.send(
          {d->message.to, d->message.from, MessageKind::Communication, d->message.tag & ~std::uint64_t{1}},
          d->at);
    else if (--acks_missing[writer] == 0)
      write(writer, d->at);
  }
  r.seconds = cpu_seconds() - start;
  r.hops = network.events();
  r.traffic = network.traffic();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t messages = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  const int window = argc > 2 ? std::atoi(argv[2]) : 4;
  const int writers = argc > 3 ? std::atoi(argv[3]) : 16;
  if (messages == 0 || window < 1 || writers < 1) {
    fmt::print(stderr, "usage: numa_network_bench [MESSAGES] [WINDOW] [WRITERS]\n");
    return 2;
  }
  const auto tree = uniform_tree({4, 8, 8}, 81.92e9);
  fmt::print(
      "w488 by hand: {} clusters, {} switches, {} ports; {} messages per workload, window {}, {} writers\n",
      tree.up.size(), tree.switches.size(), tree.ports.size(), messages, window, writers);
  print("uniform communication", uniform(tree, MessageKind::Communication, messages, window));
  print("uniform pages", uniform(tree, MessageKind::Page, messages, window));
  print("update broadcast", broadcast(tree, messages, writers));
  return 0;
}
