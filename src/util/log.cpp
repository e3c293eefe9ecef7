// Root of cosched's log categories: cosched > cosched_smp, cosched_now, ... so that
// `--log=cosched_smp.thresh:debug` turns on one module only.
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(cosched, "cosched: coscheduling simulator");
