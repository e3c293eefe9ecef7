#include "numa/hop_network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>

namespace cosched::numa {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("hop network: " + what);
}

void require(bool ok, const char* what) {
  if (!ok) fail(what);
}

// Heap order of the far ends: the earliest clock, then the earliest start.
constexpr auto ends_later = [](const auto& a, const auto& b) {
  return a.at != b.at ? a.at > b.at : a.sequence > b.sequence;
};

}  // namespace

double reference_bandwidth(const platform::NumaTopology& topology, const config::NumaConfig& numa) {
  if (numa.reference_bandwidth > 0) return numa.reference_bandwidth;
  double fastest = 0;
  for (const auto& port : topology.ports)
    if (port.level == topology.levels) fastest = std::max(fastest, port.bandwidth);
  require(fastest > 0, "no port at the bottom level to take the reference bandwidth from");
  return fastest;
}

HopNetwork::HopNetwork(const platform::NumaTopology& topology, const config::NumaConfig& numa)
    : clusters_(static_cast<int>(topology.up.size())), levels_(topology.levels) {
  require(levels_ >= 1 && levels_ <= std::numeric_limits<std::uint8_t>::max() / 2, "levels out of range");
  require(clusters_ >= 1, "no cluster");
  require(topology.clusters.empty() || static_cast<int>(topology.clusters.size()) == clusters_,
          "the up table does not have a row per cluster");
  require(static_cast<int>(topology.down.size()) == clusters_ &&
              static_cast<int>(topology.ancestor.size()) == clusters_,
          "the up, down and ancestor tables differ in length");
  const int port_count = static_cast<int>(topology.ports.size());
  const auto flatten = [&](const std::vector<std::vector<int>>& table, int bound, std::vector<int>& out) {
    out.reserve(static_cast<std::size_t>(clusters_) * static_cast<std::size_t>(levels_));
    for (const auto& row : table) {
      require(static_cast<int>(row.size()) == levels_, "a route table row is not `levels` long");
      for (int entry : row) {
        require(entry >= 0 && entry < bound, "a route table entry is out of range");
        out.push_back(entry);
      }
    }
  };
  flatten(topology.up, port_count, up_);
  flatten(topology.down, port_count, down_);
  flatten(topology.ancestor, static_cast<int>(topology.switches.size()), ancestor_);
  for (int c = 0; c < clusters_; ++c)
    require(ancestor_[c * levels_ + levels_ - 1] == ancestor_[levels_ - 1],
            "the clusters have no common root");

  const double reference = reference_bandwidth(topology, numa);
  const auto sizes = message_bytes(numa);
  for (int kind = 0; kind < kMessageKinds; ++kind) bytes_[kind] = sizes[kind];
  ports_.resize(topology.ports.size());
  for (std::size_t p = 0; p < topology.ports.size(); ++p) {
    const auto& given = topology.ports[p];
    require(given.level >= 1 && given.level <= levels_, "a port's level is out of range");
    require(given.capacity == -1 || given.capacity >= 1, "a port's capacity is neither -1 nor positive");
    PortState& port = ports_[p];
    // A28: finite output buffers, the switch's input lines; numa.buffers false makes every one unlimited.
    port.capacity = numa.buffers && given.capacity != -1 ? given.capacity : std::numeric_limits<int>::max();
    port.level_index = given.level - 1;
    for (int kind = 0; kind < kMessageKinds; ++kind)
      port.hop_clocks[kind] = hop_clocks(numa, reference, sizes[kind], given.bandwidth);
  }
  traffic_.resize(static_cast<std::size_t>(levels_));
  Clock longest = 1;
  for (const PortState& port : ports_)
    for (Clock clocks : port.hop_clocks) longest = std::max(longest, clocks);
  std::uint64_t buckets = 64;
  while (buckets <= static_cast<std::uint64_t>(longest) && buckets < kMostBuckets) buckets *= 2;
  bucket_mask_ = buckets - 1;
  bucket_head_.assign(buckets, kNone);
  bucket_tail_.assign(buckets, kNone);
  occupied_.assign(buckets / 64, 0);
}

int HopNetwork::height_of_lca(int a, int b) const {
  if (a == b) return 0;
  const int* above_a = &ancestor_[a * levels_];
  const int* above_b = &ancestor_[b * levels_];
  for (int k = 0; k < levels_; ++k)
    if (above_a[k] == above_b[k]) return k + 1;
  fail(fmt::format("clusters {} and {} have no common switch", a, b));
}

// A route of LCA height h: up[from][0..h-1], then down[to][h-1..0] (platform/numa_topology.hpp).
int HopNetwork::port_of(const MessageSlot& slot, int hop) const {
  const int height = slot.height;
  return hop < height ? up_[slot.message.from * levels_ + hop]
                      : down_[slot.message.to * levels_ + (2 * height - 1 - hop)];
}

