#include "numa/memory.hpp"

#include <algorithm>
#include <limits>

namespace cosched::numa {

Memory::Memory(int clusters, int frames_per_cluster, sched::Replacement replacement, ResourceTree& rmt,
               MemoryObserver& observer)
    : replacement_(std::move(replacement)), rmt_(rmt), observer_(observer), clusters_(clusters) {
  for (auto& c : clusters_) {
    c.frames.resize(frames_per_cluster);
    for (int f = frames_per_cluster - 1; f >= 0; --f) c.free.push_back(f);
  }
}

int Memory::add_page(int process, int thread, int index) {
  Page page;
  page.process = process;
  page.thread = thread;
  page.index = index;
  pages_.push_back(std::move(page));
  if (static_cast<int>(rank_.size()) <= process) rank_.resize(process + 1, 0);
  return static_cast<int>(pages_.size()) - 1;
}

void Memory::clear_occupants() {
  for (auto& c : clusters_) c.process = c.thread = -1;
}

void Memory::occupy(int cluster, int process, int thread) {
  clusters_[cluster].process = process;
  clusters_[cluster].thread = thread;
}

sched::PageClass Memory::class_of(const Page& pg, int cluster) const {
  const bool running = clusters_[cluster].process == pg.process;
  return sched::page_class(running, pg.thread < 0, pg.thread < 0 && pg.copies.size() > 1);
}

bool Memory::install(int page, int cluster, Clock at, std::optional<Eviction>& evicted) {
  evicted.reset();
  Page& pg = pages_[page];
  if (frame_of(page, cluster) >= 0) return true;
  Cluster& cs = clusters_[cluster];
  int frame;
  if (!cs.free.empty()) {
    frame = cs.free.back();
    cs.free.pop_back();
  } else {
    auto victim = choose_victim(cluster, at);
    if (!victim) return false;
    frame = *victim;
    const int victim_page = cs.frames[frame].page;
    evicted = Eviction{victim_page, class_of(pages_[victim_page], cluster)};
    remove(cluster, frame, at);
    cs.free.pop_back();  // remove() returned the frame to the free list
  }
  Frame& f = cs.frames[frame];
  f = Frame{};
  f.page = page;
  f.process = pg.process;
  f.shared = pg.thread < 0;
  f.last_ref = at;
  const int thread = cs.thread;
  if (thread >= 0) {
    const auto stamp = observer_.stamp(thread);
    touch(cluster, frame, at, &stamp);
  } else {
    touch(cluster, frame, at, nullptr);
  }
  rmt_.page_in(pg.process, cluster);
  if (pg.thread >= 0) {
    pg.cluster = cluster;
    pg.frame = frame;
    pg.moving = false;
    observer_.page_changed(page, cluster, at);
  } else {
    pg.copies.push_back({cluster, frame});
    observer_.page_changed(page, cluster, at);
    // The first copy's writes need updates from now on.
    if (pg.copies.size() == 2) observer_.page_changed(page, pg.copies.front().cluster, at);
  }
  return true;
}

void Memory::remove(int cluster, int frame, Clock at) {
  Cluster& cs = clusters_[cluster];
  Frame& f = cs.frames[frame];
  const int page = f.page;
  Page& pg = pages_[page];
  rmt_.page_out(pg.process, cluster);
  if (pg.thread >= 0) {
    pg.cluster = -1;
    pg.frame = -1;
  } else {
    auto it =
        std::find_if(pg.copies.begin(), pg.copies.end(), [&](const Copy& c) { return c.cluster == cluster; });
    pg.copies.erase(it);
  }
  f.page = -1;
  cs.free.push_back(frame);
  observer_.page_changed(page, cluster, at);
  // The last copy's writes need no updates any more.
  if (pg.thread < 0 && pg.copies.size() == 1) observer_.page_changed(page, pg.copies.front().cluster, at);
}

int Memory::drop_copies(int first, int count, const std::vector<char>& kept, Clock at) {
  int dropped = 0;
  for (int j = 0; j < count; ++j) {
    const Page& pg = pages_[first + j];
    for (std::size_t k = pg.copies.size(); k-- > 0 && pg.copies.size() > 1;) {
      const Copy c = pg.copies[k];
      if (kept[c.cluster] || clusters_[c.cluster].frames[c.frame].pins > 0) continue;
      ++dropped;
      remove(c.cluster, c.frame, at);
    }
  }
  return dropped;
}

std::vector<std::pair<int, int>> Memory::take_waiting(int cluster) {
  auto waiting = std::move(clusters_[cluster].pending);
  clusters_[cluster].pending.clear();
  return waiting;
}

int Memory::begin_write(int thread, int page, int cluster, int frame) {
  int w;
  if (!free_writes_.empty()) {
    w = free_writes_.back();
    free_writes_.pop_back();
  } else {
    w = static_cast<int>(writes_.size());
    writes_.emplace_back();
  }
  const int copies = static_cast<int>(pages_[page].copies.size());
  writes_[w] = WriteRound{thread, page, cluster, frame, frame >= 0 ? copies - 1 : copies};
  if (frame >= 0) ++clusters_[cluster].frames[frame].pins;
  return w;
}

bool Memory::acknowledge(int write) {
  WriteRound& w = writes_[write];
  if (--w.outstanding > 0) return false;
  if (w.frame >= 0) --clusters_[w.cluster].frames[w.frame].pins;
  return true;
}

// The strategy's victim among the cluster's frames. LRU times are settled (drawn, section 6.4) only for the
// frames that share the strategy's smallest order: the others cannot be the victim.
std::optional<int> Memory::choose_victim(int cluster, Clock at) {
  Cluster& cs = clusters_[cluster];
  views_.clear();
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  const int running = cs.process;
  for (int f = 0; f < static_cast<int>(cs.frames.size()); ++f) {
    const Frame& frame = cs.frames[f];
    if (frame.page < 0 || frame.pins > 0) continue;
    sched::FrameView v;
    v.frame = f;
    v.page_class = sched::page_class(frame.process == running, frame.shared,
                                     frame.shared && pages_[frame.page].copies.size() > 1);
    v.priority_rank = rank_[frame.process];
    best = std::min(best, replacement_.order(v));
    views_.push_back(v);
  }
  std::erase_if(views_, [&](const sched::FrameView& v) { return replacement_.order(v) != best; });
  for (auto& v : views_) v.last_reference = observer_.last_reference(cluster, v.frame, at);
  return replacement_.victim(views_);
}

}  // namespace cosched::numa
