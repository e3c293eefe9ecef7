// The SMP machine's event set (src/smp/cpu_events.hpp): at most one event per CPU, the next one being the
// smallest (time, CPU id) (docs/models/smp.md: equal times in ascending CPU id).

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

#include "smp/cpu_events.hpp"

namespace cosched::smp {
namespace {

TEST(CpuEvents, EmptyUntilAnEventIsSet) {
  CpuEvents events(3);
  EXPECT_TRUE(events.empty());
  events.set(2, 7);
  EXPECT_FALSE(events.empty());
  EXPECT_EQ(events.top_cpu(), 2);
  EXPECT_EQ(events.top_time(), 7);
  events.clear(2);
  EXPECT_TRUE(events.empty());
}

TEST(CpuEvents, EarliestFirstAndEqualTimesInAscendingCpuId) {
  CpuEvents events(5);  // not a power of two: three padding leaves
  events.set(4, 10);
  events.set(1, 12);
  events.set(3, 10);
  // 10 at CPUs 3 and 4: CPU 3 first.
  EXPECT_EQ(events.top_cpu(), 3);
  events.clear(3);
  EXPECT_EQ(events.top_cpu(), 4);
  events.set(0, 10);  // CPU 0 at the same time as CPU 4 comes before it
  EXPECT_EQ(events.top_cpu(), 0);
  events.clear(0);
  events.clear(4);
  EXPECT_EQ(events.top_cpu(), 1);
  EXPECT_EQ(events.top_time(), 12);
}

TEST(CpuEvents, SettingAgainReplacesTheCpusEvent) {
  CpuEvents events(4);
  events.set(0, 5);
  events.set(1, 6);
  events.set(0, 9);  // later than CPU 1's now
  EXPECT_EQ(events.top_cpu(), 1);
  EXPECT_EQ(events.time(0), 9);
  events.set(1, 20);
  EXPECT_EQ(events.top_cpu(), 0);
  EXPECT_EQ(events.top_time(), 9);
}

TEST(CpuEvents, OneCpu) {
  CpuEvents events(1);
  EXPECT_TRUE(events.empty());
  events.set(0, 3);
  EXPECT_EQ(events.top_cpu(), 0);
  EXPECT_EQ(events.top_time(), 3);
}

// Against an ordered set of (time, CPU) pairs, one per CPU, under random sets and clears.
TEST(CpuEvents, SameOrderAsAnOrderedSetOfTimeAndCpu) {
  for (int cpus : {2, 7, 32, 33}) {
    CpuEvents events(cpus);
    std::set<std::pair<CpuEvents::Cycles, int>> reference;
    std::vector<CpuEvents::Cycles> at(static_cast<std::size_t>(cpus), CpuEvents::kNone);
    std::mt19937_64 engine(static_cast<std::uint64_t>(cpus));
    for (int step = 0; step < 20000; ++step) {
      const int cpu = static_cast<int>(engine() % static_cast<std::uint64_t>(cpus));
      if (at[cpu] != CpuEvents::kNone) reference.erase({at[cpu], cpu});
      if (engine() % 4 == 0) {
        events.clear(cpu);
        at[cpu] = CpuEvents::kNone;
      } else {
        at[cpu] = static_cast<CpuEvents::Cycles>(engine() % 50);  // small range: many equal times
        events.set(cpu, at[cpu]);
        reference.insert({at[cpu], cpu});
      }
      ASSERT_EQ(events.empty(), reference.empty()) << "cpus " << cpus << " step " << step;
      if (reference.empty()) continue;
      ASSERT_EQ(events.top_cpu(), reference.begin()->second) << "cpus " << cpus << " step " << step;
      ASSERT_EQ(events.top_time(), reference.begin()->first) << "cpus " << cpus << " step " << step;
    }
  }
}

}  // namespace
}  // namespace cosched::smp
