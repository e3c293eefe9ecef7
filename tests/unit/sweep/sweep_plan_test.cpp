// The distribution notation of thesis 5.1.3 in job profiles (threads, compute, sigma) and the sweep's
// `series:` mode of thesis 5.1.5 (docs/sweeps.md): expansion, prefixes, classes, seeds, errors.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "config/input_error.hpp"
#include "scenario/loader.hpp"
#include "scenario/smp_section.hpp"
#include "sweep/sweep_plan.hpp"
#include "util/normal.hpp"
#include "workload/distribution.hpp"

namespace cosched {
namespace {

namespace fs = std::filesystem;
using workload::Distribution;

// A fresh folder per test, removed afterwards.
class Folder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cosched-series-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  sweep::SweepPlan expand(const std::string& sweep_text, bool quick = false) {
    return sweep::expand_sweep(write("s.yaml", sweep_text), (dir_ / "out").string(), quick);
  }
  std::string error_of(const std::string& sweep_text) {
    try {
      expand(sweep_text);
    } catch (const config::InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
  fs::path dir_;
};

std::string base_scenario(const std::string& job) {
  return "model: smp\nseed: 5\nplatform: {cpus: 4}\nscheduler: {quantum: 100, cs_in: 3%, cs_out: 3%}\n"
         "workload:\n  nosync: 0\n  jobs:\n    - " +
         job + "\n";
}

// The documented draw rule (thesis 5.1.3): an entry by weight from u = 53 random bits / 2^53.
double unit(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

TEST(DistributionNotation, PercentAndDensityEntries) {
  std::string why;
  auto mu = Distribution::parse("1-20% : 1, 21%-30%:2, 5:1", &why, {true, false});
  ASSERT_TRUE(mu) << why;
  ASSERT_EQ(mu->entries().size(), 3u);
  EXPECT_TRUE(mu->entries()[0].percent);
  EXPECT_EQ(mu->entries()[1].begin, 21);
  EXPECT_EQ(mu->entries()[1].end, 30);
  EXPECT_TRUE(mu->entries()[1].percent) << "1%-20% and 1-20% mean the same";
  EXPECT_FALSE(mu->entries()[2].percent);
  EXPECT_EQ(mu->notation(), "1-20%:1,21-30%:2,5:1");
  auto sigma = Distribution::parse("80/1-15:3, 90/16-30%:1", &why, {true, true});
  ASSERT_TRUE(sigma) << why;
  EXPECT_EQ(*sigma->entries()[0].density, 80);
  EXPECT_EQ(sigma->entry_text(1), "90/16-30%");
  EXPECT_FALSE(Distribution::parse("1%-20:1", &why, {true, false})) << "a '%' on one end only";
  EXPECT_FALSE(Distribution::parse("1-20%:1", &why)) << "'%' where the key takes none";
  EXPECT_FALSE(Distribution::parse("80/1-15:1", &why, {true, false})) << "a density where the key takes none";
  EXPECT_FALSE(Distribution::parse("1-2:nan", &why));
  // Each weight is finite but their sum is not: the draw would always give the last entry.
  EXPECT_FALSE(Distribution::parse("1:1e308, 2:1e308", &why));
  EXPECT_NE(why.find("weights add up"), std::string::npos) << why;
}

TEST(DistributionNotation, WholeEndsDrawIntegersOtherEndsReals) {
  // Thesis 5.1.3: "1-20:3, 21-30:2, 31-40:1" -- with whole ends the entries tile the integers 1..40.
  auto whole = Distribution::parse("1-2:1, 3:1");
  auto real = Distribution::parse("0.15-1.5:1");
  std::mt19937_64 engine(11);
  std::set<double> seen;
  for (int i = 0; i < 2000; ++i) {
    const auto d = whole->draw(engine);
    seen.insert(d.value);
    EXPECT_EQ(d.entry, d.value == 3 ? 1u : 0u) << "the entry index of the value drawn";
    const auto r = real->draw(engine);
    ASSERT_GE(r.value, 0.15);
    ASSERT_LE(r.value, 1.5);
    EXPECT_NE(r.value, std::floor(r.value));
  }
  EXPECT_EQ(seen, (std::set<double>{1, 2, 3}));
}

class ScenarioDraws : public Folder {};

TEST_F(ScenarioDraws, ThreadsComputeAndSigmaAreDrawnPerJobFromItsOwnStream) {
  const std::string job =
      "{name: A, threads: \"2-8:2, 9-16:1\", barriers: 5, compute: \"1%-2%:1, 3-20%:1, 21-90%:1\", "
      "sigma: 90/15%, copies: 2, wait: {algorithm: fixed-spin, spin: 6%}}";
  const auto file = write("a.yaml", base_scenario(job));
  auto scenario = config::load_scenario(file);
  auto& smp = std::get<config::SmpConfig>(scenario.model_config);
  const auto first = smp.jobs[0];
  EXPECT_GE(first.threads, 2);
  EXPECT_LE(first.threads, 16);
  EXPECT_GE(first.compute_cycles, 1);
  EXPECT_LE(first.compute_cycles, 90);
  EXPECT_EQ(first.compute_cycles, std::floor(first.compute_cycles)) << "whole percentages of q = 100";
  EXPECT_EQ(first.compute_given, fmt::format("{}%", first.compute_cycles));
  // sigma = 90/15% follows the drawn mu (thesis 2.2.2).
  EXPECT_NEAR(first.sigma.cycles, 0.15 * first.compute_cycles / 1.6448536269514722, 1e-9);
  // Determinism: the same seed draws the same values; the resolved scenario records them and their source.
  auto again = config::load_scenario(file);
  const auto& second = std::get<config::SmpConfig>(again.model_config).jobs[0];
  EXPECT_EQ(second.threads, first.threads);
  EXPECT_EQ(second.compute_cycles, first.compute_cycles);
  const auto resolved = config::resolved_json(scenario);
  EXPECT_EQ(resolved["workload"]["jobs"][0]["threads"], first.threads);
  EXPECT_EQ(resolved["workload"]["jobs"][0]["drawn_from"]["threads"], "2-8:2,9-16:1");
  EXPECT_EQ(resolved["workload"]["jobs"][0]["drawn_from"]["compute"], "1-2%:1,3-20%:1,21-90%:1");
  EXPECT_FALSE(resolved["workload"]["jobs"][0]["drawn_from"].contains("sigma"));
  // Other seeds draw other values (over 20 seeds, the thread count takes several values).
  std::set<int> counts;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    config::set_seed(scenario, seed);
    counts.insert(smp.jobs[0].threads);
  }
  EXPECT_GT(counts.size(), 3u);
  // A second profile has a stream of its own: adding it leaves the first one's draws alone.
  const auto two = write("b.yaml", base_scenario(job + "\n    - " + job));
  auto both = config::load_scenario(two);
  EXPECT_EQ(std::get<config::SmpConfig>(both.model_config).jobs[0].threads, first.threads);
  EXPECT_EQ(std::get<config::SmpConfig>(both.model_config).jobs[0].compute_cycles, first.compute_cycles);
}

TEST_F(ScenarioDraws, SigmaIntervalsAreDrawnWithTheirDensity) {
  // Thesis 5.1.3: "80/1-15:3, 90/16-30:1" -- a 75% chance of sigma = 80/alpha with alpha uniform in 1-15.
  const auto file =
      write("a.yaml", base_scenario("{threads: 3, barriers: 5, compute: 40, sigma: \"80/1-15:3, "
                                    "90/16-30:1\", wait: {algorithm: block}}"));
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    auto scenario = config::load_scenario(file);
    config::set_seed(scenario, seed);
    const auto& sigma = std::get<config::SmpConfig>(scenario.model_config).jobs[0].sigma;
    ASSERT_TRUE(sigma.density && sigma.interval);
    const bool low = *sigma.density == 80;
    EXPECT_GE(*sigma.interval, low ? 1 : 16);
    EXPECT_LE(*sigma.interval, low ? 15 : 30);
    EXPECT_NEAR(sigma.cycles, config::sigma_from_symbolic(*sigma.density, *sigma.interval), 1e-12);
    EXPECT_EQ(sigma.given, fmt::format("{}/{}", *sigma.density, *sigma.interval));
  }
}

TEST_F(ScenarioDraws, BadNotationIsLocated) {
  auto error = [&](const std::string& job) -> std::string {
    try {
      config::load_scenario(write("bad.yaml", base_scenario(job)));
    } catch (const config::InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string wait = ", barriers: 5, wait: {algorithm: block}}";
  auto e = error("{threads: \"2-8:x\", compute: 5" + wait);
  EXPECT_NE(e.find("bad.yaml:8:17:"), std::string::npos) << e;
  EXPECT_NE(e.find("threads"), std::string::npos) << e;
  EXPECT_NE(e.find("positive weight"), std::string::npos) << e;
  e = error("{threads: \"0-3:1\", compute: 5" + wait);
  EXPECT_NE(e.find("at least 1"), std::string::npos) << e;
  e = error("{threads: \"2.5-3:1\", compute: 5" + wait);
  EXPECT_NE(e.find("whole thread counts"), std::string::npos) << e;
  e = error("{threads: 2, compute: \"0-5%:1\"" + wait);
  EXPECT_NE(e.find("compute"), std::string::npos) << e;
  // Thesis 2.2.1: the lower bound of [mu - I, mu + I] must be positive for every mu the job can draw.
  e = error("{threads: 2, compute: \"2-20:1\", sigma: \"90/1-3:1\"" + wait);
  EXPECT_NE(e.find("sigma"), std::string::npos) << e;
  EXPECT_NE(e.find("2 - 3"), std::string::npos) << e;
  e = error("{threads: 2, compute: 5, sigma: \"1-2%:1\"" + wait);
  EXPECT_NE(e.find("'%' only after an INTERVAL"), std::string::npos) << e;
}

class Series : public Folder {};

const char* const kWait = "wait: {algorithm: fixed-spin, spin: CS}";

TEST_F(Series, ConstantSizeGivesTheHomogeneousSequenceUntilNIsExceeded) {
  write("base.yaml",
        base_scenario(std::string("{name: J, threads: 3, barriers: 5, compute: 1%, ") + kWait + "}"));
  const auto plan = expand("base: base.yaml\nseries: {threads: 7}\n");
  // 3, 6, 9: the third job takes the total past N = 7 (thesis 5.1.5 step 3), and each prefix is a run.
  ASSERT_EQ(plan.runs.size(), 3u);
  EXPECT_EQ(plan.axis_paths, std::vector<std::string>{"series.threads"});
  EXPECT_EQ(plan.runs[0].values, std::vector<std::string>{"3"});
  EXPECT_EQ(plan.runs[1].values, std::vector<std::string>{"6"});
  EXPECT_EQ(plan.runs[2].values, std::vector<std::string>{"9"});
  ASSERT_EQ(plan.runs[2].sets.size(), 1u);
  const auto& set = plan.runs[2].sets[0];
  EXPECT_EQ(set.rfind("workload.jobs=[", 0), 0u) << set;
  for (const char* name : {"J#1", "J#2", "J#3"}) EXPECT_NE(set.find(name), std::string::npos) << set;
  EXPECT_EQ(plan.runs[0].sets[0].find("J#2"), std::string::npos) << "run 1 has job j1 only";
  for (const auto& run : plan.runs) EXPECT_EQ(run.seed, 5u) << "the base's seed without seeds:";
  // Every run is loaded as `cosched run` would: the prefix i has i jobs of 3 threads.
  auto scenario = config::load_scenario((dir_ / "base.yaml").string(), plan.runs[1].sets);
  const auto& jobs = std::get<config::SmpConfig>(scenario.model_config).jobs;
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1].name, "J#2");
  EXPECT_EQ(jobs[1].threads, 3);
  // The plan derives each prefix's id from the longest prefix cut to its jobs: the same resolved scenario.
  auto longest = config::load_scenario((dir_ / "base.yaml").string(), plan.runs[2].sets);
  std::get<config::SmpConfig>(longest.model_config).jobs.resize(2);
  EXPECT_EQ(config::resolved_json(longest).dump(), config::resolved_json(scenario).dump());
}

TEST_F(Series, DrawnSequenceFollowsTheDocumentedStreamAndClassifies) {
  // threads "2:1, 5:3" classified by threads: the sequence is drawn from mix_seed(seed, 0x5E81E5'00000001,
  // 0); job m picks entry 0 when u * 4 < 1 (weights 1 and 3) -- single values, so one number per job.
  write("base.yaml",
        base_scenario(std::string("{name: J, threads: \"2:1, 5:3\", barriers: 5, compute: 1%, ") + kWait +
                      "}"));
  const auto plan = expand(
      "base: base.yaml\nseries: {threads: 12, classify: threads, classes: [small, big]}\nseeds: [9]\n");
  std::mt19937_64 engine(util::mix_seed(9, 0x5E81E5'00000001ULL, 0));
  std::vector<int> sizes;
  int total = 0;
  while (total <= 12) {
    sizes.push_back(unit(engine) * 4 < 1 ? 2 : 5);
    total += sizes.back();
  }
  ASSERT_EQ(plan.runs.size(), sizes.size());
  int threads = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    threads += sizes[i];
    EXPECT_EQ(plan.runs[i].values[0], std::to_string(threads)) << "prefix " << i + 1;
    EXPECT_EQ(plan.runs[i].seed, 9u);
    const std::string name = fmt::format("{}#{}", sizes[i] == 2 ? "small" : "big", i + 1);
    EXPECT_NE(plan.runs[i].sets.back().find("name: " + name), std::string::npos)
        << plan.runs[i].sets.back() << " expected " << name;
    EXPECT_NE(plan.runs[i].sets.back().find(fmt::format("threads: {}", sizes[i])), std::string::npos);
    // Each prefix extends the one before (run i has jobs j1..ji).
    if (i > 0) {
      const auto& before = plan.runs[i - 1].sets.back();
      EXPECT_EQ(plan.runs[i].sets.back().substr(0, before.size() - 1), before.substr(0, before.size() - 1));
    }
  }
  EXPECT_GT(threads, 12);
  EXPECT_LE(threads - sizes.back(), 12);
}

TEST_F(Series, SameFileSameSequenceOneSequencePerSeedAndAxesShareIt) {
  write("base.yaml",
        base_scenario(std::string("{name: J, threads: \"1-6:1\", barriers: 5, compute: \"1-20%:1\", ") +
                      kWait + "}"));
  const std::string sweep =
      "base: base.yaml\naxes:\n  workload.jobs.0.wait.spin: [CS, 2CS+]\nseries: {threads: 20, classify: "
      "compute}\n"
      "seeds: 3\n";
  const auto plan = expand(sweep);
  const auto again = expand(sweep);
  ASSERT_EQ(plan.runs.size(), again.runs.size());
  for (std::size_t i = 0; i < plan.runs.size(); ++i) EXPECT_EQ(plan.runs[i].id, again.runs[i].id);
  EXPECT_EQ(plan.axis_paths, (std::vector<std::string>{"series.threads", "workload.jobs.0.wait.spin"}));
  // Per spin value and seed, one sequence; the two spins share each seed's sequence (paired comparisons).
  std::map<std::pair<std::string, std::uint64_t>, std::vector<std::string>> prefixes;
  for (const auto& run : plan.runs) {
    std::string jobs = run.sets.back();
    while (jobs.find("spin: 2CS+") != std::string::npos)
      jobs.replace(jobs.find("spin: 2CS+"), 10, "spin: CS");
    prefixes[std::make_pair(run.values[1], run.seed)].push_back(jobs);
  }
  ASSERT_EQ(prefixes.size(), 6u) << "2 spins x 3 seeds";
  auto key = [](const char* spin, std::uint64_t seed) { return std::make_pair(std::string(spin), seed); };
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    EXPECT_EQ(prefixes[key("CS", seed)], prefixes[key("2CS+", seed)]) << "seed " << seed;
  EXPECT_NE(prefixes[key("CS", 1)], prefixes[key("CS", 2)]) << "another seed, another sequence";
  // Classes by compute entry: a single entry, named by it.
  EXPECT_NE(plan.runs[0].sets.back().find("compute=1-20%#1"), std::string::npos) << plan.runs[0].sets.back();
  // A larger N keeps the earlier prefixes and their run ids: the sequence does not depend on N.
  const auto longer = expand(
      "base: base.yaml\naxes:\n  workload.jobs.0.wait.spin: [CS, 2CS+]\nseries: {threads: 40, classify: "
      "compute}\n"
      "seeds: 3\n");
  std::set<std::string> ids;
  for (const auto& run : longer.runs) ids.insert(run.id);
  for (const auto& run : plan.runs) EXPECT_TRUE(ids.count(run.id)) << "run " << run.id << " kept";
  EXPECT_GT(longer.runs.size(), plan.runs.size());
}

TEST_F(Series, RepresentativesPutOneJobOfEachClassFirst) {
  // Thesis 9.2: with 3 classes a job of each is within the first 3 places, even when one class is rare.
  write("base.yaml",
        base_scenario(std::string("{name: J, threads: 2, barriers: 5, compute: \"1:1, 2:1, 3:20\", ") +
                      kWait + "}"));
  const auto plan = expand(
      "base: base.yaml\nseries: {threads: 30, classify: compute, classes: [a, b, c], representatives: true}\n"
      "seeds: 5\n");
  std::size_t runs_of_seed = 0;
  for (const auto& run : plan.runs) {
    if (run.seed != 1) continue;
    ++runs_of_seed;
  }
  ASSERT_EQ(runs_of_seed, 16u) << "2 threads a job: 16 jobs to exceed 30";
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto& third = *std::find_if(plan.runs.begin(), plan.runs.end(),
                                      [&](const auto& r) { return r.seed == seed && r.values[0] == "6"; });
    for (const char* cls : {"a#", "b#", "c#"})
      EXPECT_NE(third.sets.back().find(cls), std::string::npos) << third.sets.back();
  }
  // Without the constraint, the rare classes are mostly absent from the first three places.
  const auto free =
      expand("base: base.yaml\nseries: {threads: 30, classify: compute, classes: [a, b, c]}\nseeds: 5\n");
  int complete = 0;
  for (const auto& run : free.runs)
    if (run.values[0] == "6" && run.sets.back().find("a#") != std::string::npos &&
        run.sets.back().find("b#") != std::string::npos)
      ++complete;
  EXPECT_LT(complete, 5);
}

TEST_F(Series, QuickReplacesSeriesKeys) {
  write("base.yaml",
        base_scenario(std::string("{name: J, threads: 3, barriers: 5, compute: 1%, ") + kWait + "}"));
  const std::string sweep = "base: base.yaml\nseries: {threads: 30}\nquick: {series: {threads: 5}}\n";
  EXPECT_EQ(expand(sweep).runs.size(), 11u);
  EXPECT_EQ(expand(sweep, true).runs.size(), 2u);
}

TEST_F(Series, ErrorsAreLocated) {
  write("base.yaml",
        base_scenario(std::string("{name: J, threads: \"2:1, 5:1\", barriers: 5, compute: 1%, ") + kWait +
                      "}"));
  auto e = error_of("base: base.yaml\nseries: {threads: 10, classify: mu}\n");
  EXPECT_NE(e.find("s.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("series.classify"), std::string::npos) << e;
  EXPECT_NE(e.find("threads, compute or sigma"), std::string::npos) << e;
  e = error_of("base: base.yaml\nseries: {classify: threads}\n");
  EXPECT_NE(e.find("missing required key 'threads'"), std::string::npos) << e;
  e = error_of("base: base.yaml\nseries: {threads: 10, classify: threads, classes: [a, b, c]}\n");
  EXPECT_NE(e.find("s.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("3 class names"), std::string::npos) << e;
  e = error_of("base: base.yaml\nseries: {threads: 10, classes: [a#1]}\n");
  EXPECT_NE(e.find("without '#'"), std::string::npos) << e;
  e = error_of("base: base.yaml\nseries: {threads: 0}\n");
  EXPECT_NE(e.find("series.threads"), std::string::npos) << e;
  // Jobs of 2 or 5 threads: N = 5000 needs at least 1000 of them, over the 500 a sequence may hold.
  e = error_of("base: base.yaml\nseries: {threads: 5000}\n");
  EXPECT_NE(e.find("s.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("the sequence had 500 jobs"), std::string::npos) << e;
  EXPECT_NE(e.find("within 500 jobs"), std::string::npos) << e;
  e = error_of("base: base.yaml\nquick: {series: {threads: 5}}\n");
  EXPECT_NE(e.find("no 'series'"), std::string::npos) << e;
  write("two.yaml", base_scenario(std::string("{threads: 2, barriers: 5, compute: 1%, ") + kWait +
                                  "}\n    - " + "{threads: 2, barriers: 5, compute: 1%, " + kWait + "}"));
  e = error_of("base: two.yaml\nseries: {threads: 10}\n");
  EXPECT_NE(e.find("2 job profiles"), std::string::npos) << e;
}

}  // namespace
}  // namespace cosched
