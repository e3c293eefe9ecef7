#pragma once
// The queue of a NOW process's messages (its inbox and the messages it must still send).

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cosched::now {

// A first-in first-out queue that can also push at the front, for a process's messages: a ring that only
// grows, its first kInline slots inside itself, beyond in one block. Capacities are powers of two.
// Not a std::deque: inline slots keep a message in the process's own cache lines, with no allocation.
template <typename T, std::size_t kInline = 4>
class MessageRing {
 public:
  MessageRing() = default;
  // Moved (as a Process is, into its node's vector), the ring's slots stay its own.
  MessageRing(MessageRing&& other) noexcept
      : head_(other.head_),
        size_(other.size_),
        mask_(other.mask_),
        inline_(other.inline_),
        spilled_(std::move(other.spilled_)) {
    slots_ = spilled_.empty() ? inline_.data() : spilled_.data();
  }
  MessageRing(const MessageRing&) = delete;
  MessageRing& operator=(const MessageRing&) = delete;
  MessageRing& operator=(MessageRing&&) = delete;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T& front() { return slots()[head_]; }
  T& back() { return slots()[(head_ + size_ - 1) & mask_]; }
  [[gnu::always_inline]] void push_back(const T& item) {
    if (size_ > mask_) [[unlikely]]
      grow();
    slots()[(head_ + size_) & mask_] = item;
    ++size_;
  }
  [[gnu::always_inline]] void push_front(const T& item) {
    if (size_ > mask_) [[unlikely]]
      grow();
    head_ = size_ == 0 ? 0 : (head_ + mask_) & mask_;
    slots()[head_] = item;
    ++size_;
  }
  // An emptied ring starts again from its first slot, which then stays in cache.
  void pop_front() {
    --size_;
    head_ = size_ == 0 ? 0 : (head_ + 1) & mask_;
  }

 private:
  static_assert((kInline & (kInline - 1)) == 0, "a power of two");
  T* slots() { return slots_; }
  [[gnu::noinline]] void grow() {
    std::vector<T> bigger(2 * (mask_ + 1));
    for (std::uint32_t i = 0; i < size_; ++i) bigger[i] = slots()[(head_ + i) & mask_];
    spilled_ = std::move(bigger);
    slots_ = spilled_.data();
    mask_ = static_cast<std::uint32_t>(spilled_.size()) - 1;
    head_ = 0;
  }
  // Read by every push and pop: in one cache line with the first slots.
  T* slots_ = inline_.data();  // inline_ or spilled_
  std::uint32_t head_ = 0;
  std::uint32_t size_ = 0;
  std::uint32_t mask_ = kInline - 1;  // the capacity, a power of two, less one
  std::array<T, kInline> inline_{};
  std::vector<T> spilled_;  // empty until the ring outgrows inline_
};

}  // namespace cosched::now
