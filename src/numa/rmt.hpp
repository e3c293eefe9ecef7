#pragma once
// The resource management tree of SSS-CORE (Nobukuni 1997, 3.1.1; docs/models/numa.md section 4.1): a node
// per switch of the tree network and a leaf per cluster (one processor and its page frames), each holding the
// processors and frames below it, how many are free, and how many each process uses. It has the shape of the
// network, so there is no mapping to make (4.2.2 para 4). The policies read it (policy2-4, thesis 4.3): the
// free clusters, a process's pages by cluster, and its home node.

#include <span>
#include <vector>

#include "platform/numa_topology.hpp"

namespace cosched::numa {

class ResourceTree {
 public:
  // Reads only the topology's switches (their levels, parents and cluster ranges; switch 0 the root, whose
  // range is every cluster). Every cluster starts with its processor and `pages_per_cluster` frames free.
  ResourceTree(const platform::NumaTopology& topology, int pages_per_cluster, int processes);

  // Nodes: switch s of the topology is node s (the root is node 0); cluster c is node cluster_node(c).
  static constexpr int root() { return 0; }
  int cluster_node(int cluster) const { return switches_ + cluster; }
  bool is_cluster(int node) const { return node >= switches_; }
  struct Range {
    int first = 0, count = 0;
  };
  Range clusters_below(int node) const;  // the clusters of its subtree, [first, first + count)
  int clusters() const { return clusters_; }
  int processes() const { return processes_; }

  // One cluster's processor to a process, for the slice, and back. Both O(levels).
  void allocate(int process, int cluster);
  void release(int process, int cluster);
  void release_all();  // every processor free: the slice boundary

  // A frame of `cluster` takes a page of `process` (page_in) or gives it up (page_out). O(levels).
  void page_in(int process, int cluster);
  void page_out(int process, int cluster);

  int processors(int node) const { return clusters_below(node).count; }  // one per cluster
  int frames(int node) const { return clusters_below(node).count * pages_per_cluster_; }
  int free_processors(int node) const;
  int free_pages(int node) const;
  int used_processors(int node, int process) const;
  int used_pages(int node, int process) const;

  int holder(int cluster) const { return holder_[cluster]; }  // the process on its processor, -1 if free
  // free[c] != 0 when cluster c's processor is free (what sched::AllocationRequest::free wants).
  std::span<const char> free_clusters() const { return free_; }
  // The frames holding a page of the process, by cluster (what sched::AllocationRequest::pages wants).
  std::span<const int> pages_by_cluster(int process) const;

  // The home node (thesis 4.3 para 3, A23): the lowest switch whose subtree holds every cluster with a page
  // of the process and has at least `threads` clusters. A process with no page anywhere has the root.
  int home_node(int process, int threads) const;

 private:
  void check_process(int process) const;
  void check_cluster(int cluster) const;
  std::size_t at(int switch_node, int process) const {
    return static_cast<std::size_t>(switch_node) * processes_ + process;
  }

  int switches_ = 0, clusters_ = 0, processes_ = 0, pages_per_cluster_ = 0;
  std::vector<Range> ranges_;               // by switch
  std::vector<int> parent_;                 // by switch, -1 for the root
  std::vector<std::vector<int>> children_;  // by switch, its child switches
  std::vector<int> bottom_;                 // by cluster, the switch right above it

  // Switches: free counts, and per (switch, process) the processors and frames used.
  std::vector<int> free_processors_, free_pages_, used_processors_, used_pages_;
  // Clusters: the process on its processor, whether it is free, its free frames, and each process's pages
  // (process-major, so that a process's counts by cluster are one span).
  std::vector<int> holder_;
  std::vector<char> free_;
  std::vector<int> cluster_free_pages_;
  std::vector<int> cluster_pages_;
};

}  // namespace cosched::numa
