#include "metrics/message_trace.hpp"

#include <algorithm>
#include <tuple>

namespace cosched::metrics {

std::vector<TraceMessage> MessageRecorder::messages() const {
  std::vector<TraceMessage> out;
  for (const auto& m : messages_)
    if (m.arrived >= 0 && (!window_ || m.arrived <= window_->second)) out.push_back(m);
  std::sort(out.begin(), out.end(), [](const TraceMessage& a, const TraceMessage& b) {
    return std::tie(a.sent, a.from, a.to, a.kind, a.arrived) <
           std::tie(b.sent, b.from, b.to, b.kind, b.arrived);
  });
  return out;
}

}  // namespace cosched::metrics
