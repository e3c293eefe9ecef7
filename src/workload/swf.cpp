#include "workload/swf.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <sstream>
#include <string_view>

namespace cosched::workload {
namespace {

// The 18 fields of SWF 2.2 in order (swf.html, "The Data Fields"), with what each may hold. Every field may
// be -1, "unknown" (swf.html principles: "Fields that are irrelevant for a specific log or model appear with
// a value of -1"); otherwise counts, identifiers and times are never negative.
enum class Kind {
  Counter,  // field 1: "a counter field, starting from 1"
  Integer,  // -1 or an integer >= 0 (processors, identifiers, preceding job)
  Status,  // field 11: 1 completed, 0 failed, 5 cancelled, 2-4 partial executions (usage note); -1 for models
  Number,  // times and memory: -1 or a number >= 0 ("it is permissable to use floating point values for time
           // fields"; the archive writes integers, so decimals are accepted rather than required)
};

struct FieldSpec {
  const char* name;
  Kind kind;
};

constexpr std::size_t kFieldCount = 18;
constexpr std::array<FieldSpec, kFieldCount> kFields{{
    {"job number", Kind::Counter},
    {"submit time", Kind::Number},
    {"wait time", Kind::Number},
    {"run time", Kind::Number},
    {"allocated processors", Kind::Integer},
    {"average CPU time", Kind::Number},
    {"used memory", Kind::Number},
    {"requested processors", Kind::Integer},
    {"requested time", Kind::Number},
    {"requested memory", Kind::Number},
    {"status", Kind::Status},
    {"user", Kind::Integer},
    {"group", Kind::Integer},
    {"executable", Kind::Integer},
    {"queue", Kind::Integer},
    {"partition", Kind::Integer},
    {"preceding job", Kind::Integer},
    {"think time", Kind::Number},
}};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  void line(std::string_view text, int number) {
    const std::string_view content = trim(text);
    if (content.empty()) return;
    if (content.front() == ';') {
      header(content.substr(1), number);
      return;
    }
    record(content, number);
  }

  SwfTrace finish() {
    trace_.max_procs = max_procs_ ? max_procs_ : max_nodes_;
    return std::move(trace_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw SwfError(fmt::format("{}:{}: {}", name_, line, what));
  }

  [[noreturn]] void fail_field(int line, std::size_t index, const std::string& expected,
                               std::string_view got) const {
    fail(line,
         fmt::format("field {} ({}): expected {}, got {}", index + 1, kFields[index].name, expected, got));
  }

  // "; Key: value" (swf.html, "The Header Comments"). A comment line without a one-word key before a
  // colon (the continuation of a multi-line Note, a separator) is kept by no key. A key given twice
  // (Note, Queue, Partition lines) keeps every value, joined by newlines.
  void header(std::string_view comment, int line) {
    const std::size_t colon = comment.find(':');
    if (colon == std::string_view::npos) return;
    const std::string_view key = trim(comment.substr(0, colon));
    if (key.empty() || !std::isalpha(static_cast<unsigned char>(key.front()))) return;
    for (char c : key)
      if (!std::isalnum(static_cast<unsigned char>(c))) return;
    const std::string value(trim(comment.substr(colon + 1)));
    auto [entry, inserted] = trace_.header.try_emplace(std::string(key), value);
    if (!inserted) entry->second += "\n" + value;
    if (key == "MaxProcs") max_procs_ = machine_size(key, value, line);
    if (key == "MaxNodes") max_nodes_ = machine_size(key, value, line);
  }

  std::optional<std::int64_t> machine_size(std::string_view key, const std::string& value, int line) const {
    std::int64_t size = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, size);
    if (ec == std::errc() && ptr == end && size == -1) return std::nullopt;  // unknown
    if (ec != std::errc() || ptr != end || size < 1)
      fail(line,
           fmt::format("header {}: expected a positive integer (or -1, unknown), got '{}'", key, value));
    return size;
  }

  std::int64_t integer(std::string_view token, std::size_t index, int line) const {
    std::int64_t value = 0;
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, value);
    if (ec != std::errc() || ptr != end) fail_field(line, index, "an integer", fmt::format("'{}'", token));
    switch (kFields[index].kind) {
      case Kind::Counter:
        if (value < 1) fail_field(line, index, "an integer >= 1", token);
        break;
      case Kind::Status:
        if (value < -1 || value > 5) fail_field(line, index, "-1 (unknown), 0, 1, 2, 3, 4 or 5", token);
        break;
      default:
        if (value < -1) fail_field(line, index, "-1 (unknown) or an integer >= 0", token);
    }
    return value;
  }

