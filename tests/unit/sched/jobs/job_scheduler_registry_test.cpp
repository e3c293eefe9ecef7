// The job schedulers' registry (src/sched/jobs/job_scheduler_registry.cpp): its entries as documented.

#include "sched/jobs/job_scheduler_registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sched/now/gang.hpp"

namespace cosched::sched {
namespace {

TEST(JobSchedulerRegistry, EntriesAsDocumented) {
  const auto& registry = job_schedulers();
  EXPECT_EQ(registry.names().rfind("fcfs, easy, gang", 0), 0u) << registry.names();
  const auto* fcfs = registry.find("fcfs");
  ASSERT_NE(fcfs, nullptr);
  EXPECT_TRUE(fcfs->dedicated);
  EXPECT_FALSE(fcfs->gang_rows);
  const auto* easy = registry.find("easy");
  ASSERT_NE(easy, nullptr);
  EXPECT_TRUE(easy->dedicated);
  const auto* gang = registry.find("gang");
  ASSERT_NE(gang, nullptr);
  EXPECT_FALSE(gang->dedicated);
  EXPECT_TRUE(gang->gang_rows);
  const auto* ts = registry.find("time-share");
  ASSERT_NE(ts, nullptr);
  EXPECT_FALSE(ts->dedicated);
  EXPECT_FALSE(ts->gang_rows);
  EXPECT_FALSE(ts->needs_gang());
  const auto* slurm = registry.find("slurm-gang");
  ASSERT_NE(slurm, nullptr);
  EXPECT_FALSE(slurm->dedicated);
  EXPECT_FALSE(slurm->gang_rows);
  EXPECT_TRUE(slurm->suspends);
  EXPECT_TRUE(slurm->needs_gang());
  const auto* buffered = registry.find("buffered");
  ASSERT_NE(buffered, nullptr);
  EXPECT_TRUE(buffered->gang_rows);
  ASSERT_NE(buffered->strobe, nullptr);
  const auto defaults = buffered->spec.defaults();
  EXPECT_EQ(buffered->strobe(*defaults, 10'000'000).interval, 10'000'000) << "by default, the gang slot";
  EXPECT_EQ(buffered->strobe(*defaults, 10'000'000).exchange, 0);
  EXPECT_EQ(registry.at("gang").strobe, nullptr) << "gang's messages leave as their sends end";
  const auto* paired = registry.find("paired-gang");
  ASSERT_NE(paired, nullptr);
  EXPECT_TRUE(paired->gang_rows);
  EXPECT_TRUE(paired->shares_slot_reports) << "its pairing needs every workstation's reports";
  GangMatrix matrix(10'000'000, GangMatrix::Rows{2});
  paired->configure_matrix(*paired->spec.defaults(), matrix);
  ASSERT_TRUE(matrix.paired().has_value());
  EXPECT_EQ(matrix.paired()->limit, 1.0) << "heavy with light: together no more than one CPU";
  EXPECT_FALSE(registry.at("gang").shares_slot_reports);
  EXPECT_EQ(registry.find("batch"), nullptr);
  // Each job level is a key: mpl (1 only for the dedicated ones), or Slurm's own name for it.
  for (const auto* entry : registry.entries())
    EXPECT_TRUE(std::any_of(entry->spec.keys.begin(), entry->spec.keys.end(),
                            [](const auto& key) { return key.name == "mpl" || key.name == "oversubscribe"; }))
        << entry->spec.name << " declares its multiprogramming level";
  EXPECT_EQ(static_cast<const config::JobSchedulerParams&>(*slurm->spec.defaults()).mpl, 4)
      << "OverSubscribe=FORCE's default";

  // The factories build the policy named: a gang of 2 rows places two full-width jobs, time-share with
  // mpl 2 as well, fcfs only one.
  for (const auto& [name, expected] : std::vector<std::pair<std::string, std::size_t>>{{"fcfs", 1},
                                                                                       {"easy", 1},
                                                                                       {"gang", 2},
                                                                                       {"time-share", 2},
                                                                                       {"slurm-gang", 2},
                                                                                       {"buffered", 2},
                                                                                       {"paired-gang", 2}}) {
    auto params = registry.at(name).spec.defaults();
    static_cast<config::JobSchedulerParams&>(*params).mpl = 2;
    auto scheduler = registry.at(name).make(*params, 3);
    scheduler->submit({0, 0, 3, 1}, 0);
    scheduler->submit({1, 0, 3, 1}, 0);
    EXPECT_EQ(scheduler->decide(0).size(), expected) << name;
  }
}

}  // namespace
}  // namespace cosched::sched
