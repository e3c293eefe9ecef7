#include "platform/platform_check.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

#include "config/input_error.hpp"

namespace cosched::platform {
namespace {

namespace sg4 = simgrid::s4u;

constexpr int kChildSeconds = 60;
constexpr double kMinBandwidthBytesPerSecond = 125;  // 1 kbps, as platform.bandwidth
constexpr double kMaxLatencySeconds = 1e6;           // 1,000,000 s, as platform.latency

// What the child is doing, in memory shared with the parent when a check runs (else a private buffer).
struct CrashContext {
  char what[64];
  char from[256];
  char to[256];
};
CrashContext g_private_context;
CrashContext* g_context = &g_private_context;

void copy_name(char* target, std::size_t size, const std::string& name) {
  const std::size_t n = std::min(name.size(), size - 1);
  std::memcpy(target, name.data(), n);
  target[n] = '\0';
}

// The line of `file` that declares `id` (an id="..." attribute), or 0 when none does.
int declaration_line(const std::string& file, const std::string& id) {
  std::ifstream in(file);
  const std::string needle = "id=\"" + id + "\"";
  const std::string needle_single = "id='" + id + "'";
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find(needle) != std::string::npos || line.find(needle_single) != std::string::npos)
      return number;
  }
  return 0;
}

// "file:line: platform.file: <what>": located at the declaration of `id`, else at that of its zone, else
// at the file. Clusters name their links "<cluster>_link_<n>[_UP|_DOWN]", so a link is also looked for
// without its trailing "_..." parts.
[[noreturn]] void fail(const std::string& file, std::string id, const std::string& zone,
                       const std::string& what) {
  int line = declaration_line(file, id);
  if (line == 0 && !zone.empty()) line = declaration_line(file, zone);
  for (auto cut = id.rfind('_'); line == 0 && cut != std::string::npos && cut > 0; cut = id.rfind('_')) {
    id.erase(cut);
    line = declaration_line(file, id);
  }
  const std::string where = line > 0 ? fmt::format("{}:{}", file, line) : file;
  throw config::InputError(fmt::format("{}: platform.file: {}", where, what));
}

// SimGrid's messages may span lines (an old file version gets a "BIG FAT WARNING" block): one line of at
// most 300 characters, without the asterisks that frame such blocks.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == '*') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > 300) out = out.substr(0, 300) + "...";
  return out;
}

std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<std::size_t>(n));
      if (out.size() > (1 << 20)) out.erase(0, out.size() - (1 << 16));  // keep the tail
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return out;
  }
}

// The line of SimGrid's output that says what went wrong: its first critical or error message, an
// assertion, or else the first line. Without SimGrid's "[time] file:line: [category/LEVEL] " prefix.
std::string diagnostic(const std::string& output) {
  std::istringstream in(output);
  std::string first, chosen;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (first.empty()) first = line;
    for (const char* marker : {"/CRITICAL] ", "/ERROR] ", "Assertion "}) {
      if (auto at = line.find(marker); at != std::string::npos && chosen.empty()) {
        chosen = line.substr(marker[0] == '/' ? at + std::strlen(marker) : at);
      }
    }
  }
  return one_line(chosen.empty() ? first : chosen);
}

}  // namespace

void fail_at_declaration(const std::string& file, const std::string& id, const std::string& zone,
                         const std::string& what) {
  fail(file, id, zone, what);
}

void set_crash_context(const char* what, const std::string& from, const std::string& to) {
  copy_name(g_context->what, sizeof g_context->what, what);
  copy_name(g_context->from, sizeof g_context->from, from);
  copy_name(g_context->to, sizeof g_context->to, to);
}