void HopNetwork::push_waiter(int port, int waiter) {
  PortState& target = ports_[port];
  ports_[waiter].next_waiter = kNone;
  if (target.waiters_tail == kNone)
    target.waiters_head = waiter;
  else
    ports_[target.waiters_tail].next_waiter = waiter;
  target.waiters_tail = waiter;
}

// Thesis 4.2.2: the head message crosses when the link is free and the next node has a free output buffer
// entry (the destination cluster always takes it); it reserves the entry as it starts. Otherwise it blocks
// its port, head-of-line (A28: blocking, no message is dropped).
void HopNetwork::try_start(int p, Clock now) {
  PortState& port = ports_[p];
  if (port.link_busy || port.queue_head == kNone || port.waiting_on != kNone) return;
  MessageSlot& message = slots_[port.queue_head];
  if (message.hop + 1 < 2 * message.height) {
    const int next = port_of(message, message.hop + 1);
    PortState& next_port = ports_[next];
    if (next_port.occupancy >= next_port.capacity) {
      if (port.blocked_since < 0) port.blocked_since = now;
      port.waiting_on = next;
      push_waiter(next, p);
      return;
    }
    ++next_port.occupancy;
  }
  LevelTraffic& level = traffic_[port.level_index];
  if (port.blocked_since >= 0) {
    level.blocked_clocks += now - port.blocked_since;
    level.queued_clocks += port.blocked_since - message.ready_at;
    port.blocked_since = -1;
  } else {
    level.queued_clocks += now - message.ready_at;
  }
  port.link_busy = true;
  const auto kind = static_cast<int>(message.message.kind);
  schedule_end(p, now, now + port.hop_clocks[kind]);
}

void HopNetwork::schedule_end(int p, Clock now, Clock at) {
  if (static_cast<std::uint64_t>(at - now) > bucket_mask_) {
    far_ends_.push_back({at, far_sequence_++, p});
    std::push_heap(far_ends_.begin(), far_ends_.end(), ends_later);
    return;
  }
  const std::uint64_t bucket = static_cast<std::uint64_t>(at) & bucket_mask_;
  ports_[p].next_end = kNone;
  if (bucket_tail_[bucket] == kNone)
    bucket_head_[bucket] = p;
  else
    ports_[bucket_tail_[bucket]].next_end = p;
  bucket_tail_[bucket] = p;
  occupied_[bucket >> 6] |= std::uint64_t{1} << (bucket & 63);
  ++near_ends_;
}

// The first non-empty bucket from now_'s, cyclically; only called with near ends pending.
Clock HopNetwork::earliest_near_end() const {
  const std::uint64_t start = static_cast<std::uint64_t>(now_) & bucket_mask_;
  const std::size_t words = occupied_.size();
  std::size_t word = start >> 6;
  std::uint64_t bits = occupied_[word] & (~std::uint64_t{0} << (start & 63));
  for (std::size_t scanned = 0; bits == 0 && scanned < words; ++scanned) {
    word = word + 1 == words ? 0 : word + 1;
    bits = occupied_[word];
  }
  const std::uint64_t bucket = word * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
  return now_ + static_cast<Clock>((bucket - start) & bucket_mask_);
}

std::optional<HopNetwork::End> HopNetwork::pop_end(Clock limit) {
  constexpr Clock kNever = std::numeric_limits<Clock>::max();
  const Clock near = near_ends_ > 0 ? earliest_near_end() : kNever;
  const Clock far = far_ends_.empty() ? kNever : far_ends_.front().at;
  // A far end began at least a calendar's length before its clock, so before every near end of that clock.
  if (far <= near) {
    if (far > limit) return std::nullopt;
    std::pop_heap(far_ends_.begin(), far_ends_.end(), ends_later);
    const FarEnd end = far_ends_.back();
    far_ends_.pop_back();
    return End{end.at, end.port};
  }
  if (near > limit) return std::nullopt;
  const std::uint64_t bucket = static_cast<std::uint64_t>(near) & bucket_mask_;
  const int p = bucket_head_[bucket];
  bucket_head_[bucket] = ports_[p].next_end;
  if (bucket_head_[bucket] == kNone) {
    bucket_tail_[bucket] = kNone;
    occupied_[bucket >> 6] &= ~(std::uint64_t{1} << (bucket & 63));
  }
  --near_ends_;
  return End{near, p};
}

