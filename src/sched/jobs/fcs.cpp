#include "sched/jobs/fcs.hpp"

#include <fmt/format.h>

#include "sched/jobs/gang.hpp"
#include "sched/now/gang.hpp"

namespace cosched::sched {
namespace {

constexpr char kFcsName[] = "fcs";

const config::PolicyKey kFcsKeys[] = {
    mpl_key<kFcsName, kMaxMpl>("gang rows: jobs sharing each workstation in turn (1 to 16, default 1)"),
    config::duration_key<&FcsParams::granularity>("granularity",
                                                  "a process computing this long or longer per completed "
                                                  "read or barrier in its own slot is classed DC, "
                                                  "don't-care (duration, default 1ms)"),
    {"blocking",
     "a finer process waiting for more than this fraction of its own slot's computation and waits is "
     "classed F, frustrated, else CS (a number in (0, 1), default 0.5)",
     [](const config::Field& f, config::PolicyParams& params) {
       const double blocking = f.number();
       if (!(blocking > 0 && blocking < 1))
         f.fail("a fraction of the slot's time between 0 and 1, exclusive");
       config::params_as<FcsParams>(params).blocking = blocking;
     }},
};

void fcs_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& fcs = static_cast<const FcsParams&>(params);
  mpl_json(params, out);
  out["granularity_s"] = static_cast<double>(fcs.granularity) * 1e-9;
  out["blocking"] = fcs.blocking;
}

}  // namespace

const JobSchedulerEntry kFcsEntry{
    {kFcsName,
     "flexible coscheduling: gang's matrix of mpl rows, each process classed CS, F or DC by its own slots' "
     "granularity and waiting, F and DC processes filling the CPU a slot leaves idle",
     kFcsKeys, config::default_params<FcsParams>, fcs_json,
     [](config::MapReader& map, const config::PolicyParams& params) {
       warn_single_level(map, params,
                         "fcs with mpl 1 has one row: each job has its workstations to itself and no slot is "
                         "ever filled by another job's process");
     }},
    false,
    true,
    make_gang_rows,
    false,
    [](const config::PolicyParams& params, GangMatrix& matrix) {
      const auto& fcs = static_cast<const FcsParams&>(params);
      matrix.set_flexible({fcs.granularity, fcs.blocking});
    }};

}  // namespace cosched::sched
