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

#include <string>

namespace cosched::util {

// The lines of cosched_userlevel, one per answer of a user-level runtime (docs/models/smp.md, 21.3). A
// runtime knows a thread only by its index in its job; the SMP machine that calls it knows the job and the
// CPU, and names them as the line's subject ("cpu 1 job fib#0 thread 1") for the length of each call while
// the category is on. Outside such a call (a runtime driven by a test) the subject is "thread T".
void set_userlevel_log_subject(std::string subject);
// "cycle NOW SUBJECT: WHAT", WHAT a printf format and its arguments. Cold: call it behind a test that the
// category is on.
[[gnu::cold, gnu::noinline, gnu::format(printf, 3, 4)]] void log_userlevel(long long now, int thread,
                                                                           const char* what, ...);

}  // namespace cosched::util
