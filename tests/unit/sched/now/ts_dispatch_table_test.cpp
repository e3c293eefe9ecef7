// The Solaris TS dispatch table: the shipped default, and the refusals a user's table can meet.
// Line numbers in the expected messages: the header is line 1, level L is on line L + 2.

#include "sched/now/ts_dispatch_table.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace cosched::sched {
namespace {

constexpr SimTime kMs = 1'000'000;

std::string shipped_csv() {
  std::ifstream in(COSCHED_SOURCE_DIR "/data/solaris-ts-dispatch-table.csv");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The shipped table with its line `line` (1-based) replaced, or removed when no replacement is given.
std::string shipped_with(int line, std::optional<std::string> replacement) {
  std::istringstream in(shipped_csv());
  std::string out;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (number == line) {
      if (!replacement) continue;
      text = *replacement;
    }
    out += text + "\n";
  }
  return out;
}

std::string refusal(const std::string& csv) {
  try {
    TsDispatchTable::parse(csv, "user.csv");
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(TsDispatchTable, TheDefaultHasIllumosValues) {
  auto table = TsDispatchTable::solaris_default();
  EXPECT_EQ(table.at(0).quantum, 200 * kMs) << "level 0: 20 ticks of 10 ms";
  EXPECT_EQ(table.at(0).tqexp, 0) << "level 0 stays at 0 on expiry";
  EXPECT_EQ(table.at(0).slpret, 50) << "level 0 returns from sleep to 50";
  EXPECT_EQ(table.at(29).quantum, 120 * kMs) << "level 29: 120 ms";
  EXPECT_EQ(table.at(29).tqexp, 19) << "level 29 expires to 19";
  EXPECT_EQ(table.at(29).slpret, 52) << "level 29 returns from sleep to 52";
  EXPECT_EQ(table.at(29).maxwait_seconds, 0) << "levels 0-58 have maxwait 0";
  EXPECT_EQ(table.at(29).lwait, 52) << "level 29 is raised to 52 after waiting";
  EXPECT_EQ(table.at(49).lwait, 59) << "levels 49-58 are raised to 59";
  EXPECT_EQ(table.at(52).quantum, 40 * kMs) << "level 52: 40 ms";
  EXPECT_EQ(table.at(59).quantum, 20 * kMs) << "level 59: 20 ms";
  EXPECT_EQ(table.at(59).tqexp, 49) << "level 59 expires to 49";
  EXPECT_EQ(table.at(59).maxwait_seconds, 32000) << "level 59 practically never ages";
}

TEST(TsDispatchTable, TheBuiltInTableIsTheShippedFile) {
  auto built_in = TsDispatchTable::solaris_default();
  auto parsed = TsDispatchTable::parse(shipped_csv(), "data/solaris-ts-dispatch-table.csv");
  for (int level = 0; level < TsDispatchTable::kLevels; ++level) {
    const auto& a = built_in.at(level);
    const auto& b = parsed.at(level);
    EXPECT_TRUE(a.quantum == b.quantum && a.tqexp == b.tqexp && a.slpret == b.slpret &&
                a.maxwait_seconds == b.maxwait_seconds && a.lwait == b.lwait)
        << "level " << level << " of the compiled-in table differs from data/solaris-ts-dispatch-table.csv";
  }
}

TEST(TsDispatchTable, RefusesFiftyNineRows) {
  EXPECT_EQ(refusal(shipped_with(61, std::nullopt)),
            "user.csv:61: level: expected 60 rows (levels 0..59), the table ends after 59")
      << "the missing row is named where it should be";
}

TEST(TsDispatchTable, RefusesSixtyOneRows) {
  EXPECT_EQ(refusal(shipped_csv() + "60,20,49,59,32000,59\n"),
            "user.csv:62: level: expected 60 rows (levels 0..59), got one more")
      << "a 61st row";
}

TEST(TsDispatchTable, RefusesALevelOutOfOrder) {
  EXPECT_EQ(refusal(shipped_with(5, "4,200,0,50,0,50")),
            "user.csv:5: level: expected level 3 (levels 0..59 in order), got 4")
      << "level 3 is missing";
  EXPECT_EQ(refusal(shipped_with(5, "three,200,0,50,0,50")),
            "user.csv:5: level: expected level 3 (levels 0..59 in order), got \"three\"")
      << "not a number";
}

TEST(TsDispatchTable, RefusesANonPositiveQuantum) {
  EXPECT_EQ(refusal(shipped_with(12, "10,-160,0,51,0,51")),
            "user.csv:12: quantum_ms: expected a positive number of milliseconds, got -160")
      << "negative quantum at level 10";
  EXPECT_EQ(refusal(shipped_with(12, "10,0,0,51,0,51")),
            "user.csv:12: quantum_ms: expected a positive number of milliseconds, got 0")
      << "zero quantum at level 10";
}

TEST(TsDispatchTable, RefusesLevelsOutsideTheTable) {
  EXPECT_EQ(refusal(shipped_with(31, "29,120,60,52,0,52")),
            "user.csv:31: tqexp: expected a level in 0..59, got 60")
      << "tqexp past the top level";
  EXPECT_EQ(refusal(shipped_with(31, "29,120,19,-1,0,52")),
            "user.csv:31: slpret: expected a level in 0..59, got -1")
      << "negative slpret";
  EXPECT_EQ(refusal(shipped_with(31, "29,120,19,52,0,99")),
            "user.csv:31: lwait: expected a level in 0..59, got 99")
      << "lwait past the top level";
  EXPECT_EQ(refusal(shipped_with(31, "29,120,19,52,-3,52")),
            "user.csv:31: maxwait_s: expected a non-negative number of seconds, got -3")
      << "negative maxwait";
}

TEST(TsDispatchTable, RefusesAWrongHeaderOrColumnCount) {
  EXPECT_EQ(refusal(shipped_with(1, "level,quantum,tqexp,slpret,maxwait,lwait")),
            "user.csv:1: header: expected \"level,quantum_ms,tqexp,slpret,maxwait_s,lwait\", got "
            "\"level,quantum,tqexp,slpret,maxwait,lwait\"")
      << "the header names the columns and their units";
  EXPECT_EQ(refusal(shipped_with(31, "29,120,19,52,0")),
            "user.csv:31: row: expected 6 columns (level,quantum_ms,tqexp,slpret,maxwait_s,lwait), got 5")
      << "a short row";
  EXPECT_EQ(refusal(""),
            "user.csv:1: header: expected \"level,quantum_ms,tqexp,slpret,maxwait_s,lwait\", got an "
            "empty table")
      << "an empty file";
}

}  // namespace
}  // namespace cosched::sched
