#include "sched/jobs/paired_gang.hpp"

#include "sched/jobs/gang.hpp"
#include "sched/now/gang.hpp"

namespace cosched::sched {
namespace {

constexpr char kPairedGangName[] = "paired-gang";

const config::PolicyKey kPairedGangKeys[] = {
    mpl_key<kPairedGangName, kMaxMpl>(
        "gang rows: jobs sharing each workstation in turn (1 to 16, default 1)"),
    {"pair_limit",
     "two rows share their slots when their jobs' measured CPU utilizations sum to at most this (a number in "
     "(0, 2), default 1: together they need no more than one CPU)",
     [](const config::Field& f, config::PolicyParams& params) {
       const double limit = f.number();
       if (!(limit > 0 && limit < 2)) f.fail("a sum of two utilizations between 0 and 2, exclusive");
       config::params_as<PairedGangParams>(params).pair_limit = limit;
     }},
};

void paired_gang_json(const config::PolicyParams& params, nlohmann::ordered_json& out) {
  const auto& paired = static_cast<const PairedGangParams&>(params);
  mpl_json(params, out);
  out["pair_limit"] = paired.pair_limit;
}

}  // namespace

const JobSchedulerEntry kPairedGangEntry{
    .spec =
        {kPairedGangName,
         "paired gang scheduling: gang's matrix of mpl rows, a heavily used row sharing its slots with a "
         "lightly used one by the CPU utilization measured as they run, either row's process running in a "
         "paired slot",
         kPairedGangKeys, config::default_params<PairedGangParams>, paired_gang_json,
         [](config::MapReader& map, const config::PolicyParams& params) {
           warn_single_level(map, params,
                             "paired-gang with mpl 1 has one row: there is no row to pair it with, and the "
                             "jobs start in fcfs order, as under policy fcfs");
         }},
    .gang_rows = true,
    .make = make_gang_rows,
    .configure_matrix =
        [](const config::PolicyParams& params, GangMatrix& matrix) {
          matrix.set_paired({static_cast<const PairedGangParams&>(params).pair_limit});
        },
    .shares_slot_reports = true,
};

}  // namespace cosched::sched
