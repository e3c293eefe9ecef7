// Differential test of Linux24's indexed ready list (docs/models/smp.md §15, implementation note): the
// scheduler's choices must be exactly those of the plain algorithms of the thesis, which scan the whole ready
// list (algorithm 4) and every CPU (algorithms 2 and 5). `Reference` below is that plain version (the code of
// src/sched/smp/linux24.cpp before the index, kept here verbatim in substance). Both are driven by the same
// random sequence of operations on one hand-built machine state and must agree on every pick, every counter
// and processor, the ready list's order and every wake-up and reschedule_idle answer.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "sched/smp/linux24.hpp"

namespace cosched::sched {
namespace {

class FakeHost final : public SmpHost {
 public:
  FakeHost(int cpus, std::vector<int> spaces)
      : cpus_(static_cast<std::size_t>(cpus)), spaces_(std::move(spaces)) {}
  int cpu_count() const override { return static_cast<int>(cpus_.size()); }
  const CpuView& cpu(CpuId cpu) const override { return cpus_[cpu]; }
  CpuView& view(CpuId cpu) { return cpus_[cpu]; }
  int thread_count() const override { return static_cast<int>(spaces_.size()); }
  int address_space(ThreadId thread) const override { return spaces_[thread]; }
  void settle_running() override {}
  Cycles now() const override { return 0; }
  void slices_changed() override {}

 private:
  std::vector<CpuView> cpus_;
  std::vector<int> spaces_;
};

// The plain algorithms: a ready vector scanned in full, goodness read through the host.
class Reference final : public SmpScheduler {
 public:
  Reference(Linux24Params params, WakeupScheme wakeup, AipSearch aip)
      : params_(params), wakeup_(wakeup), aip_search_(aip) {}
  void enqueue(ThreadId thread, ReadyReason) override {
    grow();
    ready_.push_back(thread);
  }
  void charge(ThreadId thread, Cycles cycles) override {
    grow();
    tasks_[thread].counter = std::max<Cycles>(0, tasks_[thread].counter - cycles);
  }
  Cycles time_slice(ThreadId thread) const override { return tasks_[thread].counter; }
  bool has_ready() const override { return !ready_.empty(); }
  std::size_t ready_count() const override { return ready_.size(); }
  Cycles counter(ThreadId thread) const { return tasks_[thread].counter; }
  CpuId processor(ThreadId thread) const { return tasks_[thread].processor; }
  const std::vector<ThreadId>& ready() const { return ready_; }
  std::int64_t epochs() const { return epochs_; }

  Cycles goodness(ThreadId thread, CpuId cpu) const {
    Cycles weight = tasks_[thread].counter;
    if (weight == 0) return 0;
    if (tasks_[thread].processor == cpu) weight += params_.proc_change_penalty;
    const ThreadId current = host_->cpu(cpu).current;
    if (current >= 0 && host_->address_space(current) == host_->address_space(thread))
      weight += params_.same_address_space_bonus;
    return weight;
  }

  std::optional<ThreadId> pick_next(CpuId cpu, std::optional<ThreadId> prev) override {
    grow();
    for (;;) {
      std::optional<ThreadId> next = prev;
      Cycles best = prev ? goodness(*prev, cpu) : -1;
      std::size_t best_index = ready_.size();
      for (std::size_t i = 0; i < ready_.size(); ++i) {
        const Cycles g = goodness(ready_[i], cpu);
        if (g > best) {
          best = g;
          next = ready_[i];
          best_index = i;
        }
      }
      if (best < 0) return std::nullopt;
      if (best == 0) {
        for (auto& task : tasks_) task.counter = task.counter / 2 + params_.quantum;
        ++epochs_;
        continue;
      }
      if (best_index < ready_.size()) ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(best_index));
      tasks_[*next].processor = cpu;
      return next;
    }
  }

  std::optional<CpuId> choose_cpu(ThreadId thread, const std::vector<char>& flagged, bool skip_idle,
                                  bool skip_busy) const {
    const int cpus = host_->cpu_count();
    auto usable_idle = [&](CpuId c) {
      return host_->cpu(c).phase == CpuPhase::Idle && !(skip_idle && flagged[c]);
    };
    const CpuId previous = tasks_[thread].processor;
    if (previous >= 0 && usable_idle(previous)) return previous;
    std::optional<CpuId> oldest;
    for (CpuId c = 0; c < cpus; ++c) {
      if (!usable_idle(c)) continue;
      if (!oldest || host_->cpu(c).idle_since < host_->cpu(*oldest).idle_since) oldest = c;
    }
    if (oldest) return oldest;
    Cycles max_prio = params_.preemption_threshold;
    std::optional<CpuId> next;
    for (CpuId c = 0; c < cpus; ++c) {
      const auto& view = host_->cpu(c);
      if (view.phase == CpuPhase::Idle || view.current < 0) continue;
      if (skip_busy && flagged[c]) continue;
      const Cycles diff = goodness(thread, c) - goodness(view.current, c);
      if (diff > max_prio) {
        max_prio = diff;
        next = c;
      }
    }
    return next;
  }

