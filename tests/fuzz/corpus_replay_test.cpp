// Replays the committed fuzz corpus (tests/fuzz/corpus/) through the fuzz target's entry point in the
// ordinary test suite: every file must end in a valid scenario or a config::InputError. Files named valid-*
// must load, files named bad-* must be refused; the others (tricky YAML, --set paths) may end either way.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scenario_input.hpp"

namespace {

namespace fs = std::filesystem;
using cosched::fuzz::Outcome;

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "cosched-corpus-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path file(const std::string& name) const { return dir_ / name; }

 private:
  fs::path dir_;
};

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(COSCHED_FUZZ_CORPUS))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzInput, SetLinesBecomeOverridesInOrder) {
  const auto overrides = cosched::fuzz::overrides_of(
      "model: smp\n#set seed=3\n  #set not.at.line.start=1\n#setx=1\n#set a.b={c: 1}\r\n#set ");
  ASSERT_EQ(overrides.size(), 3U);
  EXPECT_EQ(overrides[0], "seed=3");
  EXPECT_EQ(overrides[1], "a.b={c: 1}\r");
  EXPECT_EQ(overrides[2], "");
}

TEST(FuzzInput, OverridesReachTheLoader) {
  ScratchDir scratch;
  const std::string file = scratch.file("scenario.yaml").string();
  const std::string base = read_bytes(fs::path(COSCHED_SOURCE_DIR) / "scenarios/quickstart.yaml");
  EXPECT_EQ(cosched::fuzz::check_scenario_input(base, file), Outcome::Valid);
  EXPECT_EQ(cosched::fuzz::check_scenario_input(base + "\n#set platform.cpus=0\n", file),
            Outcome::InputError);
  EXPECT_EQ(cosched::fuzz::check_scenario_input(base + "\n#set no_such_key=1\n", file), Outcome::InputError);
}

TEST(FuzzCorpus, EveryFileEndsInAScenarioOrAnInputError) {
  ScratchDir scratch;
  const std::string file = scratch.file("scenario.yaml").string();
  const auto files = corpus_files();
  ASSERT_GE(files.size(), 20U) << "the corpus in " << COSCHED_FUZZ_CORPUS << " looks truncated";
  int valid = 0;
  int refused = 0;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    Outcome outcome;
    std::string error;
    try {
      outcome = cosched::fuzz::check_scenario_input(read_bytes(path), file, &error);
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << ": the loader threw something other than config::InputError: " << e.what();
      continue;
    }
    (outcome == Outcome::Valid ? valid : refused)++;
    if (name.starts_with("valid-")) {
      EXPECT_EQ(outcome, Outcome::Valid) << name << " should load, but: " << error;
    }
    if (name.starts_with("bad-")) {
      EXPECT_EQ(outcome, Outcome::InputError) << name << " should be refused";
    }
  }
  EXPECT_GT(valid, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
