#pragma once
// `cosched tree`: prints a barrier notification tree (Brim & Miller 3.2) as Graphviz DOT or as an
// indented text tree with the time each process is notified on an idle network (docs/models/now.md 4.4).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace cosched::cli {

struct TreeOptions {
  std::string kind;
  std::string processes;
  std::string latency = "10us";
  std::string overhead = "2us";
  std::vector<std::string> arrival_order;
  std::string format = "text";
};

// Adds `tree` to `app`; returns it.
CLI::App* add_tree_command(CLI::App& app, TreeOptions& options);

// Prints the tree to stdout. Throws config::InputError for bad arguments.
int run_tree_command(const TreeOptions& options);

}  // namespace cosched::cli
