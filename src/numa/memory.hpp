#pragma once
// The NUMA machine's distributed shared memory (thesis 4.2.4, 4.4; docs/models/numa.md sections 6.3-6.4):
// every cluster's frames, where each page is (a local page in one frame, a shared page in its copies), the
// write rounds of the update protocol and the pins they hold, the pages waiting for a frame, and the choice
// of a victim when a page enters a full cluster. It sends no message and keeps no clock: the machine moves
// the pages and runs the protocol's messages, and hears through a MemoryObserver when a page comes or goes.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "numa/network.hpp"
#include "numa/rmt.hpp"
#include "sched/numa/replacement.hpp"

namespace cosched::numa {

struct Frame {
  int page = -1;
  int process = -1;  // the page's process, and whether the page is shared: read by every victim choice
  bool shared = false;
  Clock last_ref = 0;
  std::int64_t ref_eff = 0;  // the referencing thread's effective clocks when last_ref was settled
  std::uint64_t stamp = 0;   // the placement ref_eff belongs to
  int pins = 0;              // coherency processing (thesis 4.4): never a victim while pinned
};

struct Copy {
  int cluster, frame;
};

struct Page {
  int process = 0;
  int thread = -1;               // the owner of a local page; -1 for a shared page
  int index = 0;                 // in its space
  int cluster = -1, frame = -1;  // a local page: where it is (-1: unloaded)
  bool moving = false;           // a local page on its way to its thread's new cluster
  std::vector<Copy> copies;      // a shared page: its copies, in the order they were made
};

// One write's round of the update protocol: the writer, its copy, and the acknowledgements still to come.
struct WriteRound {
  int thread = -1, page = -1, cluster = -1, frame = -1;
  int outstanding = 0;
};

// What the memory asks of the machine that owns it.
class MemoryObserver {
 public:
  // A reference's LRU stamp: the effective clocks of the thread that made it and its placement (section 6.4).
  struct Stamp {
    std::int64_t effective = 0;
    std::uint64_t placement = 0;
  };

  // Page `page` was loaded on, or left, `cluster` (or, a shared page, gained or lost its second copy, and
  // `cluster` holds a copy): what the thread running there needs more than a local action for changed.
  virtual void page_changed(int page, int cluster, Clock at) = 0;
  // The stamp of a reference now by thread `thread` (the one running where the frame is).
  virtual Stamp stamp(int thread) const = 0;
  // A30: the frame's last reference on its cluster, settled at `at` (the victim choice needs it).
  virtual Clock last_reference(int cluster, int frame, Clock at) = 0;

 protected:
  ~MemoryObserver() = default;
};

class Memory {
 public:
  // `replacement` chooses victims; `rmt` counts the pages of each process per cluster (page_in, page_out).
  Memory(int clusters, int frames_per_cluster, sched::Replacement replacement, ResourceTree& rmt,
         MemoryObserver& observer);

  // Pages are added once, before the run: a local page of `thread` (or shared, thread -1) of `process`,
  // index `index` in its space. Returns its id; every page starts unloaded (A18).
  int add_page(int process, int thread, int index);
  const Page& page(int id) const { return pages_[id]; }
  int pages() const { return static_cast<int>(pages_.size()); }
  const std::vector<Frame>& frames(int cluster) const { return clusters_[cluster].frames; }
  Frame& frame(int cluster, int frame) { return clusters_[cluster].frames[frame]; }

  // Who runs on each cluster in this slice. A thread that leaves its cluster leaves its process there until
  // the next slice (A24: a page's class asks whether its process is the one running here).
  void clear_occupants();
  void occupy(int cluster, int process, int thread);
  void vacate(int cluster) { clusters_[cluster].thread = -1; }
  int occupant(int cluster) const { return clusters_[cluster].thread; }
  // The thread running on `cluster` if it is one of the page's (its owner, or of a shared page's process).
  int user_here(int page, int cluster) const {
    const Cluster& c = clusters_[cluster];
    const Page& pg = pages_[page];
    if (c.thread < 0 || c.process != pg.process) return -1;
    if (pg.thread >= 0 && pg.thread != c.thread) return -1;
    return c.thread;
  }
  // The slice's priority order, by process (0: the highest priority): strategy1 evicts the lower first.
  void set_priority_ranks(std::vector<int> rank) { rank_ = std::move(rank); }