void check_in_child_process(const std::string& file, const std::function<void()>& load) {
  void* shared =
      ::mmap(nullptr, sizeof(CrashContext), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("platform check: mmap failed");
  auto* context = new (shared) CrashContext{};
  int output[2], verdict[2];
  if (::pipe(output) != 0 || ::pipe(verdict) != 0) throw std::runtime_error("platform check: pipe failed");
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("platform check: fork failed");
  if (child == 0) {
    // The child: SimGrid's messages go to the pipe, no core file, default signals, a time limit.
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::alarm(kChildSeconds);
    ::dup2(output[1], STDOUT_FILENO);
    ::dup2(output[1], STDERR_FILENO);
    ::close(output[0]);
    ::close(verdict[0]);
    g_context = context;
    std::string message;
    int status = 0;
    try {
      load();
    } catch (const config::InputError& e) {
      message = one_line(e.what());
      status = 2;
    } catch (const std::exception& e) {
      message =
          fmt::format("{}: platform.file: SimGrid cannot load this platform: {}", file, one_line(e.what()));
      status = 2;
    }
    const ssize_t ignored = ::write(verdict[1], message.data(), message.size());
    (void)ignored;
    ::_exit(status);
  }
  ::close(output[1]);
  ::close(verdict[1]);
  const std::string printed = read_all(output[0]);
  const std::string message = read_all(verdict[0]);
  ::close(output[0]);
  ::close(verdict[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const CrashContext seen = *context;
  ::munmap(shared, sizeof(CrashContext));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && !message.empty()) throw config::InputError(message);
  std::string how;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    how = fmt::format("SimGrid took longer than {} s to load it", kChildSeconds);
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) {
    how = "SimGrid aborted";
  } else if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    how = fmt::format("SimGrid crashed ({})", signal == SIGSEGV  ? "SIGSEGV"
                                              : signal == SIGBUS ? "SIGBUS"
                                              : signal == SIGFPE ? "SIGFPE"
                                                                 : fmt::format("signal {}", signal));
  } else {
    how = fmt::format("SimGrid exited with status {}", WEXITSTATUS(status));
  }
  if (seen.what[0] != '\0') how += fmt::format(" while {} from {} to {}", seen.what, seen.from, seen.to);
  // After a crash SimGrid only repeats the signal's name; otherwise its message says what was wrong.
  const bool crashed = WIFSIGNALED(status) && WTERMSIG(status) != SIGABRT;
  const std::string said = crashed ? "" : diagnostic(printed);
  throw config::InputError(fmt::format("{}: platform.file: {}{}; expected a valid SimGrid platform", file,
                                       how, said.empty() ? "" : ": " + said));
}

void check_platform_values(const sg4::Engine& engine, const std::string& file, int max_cores) {
  for (const auto* host : engine.get_all_hosts()) {
    const std::string zone = host->get_englobing_zone() ? host->get_englobing_zone()->get_name() : "";
    for (unsigned long p = 0; p < host->get_pstate_count(); ++p) {
      const double speed = host->get_pstate_speed(p);
      if (!std::isfinite(speed) || speed <= 0)
        fail(file, host->get_name(), zone,
             fmt::format("host '{}' has speed {:g} flop/s; expected a positive finite speed such as 1Gf",
                         host->get_name(), speed));
    }
    const int cores = host->get_core_count();
    if (cores < 1 || cores > max_cores)
      fail(file, host->get_name(), zone,
           fmt::format("host '{}' has {} cores; expected 1 to {}", host->get_name(), cores, max_cores));
  }
  for (const auto* link : engine.get_all_links()) {
    const std::string& name = link->get_name();
    const double bandwidth = link->get_bandwidth();
    if (!std::isfinite(bandwidth) || bandwidth < kMinBandwidthBytesPerSecond)
      fail(file, name, "",
           fmt::format("link '{}' has bandwidth {:g} B/s; expected a finite bandwidth of at least 1kbps",
                       name, bandwidth));
    const double latency = link->get_latency();
    if (!std::isfinite(latency) || latency < 0 || latency > kMaxLatencySeconds)
      fail(file, name, "",
           fmt::format("link '{}' has latency {:g} s; expected a latency from 0 to 1000000s", name, latency));
  }
}

}  // namespace cosched::platform
