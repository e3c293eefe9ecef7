// util/log_setting: the --log settings SimGrid 3.32's parser takes (src/xbt/log.cpp), and one line for the
// others, which would make SimGrid abort, exit or throw.

#include "util/log_setting.hpp"

#include <gtest/gtest.h>

namespace {

using cosched::util::log_setting_error;

TEST(LogSetting, EveryPrefixOfTheFourOptionsIsTaken) {
  for (const char* setting :
       {"cosched_now.threshold:debug", "cosched_now.thresh:debug", "cosched_now.thres:debug",
        "cosched_now.t:debug", "cosched_now.:debug", "cosched.additivity:off", "cosched.add:no",
        "cosched.a:1", "cosched.appender:stderr", "cosched.app:stdout", "cosched.ap:file:run.log",
        "cosched.app:rollfile:500:run.log", "cosched.app:splitfile:500:run%.log", "cosched.fmt:%m%n",
        "cosched.f:[%c]%m%n", "cosched.fmt:"})
    EXPECT_EQ(log_setting_error(setting), std::nullopt) << "expected SimGrid's parser to take " << setting;
}

TEST(LogSetting, PrioritiesAreTakenInAnyCaseAndEqualsSeparatesToo) {
  for (const char* setting :
       {"root.thres:TRACE", "root.thres:Verbose", "root.thres=critical", "root.thres=info"})
    EXPECT_EQ(log_setting_error(setting), std::nullopt) << setting;
}

TEST(LogSetting, NoLocAndSeveralSettingsInOneArgument) {
  EXPECT_EQ(log_setting_error("no_loc"), std::nullopt);
  EXPECT_EQ(log_setting_error("root.thres:info  cosched_now.thres:debug"), std::nullopt);
  EXPECT_EQ(log_setting_error("cosched.fmt:'[%c] %m%n' cosched.thres:debug"), std::nullopt)
      << "expected a quoted format with spaces to be one setting";
}

TEST(LogSetting, WhatSimGridWouldAbortOnIsRefusedWithWhatWasExpected) {
  const std::pair<const char*, const char*> cases[] = {
      {"garbage", "expected CATEGORY.thresh:LEVEL"},
      {"cosched:debug", "expected CATEGORY.thresh:LEVEL"},
      {"cosched.thresh", "expected CATEGORY.thresh:LEVEL"},
      {"cosched.thrash:debug", "expected CATEGORY.thresh:LEVEL"},
      {"cosched.thresholds:debug", "expected CATEGORY.thresh:LEVEL"},
      {"cosched.thres:loud", "expected a priority after 'thres:'"},
      {"cosched.app:file", "expected an appender after 'app:'"},
      {"root.thres:info cosched.oops:1", "expected CATEGORY.thresh:LEVEL"},
      {"", "expected CATEGORY.thresh:LEVEL"},
      {"   ", "expected CATEGORY.thresh:LEVEL"},
      {"cosched.fmt:%m\\", "expected settings separated by spaces"},
  };
  for (const auto& [setting, expected] : cases) {
    const auto error = log_setting_error(setting);
    ASSERT_TRUE(error.has_value()) << "expected '" << setting << "' refused";
    EXPECT_EQ(error->rfind(expected, 0), 0u)
        << "'" << setting << "': expected '" << expected << "', got '" << *error << "'";
    EXPECT_EQ(error->find('\n'), std::string::npos) << "expected one line";
  }
}

}  // namespace
