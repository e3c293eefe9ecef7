#pragma once
// cosched's logging: SimGrid's XBT macros with the categories of util/log.cpp.
//
// SimGrid compiles XBT_DEBUG out of builds with NDEBUG (xbt/log.h sets XBT_LOG_STATIC_THRESHOLD to
// verbose), and cosched is built Release. The decision lines (who, when, why) must be there in the binary
// researchers run, so the static threshold is lowered to debug here: a line that is off costs a test of
// its category's threshold. Include this header, not <xbt/log.h>.
#include <xbt/log.h>

#undef XBT_LOG_STATIC_THRESHOLD
#define XBT_LOG_STATIC_THRESHOLD xbt_log_priority_debug

// A debug line on a hot path: its formatting is compiled into a cold lambda that is never inlined, so that
// the code around it is laid out and inlined as if the line were not there. Use behind a cheap test that the
// category is on (a bool the caller keeps), e.g. `if (logs_) [[unlikely]] COSCHED_COLD_CDEBUG(cat, "...");`.
#define COSCHED_COLD_CDEBUG(category, ...) \
  [&]() __attribute__((cold, noinline)) {  \
    XBT_CDEBUG(category, __VA_ARGS__);     \
  }                                        \
  ()
