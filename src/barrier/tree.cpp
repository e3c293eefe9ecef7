#include "barrier/tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/graph/graphviz.hpp>
#include <deque>
#include <ostream>
#include <stdexcept>

namespace cosched::barrier {

const std::vector<TreeKindEntry>& tree_kinds() {
  static const std::vector<TreeKindEntry> kinds = {
      {TreeKind::Flat, "flat", "the root notifies every process in turn (B&M 3.2: a sequential flat tree)"},
      {TreeKind::Binary, "binary", "process i notifies 2i+1 then 2i+2 (B&M 3.2.4 names it, unevaluated)"},
      {TreeKind::Binomial, "binomial",
       "broadcast tree: at each step every notified process notifies one more (B&M 3.2.1, Figure 1)"},
      {TreeKind::Skewed, "skewed",
       "the root sends alone for floor((L+2o)/o) sends, then the broadcast part (B&M 3.2.2, Figure 2)"},
      {TreeKind::OrderAwareSkewed, "order-aware-skewed",
       "the skewed tree with the last processes to arrive as its interior nodes (B&M 3.2.3)"},
  };
  return kinds;
}

std::optional<TreeKind> tree_kind_named(std::string_view name) {
  for (const auto& entry : tree_kinds())
    if (entry.name == name) return entry.kind;
  return std::nullopt;
}

std::string_view tree_kind_name(TreeKind kind) {
  for (const auto& entry : tree_kinds())
    if (entry.kind == kind) return entry.name;
  throw std::logic_error("notification tree: unknown kind");
}

std::string tree_kind_names() {
  std::string out;
  for (const auto& entry : tree_kinds()) {
    if (!out.empty()) out += ", ";
    out += entry.name;
  }
  return out;
}

int skew_sends(std::int64_t latency, std::int64_t overhead) {
  if (overhead <= 0) return std::numeric_limits<int>::max();
  const std::int64_t sends = (latency + 2 * overhead) / overhead;
  return static_cast<int>(std::clamp<std::int64_t>(sends, 1, std::numeric_limits<int>::max()));
}

namespace {

// A tree over positions 0..P-1 (position 0 the root): each position's children in send order. Positions
// are numbered in the order they are first reached in the construction, which order-aware-skewed uses.
using Children = std::vector<std::vector<int>>;

Children flat(int processes) {
  Children c(processes);
  for (int r = 1; r < processes; ++r) c[0].push_back(r);
  return c;
}

Children binary(int processes) {
  Children c(processes);
  for (int r = 1; r < processes; ++r) c[(r - 1) / 2].push_back(r);
  return c;
}

// B&M 3.2.1: "at each time step, every node that has received the data in a previous step is sending the
// data to a node that has yet to receive it". At step s (1, 2, ...) the 2^(s-1) holders 0..2^(s-1)-1 each
// send to the holder's rank + 2^(s-1), when that rank exists; 16 processes take log2(16) = 4 steps.
Children binomial(int processes) {
  Children c(processes);
  for (int half = 1; half < processes; half *= 2)
    for (int r = 0; r < half && r + half < processes; ++r) c[r].push_back(r + half);
  return c;
}

// B&M 3.2.2: the root keeps sending alone for the sends that fit before its first message arrives
// (skew_sends), "each node acts as before" once "the broadcast part of the tree" begins: at each step every
// holder, the root first and then the others in the order they were reached, sends to the next position.
Children skewed(int processes, int alone) {
  Children c(processes);
  int next = 1;
  std::vector<int> holders{0};
  for (int i = 0; i < alone && next < processes; ++i) {
    c[0].push_back(next);
    holders.push_back(next++);
  }
  while (next < processes) {
    const auto senders = holders.size();
    for (std::size_t h = 0; h < senders && next < processes; ++h) {
      c[holders[h]].push_back(next);
      holders.push_back(next++);
    }
  }
  return c;
}

// Rank of each position: identity, or for order-aware-skewed the latest arrivals on the positions reached
// first. Interior positions of a skewed tree are a prefix of its positions (a position reached earlier
// gets its children no later), so the interior nodes are the last processes to arrive (B&M 3.2.3: "the
// processes selected for use as interior nodes are then the last few to reach the barrier"); position 1,
// the root's first child, is the very last.
std::vector<int> ranks_of_positions(const TreeSpec& spec) {
  std::vector<int> rank(spec.processes);
  for (int p = 0; p < spec.processes; ++p) rank[p] = p;
  const auto& order = spec.arrival_order;
  if (!order.empty()) {
    if (static_cast<int>(order.size()) != spec.processes - 1)
      throw std::invalid_argument(fmt::format("arrival order: expected the {} ranks 1..{}, got {} ranks",
                                              spec.processes - 1, spec.processes - 1, order.size()));
    std::vector<char> seen(spec.processes, 0);
    for (int r : order) {
      if (r < 1 || r >= spec.processes)
        throw std::invalid_argument(
            fmt::format("arrival order: rank {} is not a non-root rank 1..{}", r, spec.processes - 1));
      if (seen[r]) throw std::invalid_argument(fmt::format("arrival order: rank {} appears twice", r));
      seen[r] = 1;
    }
  }
  if (spec.kind != TreeKind::OrderAwareSkewed) return rank;
  for (int p = 1; p < spec.processes; ++p)
    rank[p] = order.empty() ? spec.processes - p : order[order.size() - static_cast<std::size_t>(p)];
  return rank;
}

}  // namespace

TreeGraph build_tree(const TreeSpec& spec) {
  if (spec.processes < 1) throw std::invalid_argument("notification tree: expected at least one process");
  if (spec.latency < 0 || spec.overhead < 0)
    throw std::invalid_argument("notification tree: latency and overhead must not be negative");
  const int alone = skew_sends(spec.latency, spec.overhead);
  Children children;
  switch (spec.kind) {
    case TreeKind::Flat:
      children = flat(spec.processes);
      break;
    case TreeKind::Binary:
      children = binary(spec.processes);
      break;
    case TreeKind::Binomial:
      children = binomial(spec.processes);
      break;
    case TreeKind::Skewed:
    case TreeKind::OrderAwareSkewed:
      children = skewed(spec.processes, alone);
      break;
  }
  const auto rank = ranks_of_positions(spec);

  TreeGraph tree(spec.processes);
  // Idle network (docs/models/now.md 4.4): a process notified at t sends to its children one after the
  // other, each send costing it o; the j-th is handled by its child, after L on the wire and o to
  // receive, at t + j*o + L + o, when that child begins its own sends.
  std::deque<int> queue{0};
  while (!queue.empty()) {
    const int p = queue.front();
    queue.pop_front();
    const auto& parent = tree[rank[p]];
    const std::int64_t start = parent.notified;
    const int depth = parent.depth;
    int order = 0;
    for (int q : children[p]) {
      ++order;
      boost::add_edge(rank[p], rank[q], TreeEdge{order}, tree);
      tree[rank[q]].depth = depth + 1;
      tree[rank[q]].notified = start + order * spec.overhead + spec.latency + spec.overhead;
      queue.push_back(q);
    }
  }
  return tree;
}

std::vector<int> tree_children(const TreeGraph& tree, int rank) {
  std::vector<int> out;
  for (auto [e, end] = boost::out_edges(rank, tree); e != end; ++e)
    out.push_back(static_cast<int>(boost::target(*e, tree)));
  return out;
}

int tree_parent(const TreeGraph& tree, int rank) {
  auto [e, end] = boost::in_edges(rank, tree);
  return e == end ? -1 : static_cast<int>(boost::source(*e, tree));
}

int tree_depth(const TreeGraph& tree) {
  int depth = 0;
  for (auto [v, end] = boost::vertices(tree); v != end; ++v) depth = std::max(depth, tree[*v].depth);
  return depth;
}

namespace {

std::string microseconds(std::int64_t ns) {
  if (ns % 1000 == 0) return fmt::format("{}us", ns / 1000);
  return fmt::format("{}us", static_cast<double>(ns) / 1000.0);
}

}  // namespace

void write_tree_dot(std::ostream& out, const TreeGraph& tree) {
  boost::write_graphviz(
      out, tree,
      [&tree](std::ostream& o, TreeGraph::vertex_descriptor v) {
        o << fmt::format("[label=\"{}\\n{}\"]", v, microseconds(tree[v].notified));
      },
      [&tree](std::ostream& o, TreeGraph::edge_descriptor e) {
        o << fmt::format("[label=\"{}\"]", tree[e].order);
      });
}

void write_tree_text(std::ostream& out, const TreeGraph& tree) {
  // Depth first, children in send order.
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int r = stack.back();
    stack.pop_back();
    out << std::string(2 * static_cast<std::size_t>(tree[r].depth), ' ') << r << "  notified "
        << microseconds(tree[r].notified) << "\n";
    const auto kids = tree_children(tree, r);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
}

}  // namespace cosched::barrier
