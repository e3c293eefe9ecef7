#include "cli/interrupt.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include "util/signals_deferred.hpp"

namespace cosched::cli {
namespace {

// Written before the handlers can read it, and read only by them: no lock is needed, and everything the
// handlers call is async-signal-safe (POSIX.1-2017, 2.4.3).
char g_cleanup_dir[4096] = "";

void write_text(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_interrupt(int signal) {
  if (g_cleanup_dir[0] != '\0') ::rmdir(g_cleanup_dir);
  // A progress line may be on the terminal: start a fresh line.
  if (::isatty(STDERR_FILENO)) write_text("\r\033[K");
  write_text(signal == SIGINT ? "cosched: interrupted by SIGINT; no results written\n"
                              : "cosched: terminated by SIGTERM; no results written\n");
  ::_exit(128 + signal);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void remove_on_interrupt(const std::string& dir) {
  if (dir.size() >= sizeof g_cleanup_dir) return;
  util::SignalsDeferred deferred;
  std::memcpy(g_cleanup_dir, dir.c_str(), dir.size() + 1);
}

}  // namespace cosched::cli
