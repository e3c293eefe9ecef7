#pragma once
// The Standard Workload Format of the Parallel Workloads Archive, version 2.2 (Chapin et al. 1999;
// https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): one job per line, 18 whitespace-separated
// fields, -1 for unknown, header comments after ';' ("; MaxProcs: 128"). docs/models/now-streams.md.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cosched::workload {

// A malformed line: "FILE:LINE: field N (name): expected ..., got ..." (the scenario layer reports it as an
// input error, exit code 2).
class SwfError : public std::runtime_error {
 public:
  explicit SwfError(const std::string& message) : std::runtime_error(message) {}
};

// The 18 fields, as written (-1: unknown). Times in seconds.
struct SwfRecord {
  std::int64_t number = -1;               // 1
  double submit = -1;                     // 2
  double wait = -1;                       // 3
  double run_time = -1;                   // 4
  std::int64_t allocated_processors = -1; // 5
  double average_cpu_time = -1;           // 6
  double used_memory = -1;                // 7
  std::int64_t requested_processors = -1; // 8
  double requested_time = -1;             // 9
  double requested_memory = -1;           // 10
  std::int64_t status = -1;               // 11
  std::int64_t user = -1;                 // 12
  std::int64_t group = -1;                // 13
  std::int64_t executable = -1;           // 14
  std::int64_t queue = -1;                // 15
  std::int64_t partition = -1;            // 16
  std::int64_t preceding_job = -1;        // 17
  double think_time = -1;                 // 18
  int line = 0;                           // where it was read
  // The job's size: field 5, or field 8 when the log has no allocation (the archive's fallback;
  // SwfTrace::processors_requested lists those lines). Set for every usable job.
  std::int64_t processors = -1;
};

struct SwfSkipped {
  int line = 0;
  std::string why;  // "no processors", "no run time", ...
};

struct SwfTrace {
  std::map<std::string, std::string> header;  // "MaxProcs" -> "128", from "; Key: value" comments
  std::optional<std::int64_t> max_procs;       // MaxProcs (or MaxNodes when it has none)
  std::vector<SwfRecord> jobs;                 // the usable jobs, in file order
  std::vector<SwfSkipped> skipped;             // the others, with why (the archive's cleaning rules)
  std::vector<int> processors_requested;       // lines of usable jobs sized by field 8 (field 5 unknown)
};

// Reads a file; throws SwfError for a malformed line (the first one), std::runtime_error when it cannot be read.
SwfTrace read_swf(const std::string& path);
// The same from text, `name` standing for the file in errors.
SwfTrace parse_swf(const std::string& text, const std::string& name);

}  // namespace cosched::workload