  double number(std::string_view token, std::size_t index, int line) const {
    double value = 0;
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, value, std::chars_format::general);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
      fail_field(line, index, "a number", fmt::format("'{}'", token));
    if (value < 0 && value != -1) fail_field(line, index, "-1 (unknown) or a number >= 0", token);
    return value;
  }

  void record(std::string_view content, int line) {
    std::array<std::string_view, kFieldCount> tokens;
    std::size_t count = 0;
    while (!content.empty()) {
      std::size_t length = 0;
      while (length < content.size() && !is_space(content[length])) ++length;
      if (count < kFieldCount) tokens[count] = content.substr(0, length);
      ++count;
      content = trim(content.substr(length));
    }
    if (count != kFieldCount)
      fail(line,
           fmt::format("expected {} whitespace-separated fields (SWF 2.2), got {}", kFieldCount, count));

    SwfRecord r;
    r.line = line;
    r.number = integer(tokens[0], 0, line);
    r.submit = number(tokens[1], 1, line);
    r.wait = number(tokens[2], 2, line);
    r.run_time = number(tokens[3], 3, line);
    r.allocated_processors = integer(tokens[4], 4, line);
    r.average_cpu_time = number(tokens[5], 5, line);
    r.used_memory = number(tokens[6], 6, line);
    r.requested_processors = integer(tokens[7], 7, line);
    r.requested_time = number(tokens[8], 8, line);
    r.requested_memory = number(tokens[9], 9, line);
    r.status = integer(tokens[10], 10, line);
    r.user = integer(tokens[11], 11, line);
    r.group = integer(tokens[12], 12, line);
    r.executable = integer(tokens[13], 13, line);
    r.queue = integer(tokens[14], 14, line);
    r.partition = integer(tokens[15], 15, line);
    r.preceding_job = integer(tokens[16], 16, line);
    r.think_time = number(tokens[17], 17, line);

    // swf.html, field 11: statuses 2, 3 and 4 are the partial executions of a checkpointed or swapped job,
    // whose own line (status 0, 1 or 5) already stands for the whole job: counting both would run it twice.
    if (r.status >= 2 && r.status <= 4)
      return skip(line, fmt::format("partial execution (status {})", r.status));

    // swf.html, field 2: "The lines in the log are sorted by ascending submittal times". A stream replays
    // the file in order, so a job submitted before the one above it is an error rather than sorted here:
    // a file out of order is not the archive's format, and sorting would hide which line is wrong.
    if (r.submit >= 0) {
      if (previous_submit_line_ > 0 && r.submit < previous_submit_)
        fail_field(
            line, 1,
            fmt::format("at least {} (the submit time on line {}; SWF lines are sorted by submit time)",
                        previous_submit_, previous_submit_line_),
            tokens[1]);
      previous_submit_ = r.submit;
      previous_submit_line_ = line;
    }

    // The cleaning rules (docs/models/now-streams.md section 1.3): a job needs a submit time, a size and a
    // run time to be replayed; the first missing one is the reason given.
    if (r.submit < 0) return skip(line, "no submit time");
    if (r.allocated_processors > 0) {
      r.processors = r.allocated_processors;
    } else if (r.requested_processors > 0) {
      // swf.html, field 5: the allocated processors are the job's size; a log without them still says
      // what the job asked for (field 8), the size a scheduler would have allocated.
      r.processors = r.requested_processors;
      trace_.processors_requested.push_back(line);
    } else {
      return skip(line, "no processors");
    }
    if (r.run_time < 0) return skip(line, "no run time");
    // swf.html, field 4: a run time of 0 "means the job ran for less than 0.5 seconds" once rounded: no
    // length left to replay (cancelled jobs that never started, status 5, are written so too).
    if (r.run_time == 0) return skip(line, "zero run time");
    trace_.jobs.push_back(r);
  }

  void skip(int line, std::string why) { trace_.skipped.push_back({line, std::move(why)}); }

  std::string name_;
  SwfTrace trace_;
  std::optional<std::int64_t> max_procs_;
  std::optional<std::int64_t> max_nodes_;
  double previous_submit_ = 0;
  int previous_submit_line_ = 0;
};

SwfTrace parse_stream(std::istream& in, const std::string& name) {
  Reader reader(name);
  std::string text;
  int number = 0;
  while (std::getline(in, text)) reader.line(text, ++number);
  return reader.finish();
}

}  // namespace

SwfTrace read_swf(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  SwfTrace trace = parse_stream(in, path);
  if (in.bad()) throw std::runtime_error(fmt::format("{}: read error", path));
  return trace;
}

SwfTrace parse_swf(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return parse_stream(in, name);
}

}  // namespace cosched::workload
