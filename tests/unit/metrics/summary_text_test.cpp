// The models' lines of `cosched run`'s terminal summary, from hand-written summary.json objects.

#include "metrics/summary_text.hpp"

#include <gtest/gtest.h>

namespace cosched::metrics {
namespace {

using Json = nlohmann::ordered_json;

Json job(const char* name, int copy, double completion) {
  return {{"name", name},
          {"copy", copy},
          {"completion_time", completion},
          {"ssr", 50.0},
          {"spins", {{"successful", 1}, {"total", 2}}},
          {"time",
           {{"compute", 6.0}, {"communicate", 1.0}, {"synchronize", 2.0}, {"idle", 1.0}, {"switch", 0.0}}}};
}

TEST(SummaryText, SmpAndNowShareTheJobTableAndOnlyNowHasTimeShares) {
  const Json s = {{"makespan", 1000}, {"time_unit", "cycles"}, {"jobs", {job("a", 0, 900)}}};
  const std::string table =
      "  makespan     1000 cycles\n"
      "  job               copy     completion       SSR  spins ok/total\n"
      "  a                    0            900    50.00%             1/2\n";
  EXPECT_EQ(smp_summary_lines(s), table);
  EXPECT_EQ(now_summary_lines(s),
            table +
                "  time shares       copy      compute  communicate  synchronize         "
                "idle       switch\n"
                "  a                    0        60.0%        10.0%        20.0%        "
                "10.0%         0.0%\n");
}

TEST(SummaryText, AnOpenWorkloadIsOneStreamLine) {
  const Json s = {{"makespan", 2.5},
                  {"time_unit", "s"},
                  {"stream",
                   {{"jobs", 10},
                    {"skipped", 1},
                    {"job_scheduler", "easy"},
                    {"utilization", 0.5},
                    {"mean_response", 3.25},
                    {"mean_bounded_slowdown", 1.5},
                    {"p90_bounded_slowdown", 2}}},
                  {"jobs", Json::array()}};
  EXPECT_EQ(now_summary_lines(s),
            "  makespan     2.5 s\n"
            "  stream       10 jobs (1 skipped) under easy: utilization 50.0%, mean response 3.25 s, mean "
            "bounded slowdown 1.5 (p90 2)\n");
}

TEST(SummaryText, NumaHasRatesBreakdownPagesAndAProcessTable) {
  const Json s = {
      {"clocks", 200000},
      {"slices", 2},
      {"ended_by", "slices"},
      {"rates", {{"net", 0.25}, {"calibrated", 0.3}, {"maximum", 0.5}}},
      {"breakdown", {{"effective", 0.25}, {"sync", 0.1}, {"comm", 0.4}, {"idle", 0.25}, {"disk", 0.05}}},
      {"pages_replaced", {{"other_copy", 3}, {"own_copy", 4}}},
      {"page_transfers", {{"copies", 7}, {"migrations", 2}}},
      {"jobs",
       {{{"name", "p"},
         {"copy", 0},
         {"threads", 4},
         {"slices_run", 2},
         {"effective_per_thread", 1234.4},
         {"rates", {{"net", 0.125}}}}}}};
  EXPECT_EQ(
      numa_summary_lines(s),
      "  clocks       200000 (2 slices, ended by slices)\n"
      "  rates        net 25.0%  calibrated 30.0%  maximum 50.0%\n"
      "  breakdown    effective 25.0%  sync 10.0%  comm 40.0%  idle 25.0%  (disk 5.0%, not in the total)\n"
      "  pages        7 replaced (3 other's copies), 7 copies and 2 migrations moved\n"
      "  process           copy threads  slices   eff/thread      net\n"
      "  p                    0       4       2         1234    12.5%\n");
}

}  // namespace
}  // namespace cosched::metrics