  std::optional<CpuId> reschedule_idle(ThreadId thread, CpuId) override {
    std::vector<char> flagged(static_cast<std::size_t>(host_->cpu_count()));
    for (CpuId c = 0; c < host_->cpu_count(); ++c) flagged[c] = host_->cpu(c).need_resched;
    const bool aip = wakeup_ == WakeupScheme::Aip;
    return choose_cpu(thread, flagged, aip, aip && aip_search_ == AipSearch::IdleAndPreemption);
  }

  std::vector<CpuId> wake(const std::vector<ThreadId>& woken, CpuId) override {
    grow();
    const int cpus = host_->cpu_count();
    std::vector<char> flagged(static_cast<std::size_t>(cpus));
    for (CpuId c = 0; c < cpus; ++c) flagged[c] = host_->cpu(c).need_resched;
    std::vector<CpuId> chosen;
    if (wakeup_ != WakeupScheme::Smart) {
      const bool aip = wakeup_ == WakeupScheme::Aip;
      for (ThreadId thread : woken) {
        auto cpu = choose_cpu(thread, flagged, aip, aip && aip_search_ == AipSearch::IdleAndPreemption);
        if (!cpu) continue;
        flagged[*cpu] = 1;
        chosen.push_back(*cpu);
      }
      return chosen;
    }
    auto& taken = flagged;
    std::vector<char> placed(woken.size());
    auto free_idle = [&](CpuId c) { return host_->cpu(c).phase == CpuPhase::Idle && !taken[c]; };
    for (std::size_t i = 0; i < woken.size(); ++i) {
      const CpuId previous = tasks_[woken[i]].processor;
      if (previous >= 0 && free_idle(previous)) {
        taken[previous] = 1;
        placed[i] = 1;
        chosen.push_back(previous);
      }
    }
    for (std::size_t i = 0; i < woken.size(); ++i) {
      if (placed[i]) continue;
      std::optional<CpuId> oldest;
      for (CpuId c = 0; c < cpus; ++c) {
        if (free_idle(c) && (!oldest || host_->cpu(c).idle_since < host_->cpu(*oldest).idle_since))
          oldest = c;
      }
      if (!oldest) break;
      taken[*oldest] = 1;
      placed[i] = 1;
      chosen.push_back(*oldest);
    }
    std::vector<std::tuple<Cycles, std::size_t, CpuId>> tri;
    for (std::size_t i = 0; i < woken.size(); ++i) {
      if (placed[i]) continue;
      for (CpuId c = 0; c < cpus; ++c) {
        const auto& view = host_->cpu(c);
        if (taken[c] || view.phase == CpuPhase::Idle || view.current < 0) continue;
        const Cycles d = goodness(woken[i], c) - goodness(view.current, c);
        if (d > params_.preemption_threshold) tri.emplace_back(d, i, c);
      }
    }
    std::sort(tri.begin(), tri.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(b), std::get<1>(a), std::get<2>(a)) <
             std::tie(std::get<0>(a), std::get<1>(b), std::get<2>(b));
    });
    for (const auto& [d, task, cpu] : tri) {
      if (placed[task] || taken[cpu]) continue;
      placed[task] = 1;
      taken[cpu] = 1;
      chosen.push_back(cpu);
    }
    return chosen;
  }

 private:
  struct Task {
    Cycles counter = 0;
    CpuId processor = -1;
  };
  void grow() { tasks_.resize(static_cast<std::size_t>(host_->thread_count()), Task{params_.quantum, -1}); }
  Linux24Params params_;
  WakeupScheme wakeup_;
  AipSearch aip_search_;
  std::vector<Task> tasks_;
  std::vector<ThreadId> ready_;
  std::int64_t epochs_ = 0;
};

