#pragma once
// SIGINT and SIGTERM: a run stops at once with one line on stderr and exit code 130 or 143 (128 + the
// signal), removing its staging directory, so that an earlier run's results stay as they were and nothing
// partial is left behind (docs/scenario-format.md, "Exit codes"). Result files are moved into place with
// the signals held back (metrics::ResultStaging::commit), so an interruption never splits that step.

#include <string>

namespace cosched::cli {

// Installs the handlers; call once, early in main. (platform::make_engine keeps SimGrid from replacing
// them.)
void install_interrupt_handlers();

// The directory an interruption removes (empty: none). It must be empty or hold only files, as a staging
// directory does while the simulation runs.
void remove_on_interrupt(const std::string& dir);

}  // namespace cosched::cli
