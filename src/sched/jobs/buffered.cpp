#include "sched/jobs/buffered.hpp"

#include "sched/jobs/gang.hpp"

namespace cosched::sched {
namespace {

constexpr char kBufferedName[] = "buffered";

const config::PolicyKey kBufferedKeys[] = {
    mpl_key<kBufferedName, kMaxMpl>("gang rows: jobs sharing each workstation in turn (1 to 16, default 1)"),
    config::duration_key<&BufferedParams::strobe>(
        "strobe",
        "the interval between global strobes, from time 0: a message sent in one leaves at the strobe that "
        "ends it (duration, default the gang slot, scheduler.quantum)"),
    config::duration_key<&BufferedParams::exchange, config::Zero::Allowed>(
        "exchange",
        "how long each strobe's total exchange of the buffers' descriptions takes: the buffered messages "
        "leave this long after the strobe (duration, default 0)"),
};

void buffered_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& buffered = static_cast<const BufferedParams&>(params);
  mpl_json(params, out);
  // null: the gang slot (scheduler.quantum, in the resolved scheduler section).
  out["strobe_s"] = buffered.strobe > 0 ? nlohmann::ordered_json(static_cast<double>(buffered.strobe) * 1e-9)
                                        : nlohmann::ordered_json(nullptr);
  out["exchange_s"] = static_cast<double>(buffered.exchange) * 1e-9;
}

}  // namespace

const JobSchedulerEntry kBufferedEntry{
    .spec =
        {kBufferedName,
         "buffered coscheduling: gang's matrix of mpl rows, every message buffered on its workstation until "
         "the next global strobe and its total exchange",
         kBufferedKeys, config::default_params<BufferedParams>, buffered_json,
         [](config::MapReader& map, const config::PolicyParams& params) {
           warn_single_level(map, params,
                             "buffered with mpl 1 has one row: each job has its workstations to itself, its "
                             "messages still waiting for the strobes");
         }},
    .gang_rows = true,
    .make = make_gang_rows,
    .strobe =
        [](const config::PolicyParams& params, SimTime slot) {
          const auto& buffered = static_cast<const BufferedParams&>(params);
          return MessageStrobe{buffered.strobe > 0 ? buffered.strobe : slot, buffered.exchange};
        },
};

}  // namespace cosched::sched