// One random run: `cpus` CPUs, `threads` threads in `spaces` address spaces, `steps` operations. Threads are
// ready, running on a CPU, or blocked, as in the machine.
void differential_run(std::uint64_t seed, int cpus, int threads, int spaces, WakeupScheme wakeup,
                      AipSearch aip, Linux24Params params, int steps) {
  std::mt19937_64 rng(seed);
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  std::vector<int> space_of(static_cast<std::size_t>(threads));
  for (auto& s : space_of) s = 3 * below(spaces) + 1;  // sparse address-space numbers
  FakeHost host(cpus, space_of);
  Linux24 fast(params, wakeup, aip);
  Reference ref(params, wakeup, aip);
  fast.attach(host);
  ref.attach(host);
  enum class Where { Ready, Running, Blocked };
  std::vector<Where> where(static_cast<std::size_t>(threads), Where::Blocked);
  auto make_ready = [&](ThreadId t) {
    where[t] = Where::Ready;
    fast.enqueue(t, ReadyReason::Woken);
    ref.enqueue(t, ReadyReason::Woken);
  };
  // Start-up: every thread ready in a random order; CPUs idle since random times.
  std::vector<ThreadId> order(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) order[t] = t;
  std::shuffle(order.begin(), order.end(), rng);
  for (ThreadId t : order) make_ready(t);
  for (CpuId c = 0; c < cpus; ++c) host.view(c).idle_since = below(50);
  Cycles now = 50;

  for (int step = 0; step < steps; ++step) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", step " << step);
    const int op = below(10);
    if (op <= 3) {
      // schedule() on a CPU; prev is its current thread when it is still runnable.
      const CpuId cpu = below(cpus);
      auto& view = host.view(cpu);
      const ThreadId current = view.current;
      const bool leaving = current >= 0 && below(3) == 0;  // it blocks: no prev
      std::optional<ThreadId> prev;
      if (current >= 0 && !leaving) prev = current;
      const auto a = fast.pick_next(cpu, prev);
      const auto b = ref.pick_next(cpu, prev);
      ASSERT_EQ(a, b);
      ASSERT_EQ(fast.epochs(), ref.epochs());
      if (a && a == prev) continue;
      if (current >= 0) {
        if (leaving) {
          where[current] = Where::Blocked;
        } else {
          make_ready(current);  // preempted (its ready entry follows the pick, as after the switch out)
        }
      }
      if (a) {
        where[*a] = Where::Running;
        view.phase = CpuPhase::Running;
        view.current = *a;
      } else {
        view = CpuView{};
        view.idle_since = ++now;
      }
    } else if (op <= 5) {
      // User time: the running threads are charged (sometimes a ready one too, as the unit tests do).
      for (ThreadId t = 0; t < threads; ++t) {
        if (where[t] == Where::Running || (where[t] == Where::Ready && below(20) == 0)) {
          const Cycles cycles = below(4) == 0 ? 0 : below(params.quantum + 20);
          fast.charge(t, cycles);
          ref.charge(t, cycles);
        }
      }
      ++now;
    } else if (op <= 7) {
      // A barrier completes: some blocked threads wake, in order; the policy picks CPUs for them.
      std::vector<ThreadId> woken;
      for (ThreadId t = 0; t < threads; ++t)
        if (where[t] == Where::Blocked && below(2) == 0) woken.push_back(t);
      std::shuffle(woken.begin(), woken.end(), rng);
      for (ThreadId t : woken) make_ready(t);
      const auto a = fast.wake(woken, 0);
      const auto b = ref.wake(woken, 0);
      ASSERT_EQ(a, b);
      for (CpuId c : a) host.view(c).need_resched = true;
    } else if (op == 8) {
      // reschedule_idle for a ready thread.
      std::vector<ThreadId> ready = ref.ready();
      if (ready.empty()) continue;
      const ThreadId t = ready[static_cast<std::size_t>(below(static_cast<int>(ready.size())))];
      ASSERT_EQ(fast.reschedule_idle(t, 0), ref.reschedule_idle(t, 0));
    } else {
      // need_resched flags come and go.
      const CpuId cpu = below(cpus);
      host.view(cpu).need_resched = !host.view(cpu).need_resched;
    }
    ASSERT_EQ(fast.ready(), ref.ready());
    ASSERT_EQ(fast.ready_count(), ref.ready_count());
    for (ThreadId t = 0; t < threads; ++t) {
      ASSERT_EQ(fast.counter(t), ref.counter(t)) << "thread " << t;
      ASSERT_EQ(fast.processor(t), ref.processor(t)) << "thread " << t;
    }
  }
}

TEST(Linux24Index, SameDecisionsAsTheFullScanOnRandomStates) {
  // Few CPUs and spaces (many ties, bonuses and epochs) and larger machines; both parameter sets.
  std::uint64_t seed = 1;
  for (auto wakeup : {WakeupScheme::Silly, WakeupScheme::Aip, WakeupScheme::Smart}) {
    for (auto aip : {AipSearch::IdleOnly, AipSearch::IdleAndPreemption}) {
      for (int q : {4, 100}) {
        differential_run(seed++, 2, 5, 2, wakeup, aip, Linux24Params::linux22(q), 400);
        differential_run(seed++, 4, 20, 3, wakeup, aip, Linux24Params::linux24(q), 400);
        differential_run(seed++, 8, 60, 12, wakeup, aip, Linux24Params::linux22(q), 400);
        differential_run(seed++, 3, 30, 30, wakeup, aip, Linux24Params{q, 0, 0, 0}, 300);
        differential_run(seed++, 3, 30, 2, wakeup, aip, Linux24Params{q, q, q, 1}, 300);
      }
    }
  }
}

}  // namespace
}  // namespace cosched::sched
