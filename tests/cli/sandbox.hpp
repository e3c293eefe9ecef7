// Shared helpers of the end-to-end command-line tests: a Sandbox that runs the cosched binary through
// /bin/sh in a fresh temporary directory, the captured Result, the checks every test uses (no crash,
// bad input, success) and readers of the result files.
//
// Exit codes under test (src/cli/main.cpp): 0 success, 2 bad input (scenario or arguments), 1 internal.
// Bad input must be reported on exactly one stderr line, "cosched: error: <where>: <key path>: ...".

#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace cosched::cli_test {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline const fs::path kBinary = COSCHED_BIN;
inline const fs::path kRoot = COSCHED_SOURCE_DIR;
inline const fs::path kData = kRoot / "tests" / "data";
inline const fs::path kQuickstart = kRoot / "scenarios" / "quickstart.yaml";
inline const fs::path kCh4 = kRoot / "scenarios" / "tsafrir" / "ch4-homogeneous.yaml";

// A generous bound so that a hanging run fails its test instead of stalling the whole suite.
inline constexpr int kTimeoutSeconds = 30;

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Result {
  int status = -1;  // exit code; 128 + signal when the process was killed
  std::string out;
  std::string err;
  std::string command;

  // For assertion messages: everything needed to see what happened.
  std::string describe() const {
    return fmt::format("\n  command: {}\n  exit status: {}\n  stdout: <<{}>>\n  stderr: <<{}>>", command,
                       status, out, err);
  }
};

// A fresh temporary directory per test: work/ is the current directory of the runs, the captured
// output lives beside it so that it never mixes with what cosched writes.
class Sandbox {
 public:
  Sandbox() {
    static std::atomic<int> counter{0};
    std::random_device random;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "-" + info->name() : "test";
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '-';
    root_ = fs::temp_directory_path() /
            fmt::format("cosched-cli-{}-{}-{}-{:08x}", name, ::getpid(), counter++, random());
    fs::create_directories(root_ / "work");
  }
  ~Sandbox() {
    std::error_code ec;
    if (!std::getenv("COSCHED_KEEP_TEST_DIRS")) fs::remove_all(root_, ec);
  }
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // The directory the runs start in.
  fs::path work() const { return root_ / "work"; }

  Result run(const std::vector<std::string>& args, int timeout_seconds = kTimeoutSeconds) {
    const int n = runs_++;
    const fs::path out = root_ / fmt::format("stdout-{}.txt", n);
    const fs::path err = root_ / fmt::format("stderr-{}.txt", n);
    std::string command = shell_quote(kBinary.string());
    for (const auto& arg : args) {
      command += ' ';
      command += shell_quote(arg);
    }
    const std::string line =
        fmt::format("cd {} && timeout -k 5 {} {} >{} 2>{}", shell_quote(work().string()), timeout_seconds,
                    command, shell_quote(out.string()), shell_quote(err.string()));
    Result result;
    result.command = command;
    const int raw = std::system(line.c_str());  // runs /bin/sh -c line
    if (raw == -1) {
      result.status = -1;
    } else if (WIFEXITED(raw)) {
      result.status = WEXITSTATUS(raw);
    } else if (WIFSIGNALED(raw)) {
      result.status = 128 + WTERMSIG(raw);
    }
    result.out = read_text(out);
    result.err = read_text(err);
    return result;
  }

 private:
  fs::path root_;
  int runs_ = 0;
};

// Words that only appear when the program died instead of reporting an error.
inline void expect_no_crash(const Result& r) {
  for (const char* word :
       {"terminate called", "Segmentation", "Aborted", "what():", "backtrace", "core dumped"}) {
    EXPECT_FALSE(contains(r.out, word)) << "expected no '" << word << "' on stdout" << r.describe();
    EXPECT_FALSE(contains(r.err, word)) << "expected no '" << word << "' on stderr" << r.describe();
  }
  EXPECT_TRUE(r.status >= 0 && r.status < 124)
      << "expected a normal exit, not a signal or a timeout" << r.describe();
}

// Bad input: exit 2, nothing on stdout, exactly one line on stderr starting "cosched: error: ".
// Returns that line (empty when the shape is wrong).
inline std::string expect_input_error(const Result& r) {
  expect_no_crash(r);
  EXPECT_EQ(r.status, 2) << "expected exit code 2 (bad input)" << r.describe();
  EXPECT_EQ(r.out, "") << "expected nothing on stdout for bad input" << r.describe();
  const auto lines = split_lines(r.err);
  EXPECT_EQ(lines.size(), 1u) << "expected exactly one line on stderr" << r.describe();
  EXPECT_TRUE(r.err.empty() || r.err.back() == '\n')
      << "expected the error line to end with a newline" << r.describe();
  if (lines.empty()) return "";
  EXPECT_EQ(lines[0].rfind("cosched: error: ", 0), 0u)
      << "expected stderr to start with 'cosched: error: '" << r.describe();
  return lines[0];
}

inline void expect_success(const Result& r) {
  expect_no_crash(r);
  EXPECT_EQ(r.status, 0) << "expected exit code 0" << r.describe();
  EXPECT_EQ(r.err, "") << "expected nothing on stderr for a successful run" << r.describe();
}

inline json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "expected " << path << " to exist";
    return json();
  }
  try {
    return json::parse(in);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected " << path << " to be valid JSON: " << e.what();
    return json();
  }
}

inline json without(json summary, std::initializer_list<json::json_pointer> pointers) {
  for (const auto& pointer : pointers) {
    if (!summary.contains(pointer)) continue;
    summary.at(pointer.parent_pointer()).erase(pointer.back());
  }
  return summary;
}

// Runs `cosched run ARGS --out out --quiet` and returns the summary (null on failure).
inline json run_summary(Sandbox& box, std::vector<std::string> args, const std::string& out = "out",
                        int timeout_seconds = kTimeoutSeconds) {
  args.insert(args.begin(), "run");
  args.insert(args.end(), {"--out", out, "--quiet"});
  auto r = box.run(args, timeout_seconds);
  expect_success(r);
  if (r.status != 0) return json();
  return read_json(box.work() / out / "summary.json");
}

// Cells of a simple CSV file (no quoted commas), the header first.
inline std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : split_lines(read_text(path))) {
    std::vector<std::string> cells;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace cosched::cli_test
