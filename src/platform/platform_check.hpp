#pragma once
// Platform files are checked before a run relies on them. SimGrid aborts or crashes on some bad values
// (a zero core count, a zone with an unknown routing, two hosts without a route between them) and accepts
// others that make no sense (a negative speed or latency), so cosched loads a platform file first in a
// child process, checks every value it got, and turns whatever went wrong into one line of bad input
// (docs/scenario-format.md, "Platform files").

#include <functional>
#include <simgrid/s4u.hpp>
#include <string>

namespace cosched::platform {

// Runs `load` in a child process: `load` creates a SimGrid engine, loads the platform file `file` and
// checks it (throwing config::InputError for what is wrong). Throws config::InputError, naming `file`,
// when `load` throws, or when SimGrid aborts, crashes or takes longer than a minute in it.
void check_in_child_process(const std::string& file, const std::function<void()>& load);

// Checks what SimGrid made of a platform file: host speeds positive and finite (every power state), core
// counts from 1 to `max_cores`, link bandwidths of at least 1 kbps and finite, latencies finite, not
// negative and at most 1,000,000 s: the bounds of the scenario keys with the same meaning. Throws
// config::InputError located at the element of `file` that declares the host, link or cluster.
void check_platform_values(const simgrid::s4u::Engine& engine, const std::string& file, int max_cores);

// Throws config::InputError "file:line: platform.file: <what>", located at the element of `file` that
// declares `id` (an id="..." attribute, or the cluster that made a link "<cluster>_link_<n>_UP"), else at
// the declaration of `zone`, else at the file alone: how a model's own checks of its platform's structure
// (platform/numa_platform.cpp) point at the element they refuse.
[[noreturn]] void fail_at_declaration(const std::string& file, const std::string& id, const std::string& zone,
                                      const std::string& what);

// Says what the process is doing (`what` and two names, e.g. "computing the route", "ws-1", "ws-2"), so that
// a crash in the child process of check_in_child_process can say where it happened. Cheap: no formatting.
void set_crash_context(const char* what, const std::string& from, const std::string& to);

}  // namespace cosched::platform
