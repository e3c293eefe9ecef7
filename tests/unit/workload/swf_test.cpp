// The Standard Workload Format reader (src/workload/swf.cpp; docs/models/now-streams.md section 1): a
// hand-written trace with every field kind, header comments, blank lines, -1 unknowns and each skip reason
// (tests/data/swf/every-field.swf), and one test per kind of malformed line with its exact message.

#include "workload/swf.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace cosched::workload {
namespace {

const std::string kEveryField = std::string(COSCHED_SOURCE_DIR) + "/tests/data/swf/every-field.swf";

// A line of 18 fields with `field` (1-based) replaced by `value`, the others those of a usable job.
std::string line_with(int field, const std::string& value) {
  std::string fields[18] = {"1",  "0", "-1", "100", "4",  "-1", "-1", "4",  "-1",
                            "-1", "1", "-1", "-1",  "-1", "-1", "-1", "-1", "-1"};
  fields[field - 1] = value;
  std::string line;
  for (const auto& f : fields) line += (line.empty() ? "" : " ") + f;
  return line + "\n";
}

std::string error_of(const std::string& text) {
  try {
    parse_swf(text, "t.swf");
  } catch (const SwfError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SwfRead, EveryFieldOfAUsableJobAsWritten) {
  const SwfTrace trace = read_swf(kEveryField);
  ASSERT_EQ(trace.jobs.size(), 4u);
  const SwfRecord& first = trace.jobs[0];
  EXPECT_EQ(first.line, 16);
  EXPECT_EQ(first.number, 1);
  EXPECT_EQ(first.submit, 0);
  EXPECT_EQ(first.wait, 10);
  EXPECT_EQ(first.run_time, 100);
  EXPECT_EQ(first.allocated_processors, 4);
  EXPECT_EQ(first.average_cpu_time, 95.5);
  EXPECT_EQ(first.used_memory, 1024);
  EXPECT_EQ(first.requested_processors, 4);
  EXPECT_EQ(first.requested_time, 3600);
  EXPECT_EQ(first.requested_memory, 2048);
  EXPECT_EQ(first.status, 1);
  EXPECT_EQ(first.user, 7);
  EXPECT_EQ(first.group, 3);
  EXPECT_EQ(first.executable, 12);
  EXPECT_EQ(first.queue, 1);
  EXPECT_EQ(first.partition, 2);
  EXPECT_EQ(first.preceding_job, -1);
  EXPECT_EQ(first.think_time, -1);
  EXPECT_EQ(first.processors, 4) << "the allocated processors";
}

TEST(SwfRead, DecimalTimesUnknownsAndTabs) {
  const SwfTrace trace = read_swf(kEveryField);
  ASSERT_EQ(trace.jobs.size(), 4u);
  const SwfRecord& second = trace.jobs[1];
  EXPECT_EQ(second.line, 17);
  EXPECT_EQ(second.submit, 5.25);
  EXPECT_EQ(second.wait, -1);
  EXPECT_EQ(second.run_time, 60.5);
  EXPECT_EQ(second.requested_processors, -1);
  EXPECT_EQ(second.requested_time, -1);
  EXPECT_EQ(second.status, 0) << "a failed job ran: kept";
  EXPECT_EQ(second.queue, 0) << "0, the interactive queue by the format's convention";
  EXPECT_EQ(second.preceding_job, 1);
  EXPECT_EQ(second.think_time, 30);
}

TEST(SwfRead, RequestedProcessorsSizeAJobWithoutAllocationAndAreListed) {
  const SwfTrace trace = read_swf(kEveryField);
  ASSERT_EQ(trace.jobs.size(), 4u);
  EXPECT_EQ(trace.jobs[2].line, 19);
  EXPECT_EQ(trace.jobs[2].allocated_processors, -1) << "as written";
  EXPECT_EQ(trace.jobs[2].processors, 16);
  EXPECT_EQ(trace.jobs[2].status, 5) << "cancelled after it ran 20 s: kept";
  EXPECT_EQ(trace.jobs[3].line, 21);
  EXPECT_EQ(trace.jobs[3].allocated_processors, 0);
  EXPECT_EQ(trace.jobs[3].processors, 2);
  EXPECT_EQ(trace.processors_requested, (std::vector<int>{19, 21}));
}

TEST(SwfRead, EachSkipReasonWithItsLineFirstReasonWins) {
  const SwfTrace trace = read_swf(kEveryField);
  ASSERT_EQ(trace.skipped.size(), 6u);
  const std::vector<std::pair<int, std::string>> expected = {
      {23, "no processors"},
      {24, "no run time"},
      {25, "zero run time"},
      {26, "no submit time"},
      {27, "partial execution (status 3)"},
      {28, "no processors"},  // no processors and a zero run time: the first rule's reason
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(trace.skipped[i].line, expected[i].first) << i;
    EXPECT_EQ(trace.skipped[i].why, expected[i].second) << i;
  }
}

TEST(SwfRead, HeaderCommentsAllKeptMaxProcsBeforeMaxNodes) {
  const SwfTrace trace = read_swf(kEveryField);
  EXPECT_EQ(trace.header.at("Version"), "2.2");
  EXPECT_EQ(trace.header.at("MaxJobs"), "10");
  EXPECT_EQ(trace.header.at("UnixStartTime"), "1000000000");
  EXPECT_EQ(trace.header.at("MaxNodes"), "16");
  EXPECT_EQ(trace.header.at("Note"), "every field kind, -1 unknowns,\nand one line per skip reason.")
      << "two Note lines joined; the continuation line without a key is kept by none";
  EXPECT_EQ(trace.header.size(), 10u);
  ASSERT_TRUE(trace.max_procs.has_value());
  EXPECT_EQ(*trace.max_procs, 64) << "MaxProcs, not MaxNodes";
}

TEST(SwfRead, MaxNodesWhenNoMaxProcsAndNoneWhenUnknown) {
  EXPECT_EQ(parse_swf("; MaxNodes: 32\n", "t.swf").max_procs, 32);
  EXPECT_EQ(parse_swf("; MaxProcs: -1\n; MaxNodes: 8\n", "t.swf").max_procs, 8);
  EXPECT_FALSE(parse_swf(";MaxProcs:-1\n", "t.swf").max_procs.has_value());
  EXPECT_FALSE(parse_swf("", "t.swf").max_procs.has_value());
}

TEST(SwfRead, CrLfLinesAndAnEmptyFile) {
  const SwfTrace trace = parse_swf("; MaxProcs: 4\r\n\r\n" + line_with(18, "-1\r"), "t.swf");
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].line, 3);
  EXPECT_EQ(trace.header.at("MaxProcs"), "4");
  EXPECT_TRUE(parse_swf("\n\n", "t.swf").jobs.empty());
}

