// What every replacement strategy shares (thesis 4.4; docs/models/numa.md section 5): the victim among frames
// of equal order (LRU, then the lower frame) and the page classes with their result keys.

#include "sched/numa/replacement.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sched/numa/replacement_test_support.hpp"

namespace cosched::sched {
namespace {

using namespace testing;
using enum PageClass;

TEST(NumaReplacement, WithinOneProcessAndClassLruThenTheLowerFrame) {
  const std::vector<FrameView> frames = {
      {9, OtherCopy, 3, 20, true},
      {4, OtherCopy, 3, 20, true},
      {2, OtherCopy, 3, 25, true},
      {1, OtherCopy, 2, 0, true},  // a higher-priority process's page: later, although the oldest
  };
  EXPECT_EQ(strategy("strategy1").victim(frames), 4) << "9 and 4 tie at 20: the lower frame";
  EXPECT_EQ(strategy("strategy0").victim(frames), 1);
  EXPECT_EQ(eviction_order("strategy1", frames), (std::vector<int>{4, 9, 2, 1}));
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
