#include "numa/reference_stream.hpp"

namespace cosched::numa {

ReferenceStream::ReferenceStream(const ReferenceTable& local, const ReferenceTable& shared,
                                 double shared_rate, std::uint64_t seed)
    : local_(&local), shared_(&shared), shared_rate_(shared_rate), rng_(seed) {}

void ReferenceStream::assign(const std::vector<std::int64_t>& local,
                             const std::vector<std::int64_t>& shared) {
  local_events_.assign(local);
  shared_events_.assign(shared);
}

ReferenceStream::Reference ReferenceStream::draw_clock(bool& event) {
  Reference r;
  r.shared = util::uniform_open01(rng_) < shared_rate_;
  const ReferenceTable& table = r.shared ? *shared_ : *local_;
  std::int64_t v = table.total > 0 ? uniform_below(rng_, table.total) : 0;
  for (std::size_t e = 0; e < table.entry_weight.size() && r.entry < 0; ++e) {
    if (v < table.entry_weight[e]) r.entry = static_cast<int>(e);
    v -= table.entry_weight[e];
  }
  event = r.entry >= 0 && weight(r.shared, r.entry) > 0;
  return r;
}

}  // namespace cosched::numa
