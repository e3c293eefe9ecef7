#pragma once
// The Solaris time-sharing (TS) dispatch table as data: one row per user priority level, 0 lowest, 59
// highest (illumos usr/src/uts/common/disp/ts_dptbl.c, config_ts_dptbl). The default ships as
// data/solaris-ts-dispatch-table.csv and is compiled in at build time; parse() loads a user's table with
// the same columns. docs/models/now-schedulers.md says how TimeSharing uses each column.

#include <array>
#include <string_view>

#include "sched/now/local_scheduler.hpp"

namespace cosched::sched {

struct TsLevel {
  SimTime quantum;      // time slice at this level
  int tqexp;            // level after using a full quantum
  int slpret;           // level on return from sleep
  int maxwait_seconds;  // once-per-second updates a process may wait at this level before being raised
  int lwait;            // level it is raised to then
};

class TsDispatchTable {
 public:
  static constexpr int kLevels = 60;
  static constexpr std::string_view kHeader = "level,quantum_ms,tqexp,slpret,maxwait_s,lwait";

  // The table shipped in data/solaris-ts-dispatch-table.csv.
  static TsDispatchTable solaris_default();
  // Refuses anything but a header line and 60 rows for levels 0..59 in order, with quantum_ms > 0,
  // tqexp, slpret and lwait in 0..59 and maxwait_s >= 0 (the checks of illumos ts_admin), by throwing
  // std::invalid_argument("<source_name>:<line>: <column>: expected ..., got ...").
  static TsDispatchTable parse(std::string_view csv, std::string_view source_name);

  const TsLevel& at(int level) const { return levels_.at(level); }

 private:
  explicit TsDispatchTable(const std::array<TsLevel, kLevels>& levels) : levels_(levels) {}

  std::array<TsLevel, kLevels> levels_;
};

}  // namespace cosched::sched
