// The NUMA model's page replacement strategies (thesis 4.4; docs/models/numa.md section 5): one cluster's
// frames with every page class present and two frames under coherency processing, and the order in which
// each strategy empties it, worked out by hand.

#include "sched/numa/replacement.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cosched::sched {
namespace {

using enum PageClass;

// frame, class, priority rank (0 highest), last reference, evictable.
std::vector<FrameView> every_class() {
  return {
      {0, OwnLocal, 0, 10, true},  {1, OtherCopy, 1, 50, false}, {2, OwnCopy, 0, 5, true},
      {3, OtherLast, 2, 40, true}, {4, OtherLocal, 1, 1, true},  {5, OwnLast, 0, 30, true},
      {6, OtherCopy, 1, 60, true}, {7, OtherCopy, 2, 70, true},  {8, OwnLocal, 0, 0, false},
  };
}

// Victims one after the other, each removed before the next is chosen, until none is evictable.
std::vector<int> eviction_order(std::string_view strategy, std::vector<FrameView> frames) {
  const auto* entry = find_numa_replacement(strategy);
  EXPECT_NE(entry, nullptr) << strategy;
  std::vector<int> order;
  while (const auto victim = entry->victim(frames)) {
    order.push_back(*victim);
    std::erase_if(frames, [&](const FrameView& f) { return f.frame == *victim; });
  }
  return order;
}

TEST(NumaReplacement, RegistryNamesBothStrategies) {
  EXPECT_EQ(numa_replacement_names(), "strategy0 or strategy1");
  EXPECT_EQ(find_numa_replacement("strategy2"), nullptr);
  for (const auto& entry : numa_replacements()) EXPECT_FALSE(entry.doc.empty()) << entry.name;
}

TEST(NumaReplacement, Strategy0EvictsTheLeastRecentlyReferencedWhateverItsClass) {
  // Last references of the evictable frames: 4 at 1, 2 at 5, 0 at 10, 5 at 30, 3 at 40, 6 at 60, 7 at 70.
  // Frame 8 (at 0) and frame 1 are under coherency processing: never victims.
  EXPECT_EQ(find_numa_replacement("strategy0")->victim(every_class()), 4);
  EXPECT_EQ(eviction_order("strategy0", every_class()), (std::vector<int>{4, 2, 0, 5, 3, 6, 7}));
}

TEST(NumaReplacement, Strategy1EvictsByClassThenLowestPriorityThenLru) {
  // Class 1 (other's copy): frames 6 (rank 1) and 7 (rank 2); 7's process has the lower priority, so 7
  // goes first although 6 is older. Frame 1 is class 1 too but under coherency processing. Then 2 (own
  // copy), 3 (other's last), 4 (other's local), 5 (own last), 0 (own local); 8 never.
  EXPECT_EQ(find_numa_replacement("strategy1")->victim(every_class()), 7);
  EXPECT_EQ(eviction_order("strategy1", every_class()), (std::vector<int>{7, 6, 2, 3, 4, 5, 0}));
}

TEST(NumaReplacement, WithinOneProcessAndClassLruThenTheLowerFrame) {
  const std::vector<FrameView> frames = {
      {9, OtherCopy, 3, 20, true},
      {4, OtherCopy, 3, 20, true},
      {2, OtherCopy, 3, 25, true},
      {1, OtherCopy, 2, 0, true},  // a higher-priority process's page: later, although the oldest
  };
  EXPECT_EQ(find_numa_replacement("strategy1")->victim(frames), 4) << "9 and 4 tie at 20: the lower frame";
  EXPECT_EQ(find_numa_replacement("strategy0")->victim(frames), 1);
  EXPECT_EQ(eviction_order("strategy1", frames), (std::vector<int>{4, 9, 2, 1}));
}

TEST(NumaReplacement, NothingEvictableGivesNoVictim) {
  for (const auto& entry : numa_replacements()) {
    EXPECT_EQ(entry.victim({}), std::nullopt) << entry.name;
    const std::vector<FrameView> busy = {{0, OtherCopy, 5, 0, false}, {1, OwnLocal, 0, 3, false}};
    EXPECT_EQ(entry.victim(busy), std::nullopt) << entry.name;
  }
}

TEST(NumaReplacement, PageClassesOfThesis44) {
  // (a) running, (b) shared, (c) other copies.
  EXPECT_EQ(page_class(false, true, true), OtherCopy) << "class 1: copy page of not running process";
  EXPECT_EQ(page_class(true, true, true), OwnCopy) << "class 2";
  EXPECT_EQ(page_class(false, true, false), OtherLast) << "class 3: last one of not running process";
  EXPECT_EQ(page_class(false, false, false), OtherLocal) << "class 4";
  EXPECT_EQ(page_class(true, true, false), OwnLast) << "class 5";
  EXPECT_EQ(page_class(true, false, false), OwnLocal) << "class 6";
  EXPECT_EQ(page_class(true, false, true), OwnLocal) << "a local page is local, copies or not";
  EXPECT_EQ(page_class(false, false, true), OtherLocal);
}

TEST(NumaReplacement, PageClassNamesAreTheResultKeysInTable55Order) {
  const std::vector<std::string_view> names = {"other_copy",  "own_copy", "other_last",
                                               "other_local", "own_last", "own_local"};
  for (int c = 0; c < kPageClasses; ++c)
    EXPECT_EQ(page_class_name(static_cast<PageClass>(c)), names[c]) << "class " << c + 1;
}

}  // namespace
}  // namespace cosched::sched
