#include "numa/rmt.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace cosched::numa {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("resource tree: " + what);
}

}  // namespace

ResourceTree::ResourceTree(const platform::NumaTopology& topology, int pages_per_cluster, int processes)
    : switches_(static_cast<int>(topology.switches.size())),
      processes_(processes),
      pages_per_cluster_(pages_per_cluster) {
  if (switches_ == 0) fail("the topology has no switch");
  const auto& root_switch = topology.switches[0];
  if (root_switch.parent != -1 || root_switch.first != 0 || root_switch.count <= 0)
    fail("switch 0 is not a root over clusters 0 .. n-1");
  clusters_ = root_switch.count;
  if (!topology.clusters.empty() && static_cast<int>(topology.clusters.size()) != clusters_)
    fail(fmt::format("{} hosts under a root of {} clusters", topology.clusters.size(), clusters_));
  if (processes_ < 0 || pages_per_cluster_ < 0) fail("a negative process or frame count");

  ranges_.resize(switches_);
  parent_.resize(switches_);
  children_.resize(switches_);
  for (int s = 0; s < switches_; ++s) {
    const auto& sw = topology.switches[s];
    ranges_[s] = {sw.first, sw.count};
    parent_[s] = sw.parent;
    if (s == 0) continue;
    if (sw.parent < 0 || sw.parent >= switches_ || sw.parent == s)
      fail(fmt::format("switch {} has no parent switch", s));
    const auto& up = topology.switches[sw.parent];
    if (sw.count <= 0 || sw.first < up.first || sw.first + sw.count > up.first + up.count)
      fail(fmt::format("switch {}'s clusters are not within its parent's", s));
    children_[sw.parent].push_back(s);
  }
  // Each cluster hangs under the deepest switch whose range holds it.
  bottom_.assign(clusters_, -1);
  for (int s = 0; s < switches_; ++s) {
    for (int c = ranges_[s].first; c < ranges_[s].first + ranges_[s].count; ++c) {
      const int current = bottom_[c];
      if (current >= 0 && topology.switches[current].level == topology.switches[s].level)
        fail(fmt::format("switches {} and {} of one level share cluster {}", current, s, c));
      if (current < 0 || topology.switches[s].level > topology.switches[current].level) bottom_[c] = s;
    }
  }

  free_processors_.resize(switches_);
  free_pages_.resize(switches_);
  for (int s = 0; s < switches_; ++s) {
    free_processors_[s] = ranges_[s].count;
    free_pages_[s] = ranges_[s].count * pages_per_cluster_;
  }
  used_processors_.assign(static_cast<std::size_t>(switches_) * processes_, 0);
  used_pages_.assign(static_cast<std::size_t>(switches_) * processes_, 0);
  holder_.assign(clusters_, -1);
  free_.assign(clusters_, 1);
  cluster_free_pages_.assign(clusters_, pages_per_cluster_);
  cluster_pages_.assign(static_cast<std::size_t>(processes_) * clusters_, 0);
}

void ResourceTree::check_process(int process) const {
  if (process < 0 || process >= processes_) fail(fmt::format("no process {}", process));
}

void ResourceTree::check_cluster(int cluster) const {
  if (cluster < 0 || cluster >= clusters_) fail(fmt::format("no cluster {}", cluster));
}

ResourceTree::Range ResourceTree::clusters_below(int node) const {
  if (is_cluster(node)) return {node - switches_, 1};
  return ranges_[node];
}

void ResourceTree::allocate(int process, int cluster) {
  check_process(process);
  check_cluster(cluster);
  if (holder_[cluster] >= 0)
    fail(fmt::format("cluster {} given to process {} while process {} holds it", cluster, process,
                     holder_[cluster]));
  holder_[cluster] = process;
  free_[cluster] = 0;
  for (int s = bottom_[cluster]; s >= 0; s = parent_[s]) {
    --free_processors_[s];
    ++used_processors_[at(s, process)];
  }
}

void ResourceTree::release(int process, int cluster) {
  check_process(process);
  check_cluster(cluster);
  if (holder_[cluster] != process)
    fail(fmt::format("process {} released cluster {}, which it does not hold", process, cluster));
  holder_[cluster] = -1;
  free_[cluster] = 1;
  for (int s = bottom_[cluster]; s >= 0; s = parent_[s]) {
    ++free_processors_[s];
    --used_processors_[at(s, process)];
  }
}

void ResourceTree::release_all() {
  holder_.assign(clusters_, -1);
  free_.assign(clusters_, 1);
  for (int s = 0; s < switches_; ++s) free_processors_[s] = ranges_[s].count;
  std::fill(used_processors_.begin(), used_processors_.end(), 0);
}

void ResourceTree::page_in(int process, int cluster) {
  check_process(process);
  check_cluster(cluster);
  if (cluster_free_pages_[cluster] == 0)
    fail(fmt::format("a page of process {} into cluster {}, which has no free frame", process, cluster));
  --cluster_free_pages_[cluster];
  ++cluster_pages_[static_cast<std::size_t>(process) * clusters_ + cluster];
  for (int s = bottom_[cluster]; s >= 0; s = parent_[s]) {
    --free_pages_[s];
    ++used_pages_[at(s, process)];
  }
}

void ResourceTree::page_out(int process, int cluster) {
  check_process(process);
  check_cluster(cluster);
  auto& held = cluster_pages_[static_cast<std::size_t>(process) * clusters_ + cluster];
  if (held == 0)
    fail(fmt::format("a page of process {} out of cluster {}, which holds none", process, cluster));
  --held;
  ++cluster_free_pages_[cluster];
  for (int s = bottom_[cluster]; s >= 0; s = parent_[s]) {
    ++free_pages_[s];
    --used_pages_[at(s, process)];
  }
}

int ResourceTree::free_processors(int node) const {
  if (is_cluster(node)) return free_[node - switches_];
  return free_processors_[node];
}

int ResourceTree::free_pages(int node) const {
  if (is_cluster(node)) return cluster_free_pages_[node - switches_];
  return free_pages_[node];
}

int ResourceTree::used_processors(int node, int process) const {
  check_process(process);
  if (is_cluster(node)) return holder_[node - switches_] == process ? 1 : 0;
  return used_processors_[at(node, process)];
}

int ResourceTree::used_pages(int node, int process) const {
  check_process(process);
  if (is_cluster(node)) return pages_by_cluster(process)[node - switches_];
  return used_pages_[at(node, process)];
}

std::span<const int> ResourceTree::pages_by_cluster(int process) const {
  check_process(process);
  return std::span<const int>(cluster_pages_)
      .subspan(static_cast<std::size_t>(process) * clusters_, clusters_);
}

// Thesis 4.3 para 3: "The home-node of a process represents a subtree of the resource management tree that
// includes its requested number of processors. It somewhat corresponds to the area where the process was
// previously scheduled." A23: the lowest switch that covers every cluster holding a page of the process (its
// pages are where it ran) and still has `threads` clusters. The switches covering the pages form a chain
// from the root and shrink going down, so the walk stops at the first child that fails either test.
// A process with no page has the root: nothing ties it to a subtree, and any one smaller subtree chosen by
// rule (the lowest-numbered, say) would send every such process to the same corner under policy3.
int ResourceTree::home_node(int process, int threads) const {
  check_process(process);
  const int total = used_pages_[at(root(), process)];
  int node = root();
  if (total == 0) return node;
  for (;;) {
    int next = -1;
    for (const int child : children_[node]) {
      if (used_pages_[at(child, process)] == total && ranges_[child].count >= threads) next = child;
    }
    if (next < 0) return node;
    node = next;
  }
}

}  // namespace cosched::numa
