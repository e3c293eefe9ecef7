#pragma once
// A process's sync points (thesis 4.2.3, A6-A8; docs/models/numa.md section 6.5): the interval between them,
// which threads meet at each, who coordinates, and the arrivals. Points are drawn in order on the process's
// own random stream, when the first thread reaches one, and forgotten once every thread has passed them and
// every member has arrived. Pure: no messages, no clock; the machine sends the arrivals and the releases.

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "config/scenario.hpp"
#include "numa/network.hpp"

namespace cosched::numa {

class SyncPoints {
 public:
  // Who meets at a sync point (A6, scenario key workload.barrier): every thread, a random subset of at least
  // two, or a random pair.
  using Members = config::NumaSyncMembers;

  // A7: the interval is drawn from [sync_min, sync_max] once, when the process is created: the first draw
  // of `seed`'s stream.
  SyncPoints() = default;
  SyncPoints(int threads, Members members, Clock sync_min, Clock sync_max, std::uint64_t seed);

  // Effective clocks between two sync points of a thread.
  Clock interval() const { return interval_; }

  bool is_member(int point, int thread) { return at(point).member[thread] != 0; }
  // The member with the lowest index: the arrivals go to its cluster, which sends the releases.
  int coordinator(int point) { return at(point).coordinator; }
  int members(int point) { return at(point).members; }
  // One member arrived; true when it is the last, and the point releases its members.
  bool arrive(int point) {
    Point& p = at(point);
    return ++p.arrived >= p.members;
  }
  // Forgets the points before `lowest` (the lowest point a thread of the process has yet to reach) at which
  // every member has arrived.
  void forget_passed(int lowest);
  // The points held: drawn and not forgotten (their memory is bounded by the threads' spread).
  int held() const { return static_cast<int>(points_.size()); }

 private:
  struct Point {
    std::vector<char> member;
    int members = 0, arrived = 0;
    int coordinator = 0;
  };
  // Point k, drawing the points up to it first.
  Point& at(int k) {
    if (k < first_ + static_cast<int>(points_.size())) return points_[k - first_];
    return draw_to(k);
  }
  Point& draw_to(int k);

  int threads_ = 0;
  Members kind_ = Members::All;
  std::mt19937_64 rng_;
  Clock interval_ = 0;
  std::deque<Point> points_;
  int first_ = 0;  // the index of points_.front()
};

}  // namespace cosched::numa
