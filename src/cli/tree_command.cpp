#include "cli/tree_command.hpp"

#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <limits>

#include "barrier/tree.hpp"
#include "config/input_error.hpp"
#include "config/limits.hpp"
#include "config/units.hpp"

namespace cosched::cli {
namespace {

// Larger trees are refused: their text would be unreadable and their graph needlessly large.
constexpr int kMaxProcesses = 100'000;

int parse_int(const std::string& option, const std::string& text, int low, int high, const char* what) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
    throw config::InputError(fmt::format("{} {}: expected {}", option, text, what));
  return value;
}

std::int64_t parse_duration(const std::string& option, const std::string& text) {
  const auto ns = config::parse_duration_ns(text);
  if (!ns || *ns < 0)
    throw config::InputError(
        fmt::format("{} {}: expected a non-negative duration with a unit, such as 10us", option, text));
  return *ns;
}

}  // namespace

CLI::App* add_tree_command(CLI::App& app, TreeOptions& options) {
  auto* tree = app.add_subcommand(
      "tree",
      "Print a barrier notification tree (Brim & Miller 3.2) with its idle-network notification times");
  tree->add_option("--kind", options.kind, "Tree kind: " + barrier::tree_kind_names())->required();
  tree->add_option("--processes", options.processes, "Processes in the job, the root included")->required();
  tree->add_option("--latency", options.latency, "Network latency L (default 10us)");
  tree->add_option("--overhead", options.overhead, "Per-message overhead o at each end (default 2us)");
  tree->add_option("--arrival-order", options.arrival_order,
                   "order-aware-skewed: ranks 1..N-1 in the order they reached the barrier, earliest first "
                   "(default 1,2,...,N-1)")
      ->delimiter(',');
  tree->add_option("--format", options.format, "text (default) or dot (Graphviz)");
  return tree;
}

int run_tree_command(const TreeOptions& options) {
  barrier::TreeSpec spec;
  const auto kind = barrier::tree_kind_named(options.kind);
  if (!kind)
    throw config::InputError(
        fmt::format("--kind {}: expected one of {}", options.kind, barrier::tree_kind_names()));
  spec.kind = *kind;
  spec.processes = parse_int("--processes", options.processes, 1, kMaxProcesses,
                             fmt::format("a process count from 1 to {}", kMaxProcesses).c_str());
  spec.latency = parse_duration("--latency", options.latency);
  spec.overhead = parse_duration("--overhead", options.overhead);
  // Notification times are sums of at most `processes` sends of L + 2o: keep them within the models'
  // largest simulated time, so that they are exact and never overflow.
  const std::int64_t limit = config::limits::kMaxSimulatedTime;
  if (spec.latency > limit || spec.overhead > limit ||
      spec.latency + 2 * spec.overhead > limit / spec.processes)
    throw config::InputError(fmt::format(
        "--latency {} --overhead {}: expected --processes x (L + 2o) of at most 1e15 ns (1,000,000 s), the "
        "largest simulated time",
        options.latency, options.overhead));
  if (options.format != "text" && options.format != "dot")
    throw config::InputError(fmt::format("--format {}: expected text or dot", options.format));
  if (!options.arrival_order.empty()) {
    if (spec.kind != barrier::TreeKind::OrderAwareSkewed)
      throw config::InputError(fmt::format(
          "--arrival-order: applies to --kind order-aware-skewed only (got --kind {})", options.kind));
    std::vector<char> seen(spec.processes, 0);
    const std::string range = fmt::format("a rank from 1 to {}", spec.processes - 1);
    for (const auto& text : options.arrival_order) {
      const int rank = parse_int("--arrival-order", text, 1, std::max(1, spec.processes - 1), range.c_str());
      if (rank >= spec.processes)
        throw config::InputError(fmt::format("--arrival-order {}: expected {}", text, range));
      if (seen[rank])
        throw config::InputError(fmt::format("--arrival-order {}: rank {} given twice", text, rank));
      seen[rank] = 1;
      spec.arrival_order.push_back(rank);
    }
    if (static_cast<int>(spec.arrival_order.size()) != spec.processes - 1)
      throw config::InputError(fmt::format("--arrival-order: expected all {} ranks 1..{} once each, got {}",
                                           spec.processes - 1, spec.processes - 1,
                                           spec.arrival_order.size()));
  }
  const auto tree = barrier::build_tree(spec);
  if (options.format == "dot") {
    barrier::write_tree_dot(std::cout, tree);
  } else {
    std::cout << fmt::format(
        "# {} tree, {} processes, L = {}us, o = {}us: rank, then when it is notified on an "
        "idle network\n",
        barrier::tree_kind_name(spec.kind), spec.processes, static_cast<double>(spec.latency) / 1000.0,
        static_cast<double>(spec.overhead) / 1000.0);
    barrier::write_tree_text(std::cout, tree);
  }
  std::cout.flush();
  return 0;
}

}  // namespace cosched::cli
