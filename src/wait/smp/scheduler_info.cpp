#include "wait/smp/scheduler_info.hpp"

namespace cosched::wait {

bool SchedulerInfo::should_spin(const ArrivalView& view) const {
  const int remaining = view.job_threads - view.arrived;  // threads not yet at the barrier
  switch (count_) {
    case SchedulerInfoCount::Remaining:
      // Section 3: "If the number of remaining threads was less than the number of processors in the
      // partition, the checking thread chose spinning, else it blocked." The first N - P arrivals block, the
      // optimal policy whose cost section 3 derives.
      return remaining < view.partition_cpus;
    case SchedulerInfoCount::RemainingOrEqual:
      // Section 1: "A particular thread will block when it reaches a barrier if the number of threads not yet
      // at the barrier is greater than the number of processors in its partition, else it will spin."
      return remaining <= view.partition_cpus;
    case SchedulerInfoCount::NotBlocked:
      // Figure 13: if (numb_procs - numb_blocked) <= numb_processors then spin, else block.
      return view.job_threads - view.blocked_peers <= view.partition_cpus;
  }
  return false;
}

namespace {

const config::Names<SchedulerInfoCount> kCountNames = {
    {"remaining", SchedulerInfoCount::Remaining},
    {"remaining-or-equal", SchedulerInfoCount::RemainingOrEqual},
    {"not-blocked", SchedulerInfoCount::NotBlocked}};

const config::PolicyKey kSchedulerInfoKeys[] = {
    {"count",
     "which peers count: remaining, remaining-or-equal or not-blocked (figure 13; default remaining)",
     [](const config::Field& f, config::PolicyParams& params) {
       const char* expected = "remaining, remaining-or-equal or not-blocked";
       const auto text = f.scalar(expected);
       for (const auto& [name, value] : kCountNames)
         if (text == name) {
           config::params_as<SchedulerInfoParams>(params).count = value;
           return;
         }
       f.fail(expected);
     }}};

}  // namespace

const SmpWaitEntry kSchedulerInfoEntry{
    {"scheduler-info", "spin while enough peers run, from the scheduler's information (K&W 3, figure 13)",
     kSchedulerInfoKeys, config::default_params<SchedulerInfoParams>,
     [](const config::PolicyParams& params, nlohmann::ordered_json& out) {
       out["count"] = config::name_of(kCountNames, static_cast<const SchedulerInfoParams&>(params).count);
     }},
    [](const config::PolicyParams& params) -> std::unique_ptr<SmpWaitAlgorithm> {
      return std::make_unique<SchedulerInfo>(static_cast<const SchedulerInfoParams&>(params).count);
    }};

}  // namespace cosched::wait