TEST(SwfRead, EqualSubmitTimesAreInOrder) {
  const SwfTrace trace = parse_swf(line_with(2, "10") + line_with(2, "10"), "t.swf");
  EXPECT_EQ(trace.jobs.size(), 2u);
}

// ---- one test per error kind, with its exact message ----

TEST(SwfErrors, WrongFieldCount) {
  EXPECT_EQ(error_of("; MaxProcs: 4\n1 0 -1 100 4 -1 -1 4 -1 -1 1 -1 -1 -1 -1 -1 -1\n"),
            "t.swf:2: expected 18 whitespace-separated fields (SWF 2.2), got 17");
  EXPECT_EQ(error_of(line_with(18, "-1 -1")),
            "t.swf:1: expected 18 whitespace-separated fields (SWF 2.2), got 19");
}

TEST(SwfErrors, IntegerFieldNotAnInteger) {
  EXPECT_EQ(error_of(line_with(5, "4.0")),
            "t.swf:1: field 5 (allocated processors): expected an integer, got '4.0'");
  EXPECT_EQ(error_of(line_with(12, "alice")), "t.swf:1: field 12 (user): expected an integer, got 'alice'");
}

TEST(SwfErrors, TimeFieldNotANumber) {
  EXPECT_EQ(error_of(line_with(4, "1h")), "t.swf:1: field 4 (run time): expected a number, got '1h'");
  EXPECT_EQ(error_of(line_with(2, "nan")), "t.swf:1: field 2 (submit time): expected a number, got 'nan'");
}

