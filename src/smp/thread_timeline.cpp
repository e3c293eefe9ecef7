#include "smp/thread_timeline.hpp"

namespace cosched::smp {

void ThreadTimeline::note(TraceKind kind, Cycles now, CpuId cpu, ThreadId thread, bool spinning,
                          bool polling) {
  TimelineState state;
  switch (kind) {
    case TraceKind::SwitchIn:
    case TraceKind::SwitchOut:
      state = TimelineState::Switching;
      break;
    case TraceKind::Run:
      state = spinning  ? TimelineState::Spinning
              : polling ? TimelineState::Polling
                        : TimelineState::Computing;
      break;
    case TraceKind::Poll:
      state = TimelineState::Polling;
      break;
    case TraceKind::Work:
      state = TimelineState::Computing;
      break;
    case TraceKind::Spin:
      state = TimelineState::Spinning;
      break;
    case TraceKind::SpinSuccess:
      state = TimelineState::Computing;
      break;
    case TraceKind::Wait4cs:
      state = TimelineState::Wait4cs;
      break;
    case TraceKind::Ready:
      state = TimelineState::Ready;
      cpu = -1;
      break;
    case TraceKind::Block:
      state = TimelineState::Blocked;
      cpu = -1;
      break;
    case TraceKind::Finish:
      state = TimelineState::Finished;
      cpu = -1;
      break;
    default:
      return;  // no change of state (a failed spin's switch out follows at once)
  }
  enter(thread, now, state, cpu);
}

const std::vector<std::string>& ThreadTimeline::state_names(bool polling) {
  // Indexed by TimelineState, each name set by its enumerator, so that reordering it cannot mislabel rows.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n(static_cast<std::size_t>(TimelineState::Finished) + 1);
    auto set = [&n](TimelineState s, const char* name) { n[static_cast<std::size_t>(s)] = name; };
    set(TimelineState::Computing, "computing");
    set(TimelineState::Spinning, "spinning");
    set(TimelineState::Switching, "switching");
    set(TimelineState::Wait4cs, "wait4cs");
    set(TimelineState::Ready, "ready");
    set(TimelineState::Blocked, "blocked");
    set(TimelineState::Finished, "finished");
    return n;
  }();
  static const std::vector<std::string> with_polling = [] {
    auto n = names;
    n.push_back("polling");  // TimelineState::Polling, the last
    return n;
  }();
  return polling ? with_polling : names;
}

}  // namespace cosched::smp
