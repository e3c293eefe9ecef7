// The NUMA machine's memory (thesis 4.2.4, 4.4; docs/models/numa.md sections 6.3-6.4) without the machine: a
// shared page's copies after read misses, the update protocol's rounds and pins, a migrating local page, the
// replacement order of both strategies, and the copies dropped at a rescheduling (A11). Expected values are
// derived by hand from the rules.

#include "numa/memory.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "numa_test_support.hpp"
#include "sched/numa/replacement_registry.hpp"

namespace cosched::numa {
namespace {

using sched::PageClass;

// Records what the memory tells the machine; LRU times are the frames' own (the stepped mode's reading).
class Recorder final : public MemoryObserver {
 public:
  void page_changed(int page, int cluster, Clock) override { changes.emplace_back(page, cluster); }
  Stamp stamp(int thread) const override { return {100 + thread, 7}; }
  Clock last_reference(int cluster, int frame, Clock) override {
    ++settled;
    return memory->frames(cluster)[frame].last_ref;
  }

  const Memory* memory = nullptr;
  std::vector<std::pair<int, int>> changes;  // (page, cluster)
  int settled = 0;
};

// Two clusters (one switch), `frames` frames each, two processes.
struct Fixture {
  explicit Fixture(int frames, const char* strategy = "strategy1")
      : topology(testing::hand_built_tree({2})),
        rmt(topology, frames, 3),
        memory(2, frames, sched::Replacement(sched::numa_replacements().defaults(strategy)), rmt, recorder) {
    recorder.memory = &memory;
  }
  bool install(int page, int cluster, Clock at) { return memory.install(page, cluster, at, evicted); }