TEST(SwfErrors, NegativeOtherThanUnknown) {
  EXPECT_EQ(error_of(line_with(8, "-2")),
            "t.swf:1: field 8 (requested processors): expected -1 (unknown) or an integer >= 0, got -2");
  EXPECT_EQ(error_of(line_with(18, "-0.5")),
            "t.swf:1: field 18 (think time): expected -1 (unknown) or a number >= 0, got -0.5");
  EXPECT_EQ(error_of(line_with(17, "-3")),
            "t.swf:1: field 17 (preceding job): expected -1 (unknown) or an integer >= 0, got -3");
}

TEST(SwfErrors, JobNumberCountsFromOne) {
  EXPECT_EQ(error_of(line_with(1, "0")), "t.swf:1: field 1 (job number): expected an integer >= 1, got 0");
  EXPECT_EQ(error_of(line_with(1, "-1")), "t.swf:1: field 1 (job number): expected an integer >= 1, got -1");
}

TEST(SwfErrors, StatusOutsideTheFormat) {
  EXPECT_EQ(error_of(line_with(11, "6")),
            "t.swf:1: field 11 (status): expected -1 (unknown), 0, 1, 2, 3, 4 or 5, got 6");
}

TEST(SwfErrors, SubmitTimeGoingBackwards) {
  EXPECT_EQ(error_of(line_with(2, "100") + "\n" + line_with(2, "-1") + line_with(2, "99.5")),
            "t.swf:4: field 2 (submit time): expected at least 100 (the submit time on line 1; SWF lines are "
            "sorted "
            "by submit time), got 99.5");
}

TEST(SwfErrors, MalformedMachineSize) {
  EXPECT_EQ(error_of("; Version: 2.2\n; MaxProcs: many\n"),
            "t.swf:2: header MaxProcs: expected a positive integer (or -1, unknown), got 'many'");
  EXPECT_EQ(error_of("; MaxNodes: 0\n"),
            "t.swf:1: header MaxNodes: expected a positive integer (or -1, unknown), got '0'");
}

TEST(SwfErrors, TheFirstMalformedLineIsReported) {
  EXPECT_EQ(error_of(line_with(5, "x") + line_with(6, "y")),
            "t.swf:1: field 5 (allocated processors): expected an integer, got 'x'");
}

TEST(SwfErrors, UnreadableFile) {
  try {
    read_swf("/nonexistent/trace.swf");
    FAIL() << "expected an error";
  } catch (const SwfError&) {
    FAIL() << "not a malformed line";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/trace.swf: cannot read: No such file or directory");
  }
}

// 100k lines in well under a second (a month of a large archive log): the file is read line by line.
TEST(SwfRead, AHundredThousandLinesQuickly) {
  const auto path =
      std::filesystem::temp_directory_path() / ("cosched-swf-" + std::to_string(::getpid()) + ".swf");
  {
    std::ofstream out(path);
    out << "; MaxProcs: 128\n";
    for (int i = 1; i <= 100000; ++i)
      out << i << ' ' << i * 3 << " -1 " << 10 + i % 1000 << ' ' << 1 + i % 128
          << " -1 -1 -1 3600 -1 1 -1 -1 -1 1 -1 -1 -1\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const SwfTrace trace = read_swf(path.string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove(path);
  EXPECT_EQ(trace.jobs.size(), 100000u);
  EXPECT_EQ(trace.jobs.back().submit, 300000);
  EXPECT_EQ(trace.jobs.back().processors, 1 + 100000 % 128);
  EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace cosched::workload