std::optional<int> HopNetwork::finish_crossing(int p, Clock at) {
  PortState& port = ports_[p];
  const int slot = port.queue_head;
  MessageSlot& message = slots_[slot];
  port.queue_head = message.next;
  if (port.queue_head == kNone) port.queue_tail = kNone;
  port.link_busy = false;
  --port.occupancy;
  const auto kind = static_cast<int>(message.message.kind);
  LevelTraffic& level = traffic_[port.level_index];
  ++level.hops[kind];
  level.bytes += bytes_[kind];
  ++events_;

  std::optional<int> delivered;
  if (message.hop + 1 == 2 * message.height) {
    delivered = slot;
  } else {
    // Store and forward: the whole message is now in the next node's buffer, whose entry it reserved.
    ++message.hop;
    const int next = port_of(message, message.hop);
    PortState& next_port = ports_[next];
    message.ready_at = at;
    message.next = kNone;
    if (next_port.queue_tail == kNone)
      next_port.queue_head = slot;
    else
      slots_[next_port.queue_tail].next = slot;
    next_port.queue_tail = slot;
    try_start(next, at);
  }
  // The freed entry goes to the port that has waited for it longest.
  if (port.waiters_head != kNone) {
    const int waiter = port.waiters_head;
    port.waiters_head = ports_[waiter].next_waiter;
    if (port.waiters_head == kNone) port.waiters_tail = kNone;
    ports_[waiter].waiting_on = kNone;
    try_start(waiter, at);
  }
  try_start(p, at);
  return delivered;
}

Delivery HopNetwork::take(int slot, Clock at) {
  Delivery delivery{at, slots_[slot].message};
  slots_[slot].next = free_slot_;
  free_slot_ = slot;
  return delivery;
}

void HopNetwork::advance_to(Clock time) {
  while (auto end = pop_end(time)) {
    now_ = end->at;
    if (auto slot = finish_crossing(end->port, end->at)) pending_.push_back(take(*slot, end->at));
  }
  now_ = time;
}

void HopNetwork::send(const Message& m, Clock now) {
  if (now < now_) fail(fmt::format("send at {}, before the network's time {}", now, now_));
  if (m.from < 0 || m.from >= clusters_ || m.to < 0 || m.to >= clusters_)
    fail(fmt::format("a message from {} to {}: no such cluster", m.from, m.to));
  if (now > now_) advance_to(now);
  ++in_flight_;
  if (m.from == m.to) {
    pending_.push_back({now, m});
    return;
  }
  int slot = free_slot_;
  if (slot != kNone) {
    free_slot_ = slots_[slot].next;
  } else {
    slot = static_cast<int>(slots_.size());
    slots_.emplace_back();
  }
  MessageSlot& message = slots_[slot];
  message.message = m;
  message.ready_at = now;
  message.next = kNone;
  message.height = static_cast<std::uint8_t>(height_of_lca(m.from, m.to));
  message.hop = 0;
  // The injection port (up[from][0]): unlimited, the cluster holds what it has not sent yet.
  const int p = up_[m.from * levels_];
  PortState& port = ports_[p];
  ++port.occupancy;
  if (port.queue_tail == kNone)
    port.queue_head = slot;
  else
    slots_[port.queue_tail].next = slot;
  port.queue_tail = slot;
  try_start(p, now);
}

std::optional<Delivery> HopNetwork::next_delivery(Clock limit) {
  if (limit < now_) fail(fmt::format("next_delivery up to {}, before the network's time {}", limit, now_));
  if (pending_next_ < pending_.size()) {
    const Delivery delivery = pending_[pending_next_++];
    if (pending_next_ == pending_.size()) {
      pending_.clear();
      pending_next_ = 0;
    }
    --in_flight_;
    return delivery;
  }
  while (auto end = pop_end(limit)) {
    now_ = end->at;
    if (auto slot = finish_crossing(end->port, end->at)) {
      --in_flight_;
      return take(*slot, end->at);
    }
  }
  now_ = limit;
  return std::nullopt;
}

std::vector<LevelTraffic> HopNetwork::traffic() const {
  std::vector<LevelTraffic> result = traffic_;
  for (const PortState& port : ports_) {
    LevelTraffic& level = result[port.level_index];
    int slot = port.queue_head;
    if (port.link_busy) slot = slots_[slot].next;  // the crossing message waits no more
    for (bool head = !port.link_busy; slot != kNone; slot = slots_[slot].next, head = false) {
      const MessageSlot& message = slots_[slot];
      if (head && port.blocked_since >= 0) {
        level.blocked_clocks += now_ - port.blocked_since;
        level.queued_clocks += port.blocked_since - message.ready_at;
      } else {
        level.queued_clocks += now_ - message.ready_at;
      }
    }
  }
  return result;
}

}  // namespace cosched::numa
