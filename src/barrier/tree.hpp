#pragma once
// Barrier notification trees (Brim & Miller 3.2): who forwards the root's completion notice to whom, as a
// Boost.Graph graph built by a pure function of (kind, process count, arrival order, L, o), with the time
// each process is notified on an idle network. No SimGrid. docs/models/now.md section 4.4 states the
// rules and the choices the paper leaves open.

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string_view>
#include <vector>

#include "barrier/tree_kind.hpp"

namespace cosched::barrier {

// Vertex v of a tree is rank v of the job; rank 0 is the root.
struct TreeVertex {
  int depth = 0;              // edges from the root
  std::int64_t notified = 0;  // ns after the root starts sending, on an idle network
};
// An edge parent -> child; a parent's out-edges are listed in the order it sends.
struct TreeEdge {
  int order = 0;  // 1-based position of this send among the parent's sends
};
using TreeGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, TreeVertex, TreeEdge>;

struct TreeSpec {
  TreeKind kind = TreeKind::Flat;
  int processes = 1;
  // order-aware-skewed: the non-root ranks (1..processes-1, each once) in the order their arrivals
  // reached the root, earliest first. Empty: rank order 1, 2, ..., processes-1.
  std::vector<int> arrival_order;
  std::int64_t latency = 10'000;  // L, ns
  std::int64_t overhead = 2'000;  // o, ns: the sender's cost of a send and the receiver's of a receive
};

// The sends the root of a skewed tree makes alone before the broadcast part begins (B&M 3.2.1: during
// the L + 2o its first message needs, "the root process could send (L + 2o)/o additional messages"):
// floor((L + 2o) / o), the sends that end no later than its first message is handled, the first one
// included. At least 1. o = 0 makes the root send to everybody alone (a flat tree).
int skew_sends(std::int64_t latency, std::int64_t overhead);

// Builds the tree. Throws std::invalid_argument for a process count below 1, a negative L or o, or an
// arrival order that is not a permutation of 1..processes-1.
TreeGraph build_tree(const TreeSpec& spec);

// The children of `rank` in the order it sends to them; its parent (-1 for the root).
std::vector<int> tree_children(const TreeGraph& tree, int rank);
int tree_parent(const TreeGraph& tree, int rank);
int tree_depth(const TreeGraph& tree);  // largest vertex depth

// Graphviz DOT through boost::write_graphviz: vertices labelled "rank\nnotified us", edges by send order.
void write_tree_dot(std::ostream& out, const TreeGraph& tree);
// An indented text tree, children in send order, with notification times in microseconds.
void write_tree_text(std::ostream& out, const TreeGraph& tree);

}  // namespace cosched::barrier