  platform::NumaTopology topology;
  ResourceTree rmt;
  Recorder recorder;
  Memory memory;
  std::optional<Memory::Eviction> evicted;
};

// A12: a read with no copy asks the nearest holder (ties to the lowest cluster) or, copy_source oldest, the
// holder of the oldest copy still held. Copies on cluster 1 (made first) and 0; `hops` says 1 is farther.
TEST(NumaMemory, ACopyIsAskedOfTheNearestHolderOrOfTheOldestCopy) {
  Fixture f(2);
  const int page = f.memory.add_page(0, -1, 0);
  ASSERT_TRUE(f.install(page, 1, 10));
  ASSERT_TRUE(f.install(page, 0, 20));
  const auto one_is_far = [](int cluster) { return cluster == 1 ? 3 : 1; };
  EXPECT_EQ(f.memory.copy_source(page, false, one_is_far), 0) << "nearest";
  EXPECT_EQ(f.memory.copy_source(page, true, one_is_far), 1) << "oldest, however far";
  EXPECT_EQ(f.memory.copy_source(page, false, [](int) { return 2; }), 0)
      << "a tie goes to the lowest cluster";
  f.memory.remove(1, f.memory.frame_of(page, 1), 30);
  EXPECT_EQ(f.memory.copy_source(page, true, one_is_far), 0) << "the oldest copy still held";
}

TEST(NumaMemory, AReadMissAddsACopyAndTheFirstCopyLearnsItNowNeedsUpdates) {
  Fixture f(2);
  const int page = f.memory.add_page(0, -1, 0);  // a shared page of process 0
  EXPECT_EQ(f.memory.frame_of(page, 0), -1) << "pages start unloaded (A18)";
  ASSERT_TRUE(f.install(page, 0, 10));
  EXPECT_EQ(f.memory.frame_of(page, 0), 0) << "free frames are taken lowest first";
  EXPECT_EQ(f.recorder.changes, (std::vector<std::pair<int, int>>{{page, 0}}));
  f.recorder.changes.clear();
  // The read miss on cluster 1 fetched a copy: two copies now, and cluster 0's copy is told too (a write
  // there now needs an update).
  ASSERT_TRUE(f.install(page, 1, 20));
  ASSERT_EQ(f.memory.page(page).copies.size(), 2u);
  EXPECT_EQ(f.memory.page(page).copies[1].cluster, 1);
  EXPECT_EQ(f.recorder.changes, (std::vector<std::pair<int, int>>{{page, 1}, {page, 0}}));
  EXPECT_EQ(f.memory.frames(1)[0].last_ref, 20) << "loading is a reference (A30)";
  const auto counted = f.rmt.pages_by_cluster(0);
  EXPECT_EQ(std::vector<int>(counted.begin(), counted.end()), (std::vector<int>{1, 1}))
      << "the RMT counts both copies";
  EXPECT_FALSE(f.evicted.has_value()) << "free frames: no eviction";
  // Installing a page where it already is changes nothing.
  f.recorder.changes.clear();
  ASSERT_TRUE(f.install(page, 1, 30));
  EXPECT_TRUE(f.recorder.changes.empty());
  EXPECT_EQ(f.memory.page(page).copies.size(), 2u);
}

TEST(NumaMemory, AWriteRoundWaitsForOneAcknowledgementPerOtherCopyAndPinsTheWritersCopy) {
  Fixture f(1);
  const int page = f.memory.add_page(0, -1, 0);
  ASSERT_TRUE(f.install(page, 0, 1));
  ASSERT_TRUE(f.install(page, 1, 2));
  // Thread 0 writes on cluster 1: one other copy (cluster 0), so one acknowledgement.
  const int w = f.memory.begin_write(0, page, 1, 0);
  EXPECT_EQ(f.memory.write(w).outstanding, 1);
  EXPECT_EQ(f.memory.frames(1)[0].pins, 1) << "the writer's copy is under coherency processing";
  // Cluster 1 is full and its only frame is pinned: no victim, the page must wait (4.4).
  const int other = f.memory.add_page(1, -1, 0);
  EXPECT_FALSE(f.install(other, 1, 3)) << "a pinned frame is never a victim";
  f.memory.wait_for_frame(1, other, 5);
  EXPECT_TRUE(f.memory.acknowledge(w)) << "the only acknowledgement ends the round";
  EXPECT_EQ(f.memory.frames(1)[0].pins, 0);
  const auto waiting = f.memory.take_waiting(1);
  EXPECT_EQ(waiting, (std::vector<std::pair<int, int>>{{other, 5}}));
  EXPECT_TRUE(f.memory.take_waiting(1).empty()) << "taken once";
  f.memory.end_write(w);
  ASSERT_TRUE(f.install(other, 1, 4));
  ASSERT_TRUE(f.evicted.has_value());
  EXPECT_EQ(f.evicted->page, page);
  EXPECT_EQ(f.evicted->page_class, PageClass::OtherCopy) << "no process runs there; another copy exists";
  EXPECT_EQ(f.memory.page(page).copies.size(), 1u) << "the eviction removed cluster 1's copy";
  // A round's slot is reused once freed.
  Fixture g(1);
  Memory& m = g.memory;
  const int p = m.add_page(0, -1, 0);
  ASSERT_TRUE(g.install(p, 0, 1));
  ASSERT_TRUE(g.install(p, 1, 1));
  const int first = m.begin_write(0, p, 0, 0);
  EXPECT_TRUE(m.acknowledge(first));
  m.end_write(first);
  EXPECT_EQ(m.begin_write(1, p, 1, 0), first) << "a freed slot is reused";
}

TEST(NumaMemory, TwoOtherCopiesNeedTwoAcknowledgements) {
  platform::NumaTopology topology = testing::hand_built_tree({3});
  ResourceTree rmt(topology, 1, 1);
  Recorder recorder;
  Memory memory(3, 1, sched::Replacement(sched::numa_replacements().defaults("strategy1")), rmt, recorder);
  recorder.memory = &memory;
  const int page = memory.add_page(0, -1, 0);
  std::optional<Memory::Eviction> evicted;
  for (int c = 0; c < 3; ++c) ASSERT_TRUE(memory.install(page, c, 1, evicted));
  const int w = memory.begin_write(0, page, 2, 0);
  EXPECT_EQ(memory.write(w).outstanding, 2);
  EXPECT_FALSE(memory.acknowledge(w)) << "one of two";
  EXPECT_EQ(memory.frames(2)[0].pins, 1) << "still pinned";
  EXPECT_TRUE(memory.acknowledge(w));
  EXPECT_EQ(memory.frames(2)[0].pins, 0);
}

TEST(NumaMemory, ALocalPageMigratesThroughNoFrame) {
  Fixture f(2);
  const int page = f.memory.add_page(0, 0, 3);  // thread 0's local page 3
  ASSERT_TRUE(f.install(page, 0, 1));
  EXPECT_EQ(f.memory.page(page).cluster, 0);
  f.recorder.changes.clear();
  // The owner asked from cluster 1: the page leaves its frame on cluster 0 and travels.
  f.memory.remove(0, f.memory.frame_of(page, 0), 5);
  f.memory.mark_moving(page);
  EXPECT_EQ(f.memory.frame_of(page, 0), -1);
  EXPECT_EQ(f.memory.frame_of(page, 1), -1);
  EXPECT_EQ(f.memory.frames(0)[0].page, -1) << "its old frame is free";
  ASSERT_TRUE(f.install(page, 1, 9));
  EXPECT_FALSE(f.memory.page(page).moving);
  EXPECT_EQ(f.memory.frame_of(page, 1), 0);
  EXPECT_EQ(f.recorder.changes, (std::vector<std::pair<int, int>>{{page, 0}, {page, 1}}));
}

TEST(NumaMemory, TheThreadHereStampsItsReferencesAndIsTheUserOfItsOwnPagesOnly) {
  Fixture f(4);
  const int mine = f.memory.add_page(0, 2, 0);     // thread 2's local page
  const int theirs = f.memory.add_page(0, 3, 0);   // thread 3's local page, same process
  const int shared = f.memory.add_page(0, -1, 0);  // process 0's shared page
  const int other = f.memory.add_page(1, -1, 0);   // process 1's shared page
  f.memory.occupy(0, 0, 2);
  for (int p : {mine, theirs, shared, other}) ASSERT_TRUE(f.install(p, 0, 4));
  EXPECT_EQ(f.memory.frames(0)[0].ref_eff, 102) << "the recorder stamps thread 2 with 100 + 2";
  EXPECT_EQ(f.memory.frames(0)[0].stamp, 7u);
  EXPECT_EQ(f.memory.user_here(mine, 0), 2);
  EXPECT_EQ(f.memory.user_here(theirs, 0), -1) << "another thread's local page";
  EXPECT_EQ(f.memory.user_here(shared, 0), 2);
  EXPECT_EQ(f.memory.user_here(other, 0), -1) << "another process's page";
  f.memory.vacate(0);
  EXPECT_EQ(f.memory.user_here(mine, 0), -1) << "nobody runs there";
  EXPECT_EQ(f.memory.class_of(f.memory.page(mine), 0), PageClass::OwnLocal)
      << "A24: the process allocated the cluster in the slice, even after its thread left";
}

// Strategy1 (A25): class 1 of every process before class 2 of any, in a class the lowest priority first, then
// LRU. Cluster 0 (4 frames) runs process 0, thread 0; process 0 has the highest priority, process 2 the
// lowest.
TEST(NumaMemory, Strategy1EvictsByClassThenLowestPriorityThenLeastRecentlyUsed) {
  Fixture f(4);
  const int own_local = f.memory.add_page(0, 0, 0);
  const int own_last = f.memory.add_page(0, -1, 0);
  const int other_local_high = f.memory.add_page(1, 5, 0);  // process 1: priority rank 1
  const int other_local_low = f.memory.add_page(2, 6, 0);   // process 2: priority rank 2
  f.memory.set_priority_ranks({0, 1, 2});
  f.memory.occupy(0, 0, 0);
  ASSERT_TRUE(f.install(own_local, 0, 1));
  ASSERT_TRUE(f.install(own_last, 0, 2));
  ASSERT_TRUE(f.install(other_local_low, 0, 4));  // referenced after the higher-priority one
  ASSERT_TRUE(f.install(other_local_high, 0, 3));
  // New pages of thread 0, one at a time: each evicts the next in the order, and is itself own local (the
  // last class), referenced later than own_local.
  std::vector<int> victims;
  std::vector<PageClass> classes;
  for (int k = 1; k <= 4; ++k) {
    const int page = f.memory.add_page(0, 0, k);
    ASSERT_TRUE(f.install(page, 0, 10 + k));
    ASSERT_TRUE(f.evicted.has_value()) << "install " << k;
    victims.push_back(f.evicted->page);
    classes.push_back(f.evicted->page_class);
  }
  EXPECT_EQ(victims, (std::vector<int>{other_local_low, other_local_high, own_last, own_local}))
      << "other local (rank 2, then rank 1, though referenced earlier), own last, own local (LRU)";
  EXPECT_EQ(classes, (std::vector<PageClass>{PageClass::OtherLocal, PageClass::OtherLocal, PageClass::OwnLast,
                                             PageClass::OwnLocal}));
}

TEST(NumaMemory, Strategy1SettlesLruTimesOnlyForTheFramesOfTheSmallestOrder) {
  Fixture f(3);
  const int a = f.memory.add_page(0, 0, 0), b = f.memory.add_page(0, 0, 1);
  const int copy = f.memory.add_page(1, -1, 0);
  f.memory.set_priority_ranks({0, 1});
  f.memory.occupy(0, 0, 0);
  ASSERT_TRUE(f.install(copy, 1, 0));  // another copy on cluster 1: on cluster 0 it is an other copy
  for (int p : {a, b, copy}) ASSERT_TRUE(f.install(p, 0, 1));
  f.recorder.settled = 0;
  ASSERT_TRUE(f.install(f.memory.add_page(0, 0, 2), 0, 5));
  EXPECT_EQ(f.evicted->page, copy) << "other copy, the first class";
  EXPECT_EQ(f.recorder.settled, 1) << "one frame had the smallest order: one LRU time settled";
}

TEST(NumaMemory, Strategy0IsLeastRecentlyUsedWhateverTheClassTiesToTheLowerFrame) {
  Fixture f(3, "strategy0");
  const int own = f.memory.add_page(0, 0, 0);
  const int other = f.memory.add_page(1, 1, 0);
  const int shared = f.memory.add_page(0, -1, 0);
  f.memory.set_priority_ranks({0, 1});
  f.memory.occupy(0, 0, 0);
  ASSERT_TRUE(f.install(own, 0, 1));     // frame 0
  ASSERT_TRUE(f.install(other, 0, 5));   // frame 1
  ASSERT_TRUE(f.install(shared, 0, 1));  // frame 2
  ASSERT_TRUE(f.install(f.memory.add_page(0, 0, 1), 0, 9));
  EXPECT_EQ(f.evicted->page, own) << "own local at clock 1 and the shared page at clock 1: frame 0 first";
}

TEST(NumaMemory, DroppingCopiesKeepsTheLastCopyAndThePinnedOnes) {
  platform::NumaTopology topology = testing::hand_built_tree({4});
  ResourceTree rmt(topology, 1, 1);
  Recorder recorder;
  Memory memory(4, 1, sched::Replacement(sched::numa_replacements().defaults("strategy1")), rmt, recorder);
  recorder.memory = &memory;
  std::optional<Memory::Eviction> evicted;
  const int p = memory.add_page(0, -1, 0);
  for (int c = 0; c < 4; ++c) ASSERT_TRUE(memory.install(p, c, 1, evicted));
  memory.begin_write(0, p, 2, 0);  // cluster 2's copy is pinned
  // The process now runs on cluster 1 only: the copies on 0 and 3 go; 2 is pinned, 1 is kept.
  const int dropped = memory.drop_copies(p, 1, {0, 1, 0, 0}, 5);
  EXPECT_EQ(dropped, 2);
  std::vector<int> left;
  for (const auto& c : memory.page(p).copies) left.push_back(c.cluster);
  EXPECT_EQ(left, (std::vector<int>{1, 2}));
  // Out of the allocation altogether: the unpinned copy goes, and the last one would stay anyway (dropping it
  // would make the next access a disk access).
  EXPECT_EQ(memory.drop_copies(p, 1, {0, 0, 0, 0}, 6), 1) << "cluster 1's copy goes; the pinned one stays";
  ASSERT_EQ(memory.page(p).copies.size(), 1u);
  EXPECT_EQ(memory.page(p).copies[0].cluster, 2);
}

}  // namespace
}  // namespace cosched::numa