  // The page's frame on `cluster`, or -1 (a local page on its way is in no frame).
  int frame_of(int page, int cluster) const {
    const Page& pg = pages_[page];
    if (pg.thread >= 0) return pg.cluster == cluster && !pg.moving ? pg.frame : -1;
    for (const auto& c : pg.copies)
      if (c.cluster == cluster) return c.frame;
    return -1;
  }
  // A reference to the frame at `at` (its LRU time), by the thread running there with its stamp (null: none
  // runs there).
  void touch(int cluster, int frame, Clock at, const MemoryObserver::Stamp* stamp) {
    Frame& f = clusters_[cluster].frames[frame];
    f.last_ref = at;
    if (stamp) {
      f.ref_eff = stamp->effective;
      f.stamp = stamp->placement;
    }
  }

  // A page's class on `cluster` (thesis 4.4, the columns of table 5.5).
  sched::PageClass class_of(const Page& pg, int cluster) const;

  // Puts `page` into a frame of `cluster`, evicting the replacement strategy's victim if the cluster is
  // full. False when every frame is pinned (the caller waits for one). On success `evicted` is the victim's
  // page and class, if there was one.
  struct Eviction {
    int page;
    sched::PageClass page_class;
  };
  bool install(int page, int cluster, Clock at, std::optional<Eviction>& evicted);
  // Frees the page's frame on `cluster`.
  void remove(int cluster, int frame, Clock at);
  // A local page left its frame to migrate: it is in no memory until it arrives.
  void mark_moving(int page) { pages_[page].moving = true; }
  // A11: removes the copies of shared pages [first, first + count) on clusters not in `kept` but the last
  // copy of each and the pinned ones, last copy first. Returns how many it removed.
  int drop_copies(int first, int count, const std::vector<char>& kept, Clock at);

  // Pages that found every frame of their cluster pinned, each with the thread that waits for it.
  void wait_for_frame(int cluster, int page, int thread) {
    clusters_[cluster].pending.emplace_back(page, thread);
  }
  std::vector<std::pair<int, int>> take_waiting(int cluster);

  // A12: the cluster a read with no copy asks for one of `page`, which has copies: the holder with the
  // fewest hops(cluster), ties to the lowest cluster; or, `oldest`, the holder of the oldest copy still held.
  template <class Hops>
  int copy_source(int page, bool oldest, Hops&& hops) const {
    const auto& copies = pages_[page].copies;
    if (oldest) return copies.front().cluster;
    int holder = -1, best = 0;
    for (const auto& c : copies) {
      const int h = hops(c.cluster);
      if (holder < 0 || h < best || (h == best && c.cluster < holder)) best = h, holder = c.cluster;
    }
    return holder;
  }

  // Thesis 4.2.4's update protocol: a write to a copy that is not the only one pins it and waits for an
  // acknowledgement from every other copy; a write from a cluster with no copy (frame -1, write_miss remote,
  // A13) waits for one from every copy and pins nothing. begin_write returns the round's slot; acknowledge
  // is true for the last acknowledgement, which unpins the copy; end_write frees the slot (after what the
  // round's end started, which may start other rounds).
  int begin_write(int thread, int page, int cluster, int frame);
  bool acknowledge(int write);
  const WriteRound& write(int write) const { return writes_[write]; }
  void end_write(int write) { free_writes_.push_back(write); }

 private:
  struct Cluster {
    std::vector<Frame> frames;
    std::vector<int> free;                     // free frames, taken from the back
    int process = -1;                          // the process allocated this cluster in the slice
    int thread = -1;                           // its thread here
    std::vector<std::pair<int, int>> pending;  // (page, thread) waiting for an evictable frame
  };

  std::optional<int> choose_victim(int cluster, Clock at);

  const sched::Replacement replacement_;
  ResourceTree& rmt_;
  MemoryObserver& observer_;
  std::vector<Page> pages_;
  std::vector<Cluster> clusters_;
  std::vector<int> rank_;
  std::vector<sched::FrameView> views_;  // choose_victim's, kept to reuse its memory
  std::vector<WriteRound> writes_;
  std::vector<int> free_writes_;
};

}  // namespace cosched::numa
