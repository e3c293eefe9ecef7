#include "metrics/run_record.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "config/input_error.hpp"
#include "metrics/result_files.hpp"
#include "metrics/ssr.hpp"
#include "util/json.hpp"
#include "util/registry.hpp"

namespace cosched::metrics {
namespace {

using Json = nlohmann::ordered_json;

using util::or_null;

Json spin_json(const SpinCount& spins) {
  return {{"successful", spins.successful}, {"total", spins.total}};
}

Json ssr_json(const SpinCount& spins) {
  return or_null(ssr(spins.successful, spins.total));
}

Json count_mean_json(const CountMean& value) {
  return {{"count", value.count}, {"mean_s", or_null(value.mean_s)}};
}

Json user_level_json(const SmpUserLevelRecord& u) {
  return {{"iterations", u.iterations},
          {"chunks", u.chunks},
          {"tasks", u.tasks},
          {"dispatches", u.dispatches},
          {"steals", u.steals},
          {"dispatch_cycles", u.dispatch_cycles},
          {"switch_cycles", u.switch_cycles},
          {"spawn_cycles", u.spawn_cycles},
          {"waiting_for_work", u.waiting_for_work}};
}

Json smp_job_json(const SmpJobRecord& job, bool partitioned, bool user_level) {
  Json out;
  out["name"] = job.name;
  out["copy"] = job.copy;
  out["completion_time"] = or_null(job.completion_time);
  out["ssr"] = ssr_json(job.spins);
  out["spins"] = spin_json(job.spins);
  out["barriers_completed"] = job.barriers_completed;
  out["transition_point"] = or_null(job.transition_point);
  out["blocks"] = job.blocks;
  out["context_switches"] = job.context_switches;
  out["spin_cycles"] = job.spin_cycles;
  if (partitioned) out["barrier_overhead_per_phase"] = or_null(job.barrier_overhead_per_phase);
  if (user_level) {
    // The sums over its threads; every field null for a job without a loop or a task tree, so that every row
    // of jobs.csv has the same columns.
    if (job.user_level_threads.empty()) {
      Json nulls = user_level_json({});
      for (auto& [key, value] : nulls.items()) value = nullptr;
      out["user_level"] = std::move(nulls);
    } else {
      SmpUserLevelRecord sum;
      for (const auto& thread : job.user_level_threads) sum += thread;
      out["user_level"] = user_level_json(sum);
    }
  }
  return out;
}

Json now_job_json(const NowJobRecord& job) {
  Json out;
  out["name"] = job.name;
  out["copy"] = job.copy;
  out["completion_time"] = job.completion_time;
  out["ssr"] = ssr_json(job.spins);
  out["spins"] = spin_json(job.spins);
  out["time"] = {{"compute", job.time.compute},
                 {"communicate", job.time.communicate},
                 {"synchronize", job.time.synchronize},
                 {"idle", job.time.idle},
                 {"switch", job.time.switching}};
  out["idle_detail"] = {{"ready", job.idle_detail.ready},
                        {"blocked_read", job.idle_detail.blocked_read},
                        {"blocked_barrier", job.idle_detail.blocked_barrier},
                        {"finished", job.idle_detail.finished}};
  out["read_spins"] = spin_json(job.read_spins);
  out["blocks"] = job.blocks;
  out["reads"] = {{"partner_running", count_mean_json(job.reads[0])},
                  {"partner_ready", count_mean_json(job.reads[1])},
                  {"partner_blocked", count_mean_json(job.reads[2])}};
  out["wake_to_dispatch"] = count_mean_json(job.wake_to_dispatch);
  out["keepalives"] = {
      {"rounds", job.keepalives.rounds}, {"sent", job.keepalives.sent}, {"handled", job.keepalives.handled}};
  out["barriers"] = {{"mean_length_s", or_null(job.barrier_mean_length_s)},
                     {"blocks_per_barrier", or_null(job.blocks_per_barrier)}};
  out["wakeups"] = {{"sent", job.wakeups_sent},
                    {"partner_running", job.wakeups_received[0]},
                    {"partner_ready", job.wakeups_received[1]},
                    {"partner_blocked", job.wakeups_received[2]}};
  out["arrival_replies"] = job.arrival_replies;
  // An open workload's columns (jobs.csv: the analysis package's figures read them by name).
  if (const auto& st = job.stream) {
    out["submit"] = st->submit;
    out["start"] = st->start;
    out["end"] = st->end;
    out["wait"] = st->wait;
    out["response"] = st->response;
    out["run_time"] = st->run_time;
    out["slowdown"] = st->slowdown;
    out["bounded_slowdown"] = st->bounded_slowdown;
    out["processors"] = st->processors;
    out["class"] = st->job_class;
    out["workstations"] = fmt::format("{}", fmt::join(st->workstations, ";"));
    out["swf_number"] = st->swf_number;
    if (st->suspensions) out["suspensions"] = *st->suspensions;
    if (st->fcs_class) {
      out["fcs_class"] = *st->fcs_class;
      out["fcs_reclassifications"] = st->fcs_reclassifications.value_or(0);
    }
    if (st->paired_slots) {
      out["cpu_utilization"] = or_null(st->cpu_utilization);
      out["paired_slots"] = *st->paired_slots;
      out["matrix_row"] = or_null(st->matrix_row);
    }
  }
  return out;
}

Json now_stream_json(const NowStreamRecord& s) {
  Json out;
  out["jobs"] = s.jobs;
  out["skipped"] = s.skipped_unusable + s.skipped_too_large;
  out["skipped_unusable"] = s.skipped_unusable;
  out["skipped_too_large"] = s.skipped_too_large;
  out["job_scheduler"] = s.job_scheduler;
  out["mpl"] = s.mpl;
  out["utilization"] = s.utilization;
  out["throughput"] = s.throughput;
  out["mean_wait"] = s.mean_wait;
  out["mean_response"] = s.mean_response;
  out["mean_bounded_slowdown"] = s.mean_bounded_slowdown;
  const char* names[] = {"p50", "p90", "p99"};
  for (int i = 0; i < 3; ++i) out[std::string(names[i]) + "_response"] = s.response_percentiles[i];
  for (int i = 0; i < 3; ++i)
    out[std::string(names[i]) + "_bounded_slowdown"] = s.bounded_slowdown_percentiles[i];
  out["offered_load"] = s.offered_load;
  out["arrival_scale"] = s.arrival_scale;
  out["time_scale"] = s.time_scale;
  out["bounded_slowdown_threshold_s"] = s.bounded_slowdown_threshold_s;
  return out;
}

// ---- numa ----

constexpr const char* kPageClassKeys[] = {"other_copy",  "own_copy", "other_last",
                                          "other_local", "own_last", "own_local"};
constexpr const char* kMessageKindKeys[] = {"page", "update", "communication"};

Json numa_rates_json(const NumaRates& r) {
  return {{"net", r.net}, {"calibrated", r.calibrated}, {"maximum", r.maximum}};
}
Json numa_breakdown_json(const NumaBreakdown& b) {
  return {{"effective", b.effective}, {"sync", b.sync}, {"comm", b.comm}, {"idle", b.idle}, {"disk", b.disk}};
}
Json numa_clocks_json(const NumaClocks& c) {
  return {{"effective", c.effective}, {"sync", c.sync}, {"comm", c.comm},
          {"idle", c.idle},           {"disk", c.disk}, {"comm_updates", c.comm_updates}};
}
Json numa_replaced_json(const NumaPagesReplaced& replaced) {
  Json out;
  for (std::size_t i = 0; i < replaced.size(); ++i) out[kPageClassKeys[i]] = replaced[i];
  return out;
}
Json numa_transfers_json(const NumaPageTransfers& t) {
  return {{"total", t.copies + t.migrations},
          {"copies", t.copies},
          {"migrations", t.migrations},
          {"hops", t.hops}};
}
Json numa_placements_json(const NumaPlacements& p) {
  return {{"threads", p.threads}, {"on_page_clusters", p.on_page_clusters}, {"stayed", p.stayed}};
}
Json numa_by_kind_json(const std::array<std::int64_t, 3>& counts) {
  Json out;
  for (std::size_t i = 0; i < counts.size(); ++i) out[kMessageKindKeys[i]] = counts[i];
  return out;
}

Json numa_process_json(const NumaProcessRecord& p) {
  Json out;
  out["name"] = p.name;
  out["copy"] = p.copy;
  out["threads"] = p.threads;
  out["finished"] = p.finished;
  out["effective_per_thread"] = p.effective_per_thread;
  out["slices_run"] = p.slices_run;
  out["rates"] = numa_rates_json(p.rates);
  out["breakdown"] = numa_breakdown_json(p.breakdown);
  out["processor_clocks"] = numa_clocks_json(p.clocks);
  out["pages_replaced"] = numa_replaced_json(p.pages_replaced);
  out["page_transfers"] = numa_transfers_json(p.page_transfers);
  out["disk_accesses"] = p.disk_accesses;
  out["writes"] = p.writes;
  out["barriers"] = p.barriers;
  out["copies_dropped"] = p.copies_dropped;
  out["placements"] = numa_placements_json(p.placements);
  return out;
}

std::string numa_network_csv(const std::vector<NumaLevelRecord>& rows) {
  std::string csv = "level,page_hops,update_hops,communication_hops,bytes,blocked_clocks,queued_clocks\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& l = rows[i];
    csv += fmt::format("{},{},{},{},{},{},{}\n", i + 1, l.hops[0], l.hops[1], l.hops[2], l.bytes,
                       l.blocked_clocks, l.queued_clocks);
  }
  return csv;
}

std::string summary_text(const Json& summary) {
  // Strings that are not valid UTF-8 (a file name, say) are written with U+FFFD rather than failing.
  return summary.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string workstations_csv(const std::vector<NowWorkstationRecord>& rows) {
  const bool noise = !rows.empty() && rows.front().noise_s;
  std::string csv = "workstation,host,busy_s,utilisation,spinning_s,messages_sent,messages_received";
  csv += noise ? ",noise_s\n" : "\n";
  for (const auto& w : rows) {
    csv += fmt::format("{},{},{:.9f},{:.6f},{:.9f},{},{}", w.workstation, csv_cell(w.host), w.busy_s,
                       w.utilisation, w.spinning_s, w.messages_sent, w.messages_received);
    csv += noise ? fmt::format(",{:.9f}\n", w.noise_s.value_or(0)) : "\n";
  }
  return csv;
}

std::string barriers_csv(const std::vector<NowBarrierRecord>& rows) {
  std::string csv = "job,copy,barrier,first_arrival_s,last_arrival_s,last_pass_s,length_s,blocks\n";
  for (const auto& b : rows)
    csv += fmt::format("{},{},{},{:.9f},{:.9f},{:.9f},{:.9f},{}\n", csv_cell(b.job), b.copy, b.barrier,
                       b.first_arrival_s, b.last_arrival_s, b.last_pass_s, b.length_s, b.blocks);
  return csv;
}

std::string classes_csv(const std::vector<NowClassChangeRecord>& rows) {
  std::string csv = "time_s,job,rank,workstation,class\n";
  for (const auto& c : rows)
    csv += fmt::format("{:.9f},{},{},{},{}\n", c.time_s, csv_cell(c.job), c.rank, c.workstation, c.cls);
  return csv;
}

std::string pairs_csv(const std::vector<NowPairChangeRecord>& rows) {
  const auto share = [](const std::optional<double>& v) {
    return v ? fmt::format("{:.6f}", *v) : std::string();
  };
  std::string csv = "time_s,row,partner,utilization,partner_utilization\n";
  for (const auto& p : rows)
    csv += fmt::format("{:.9f},{},{},{},{}\n", p.time_s, p.row, p.partner ? std::to_string(*p.partner) : "",
                       share(p.utilization), share(p.partner_utilization));
  return csv;
}

// Scalars of `value` as cells, '.'-joined paths, lists skipped.
void flatten(const Json& value, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items())
      flatten(item, prefix.empty() ? key : prefix + "." + key, out);
  } else if (!value.is_array()) {
    out.emplace_back(prefix, csv_value(value));
  }
}

}  // namespace

SpinCount SmpRunRecord::spins() const {
  SpinCount sum;
  for (const auto& job : jobs) sum += job.spins;
  return sum;
}

SpinCount NowRunRecord::spins() const {
  SpinCount sum;
  for (const auto& job : jobs) sum += job.spins;
  return sum;
}

namespace {

// summary.json's head, the same for every model: schema_version, scenario, model, seed.
Json summary_head(const RunHeader& h) {
  Json out;
  out["schema_version"] = kSchemaVersion;
  out["scenario"] = h.scenario;
  out["model"] = h.model;
  out["seed"] = h.seed;
  return out;
}

// summary.json's tail, the same for every model: events, the model's time unit and platform, what the model
// adds there (`extra`: an open workload's stream), the wall-clock time and the resolved scenario.
// `simulated`: false for a run on the host (`cosched host`), which has no simulation events.
void close_summary(Json& out, const RunHeader& h, const char* time_unit, Json platform, Json extra = {},
                   bool simulated = true) {
  out["events"] = simulated ? Json(h.events) : Json(nullptr);
  out["time_unit"] = time_unit;
  out["platform"] = std::move(platform);
  if (extra.is_object())
    for (auto& [key, value] : extra.items()) out[key] = std::move(value);
  out["wall_seconds"] = h.wall_seconds;
  out["resolved"] = h.resolved;
}

}  // namespace

Json smp_host_json(const SmpHostRecord& h) {
  return {{"kernel_scheduler", h.kernel_scheduler},
          {"cpus", h.cpus},
          {"clock", h.clock},
          {"rr_timeslice_ms", or_null(h.rr_timeslice_ms)},
          {"rt_runtime_us", or_null(h.rt_runtime_us)},
          {"base_slice_ns", or_null(h.base_slice_ns)},
          {"ns_per_compute_iteration", h.ns_per_compute_iteration},
          {"ns_per_poll", h.ns_per_poll},
          {"threads", h.threads},
          {"compute_cycles", h.compute_cycles},
          {"thread_cpu_cycles", h.thread_cpu_cycles},
          {"makespan_seconds", h.makespan_seconds}};
}

Json summary_json(const SmpRunRecord& r) {
  Json out = summary_head(r);
  if (r.host) {
    // Where a NOW run names its engine; the fields analysis groups a host series by come with it.
    out["engine"] = "host";
    out["kernel"] = r.host->kernel;
    out["repetition"] = r.host->repetition;
    out["host_policy"] = r.host->policy;
  }
  out["makespan"] = r.makespan;
  out["ssr"] = ssr_json(r.spins());
  out["spins"] = spin_json(r.spins());
  auto jobs = Json::array();
  for (const auto& job : r.jobs) jobs.push_back(smp_job_json(job, r.partitioned, r.user_level));
  out["jobs"] = std::move(jobs);
  if (r.user_level) {
    // Each thread of the jobs with a loop or a task tree (jobs.csv has their sums).
    auto threads = Json::array();
    for (const auto& job : r.jobs)
      for (std::size_t t = 0; t < job.user_level_threads.size(); ++t) {
        Json row = {{"job", job.name}, {"copy", job.copy}, {"thread", t}};
        row.update(user_level_json(job.user_level_threads[t]));
        threads.push_back(std::move(row));
      }
    out["user_level_threads"] = std::move(threads);
  }
  Json extra;
  if (r.host) extra["host"] = smp_host_json(*r.host);
  close_summary(out, r, "cycles",
                {{"host", r.platform.host},
                 {"cpus", r.platform.cpus},
                 {"cycles_per_second", r.platform.cycles_per_second},
                 {"simulated_seconds", r.host ? Json(nullptr) : Json(r.platform.simulated_seconds)}},
                std::move(extra), !r.host);
  return out;
}

Json summary_json(const NowRunRecord& r) {
  Json out = summary_head(r);
  out["engine"] = r.engine;
  out["makespan"] = r.makespan;
  out["ssr"] = ssr_json(r.spins());
  out["spins"] = spin_json(r.spins());
  auto jobs = Json::array();
  for (const auto& job : r.jobs) jobs.push_back(now_job_json(job));
  out["jobs"] = std::move(jobs);
  out["messages"] = r.messages;
  Json extra;
  if (r.stream) extra["stream"] = now_stream_json(*r.stream);
  if (const auto& n = r.noise) {
    Json& j = extra["noise"];
    j["sources"] = n->sources;
    j["net_configured"] = n->net_configured;
    j["net_injected_mean"] = n->net_injected_mean;
    j["net_injected_max"] = n->net_injected_max;
    j["detours_per_workstation"] = n->detours_per_workstation;
    j["iterations"] = n->iterations;
    const auto optional = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    j["baseline_makespan"] = optional(n->baseline_makespan);
    j["slowdown"] = optional(n->slowdown);
    j["lost_per_iteration_s"] = optional(n->lost_per_iteration);
    if (n->daemon_work_s) {
      j["daemon_work_s"] = *n->daemon_work_s;
      j["daemon_ran_s"] = n->daemon_ran_s.value_or(0);
    }
  }
  close_summary(out, r, "s", {{"workstations", r.platform.workstations}, {"latency_s", r.platform.latency_s}},
                std::move(extra));
  return out;
}

Json summary_json(const NumaRunRecord& r) {
  Json out = summary_head(r);
  out["clocks"] = r.clocks;
  out["slices"] = r.slices;
  out["ended_by"] = r.ended_by;
  out["rates"] = numa_rates_json(r.rates);
  out["rates_with_disk"] = numa_rates_json(r.rates_with_disk);
  out["breakdown"] = numa_breakdown_json(r.breakdown);
  out["processor_clocks"] = numa_clocks_json(r.processor_clocks);
  out["pages_replaced"] = numa_replaced_json(r.pages_replaced);
  out["page_transfers"] = numa_transfers_json(r.page_transfers);
  out["messages"] = numa_by_kind_json(r.messages);
  out["disk_accesses"] = r.disk_accesses;
  out["copies_dropped"] = r.copies_dropped;
  out["placements"] = numa_placements_json(r.placements);
  auto levels = Json::array();
  for (std::size_t i = 0; i < r.network.size(); ++i) {
    const auto& l = r.network[i];
    levels.push_back({{"level", i + 1},
                      {"hops", numa_by_kind_json(l.hops)},
                      {"bytes", l.bytes},
                      {"blocked_clocks", l.blocked_clocks},
                      {"queued_clocks", l.queued_clocks}});
  }
  out["network"] = std::move(levels);
  auto jobs = Json::array();
  for (const auto& p : r.jobs) jobs.push_back(numa_process_json(p));
  out["jobs"] = std::move(jobs);
  close_summary(out, r, "clocks",
                {{"clusters", r.platform.clusters},
                 {"levels", r.platform.levels},
                 {"fanout", r.platform.fanout},
                 {"clock_hz", r.platform.clock_hz},
                 {"simulated_seconds", r.platform.simulated_seconds}});
  return out;
}

Json summary_json(const RunRecord& record) {
  return std::visit([](const auto& r) { return summary_json(r); }, record);
}

ResultFiles result_files(const SmpRunRecord& record) {
  const Json summary = summary_json(record);
  return {{kSummaryFile, summary_text(summary)}, {kJobsFile, jobs_csv(summary.at("jobs"))}};
}

ResultFiles result_files(const NowRunRecord& record) {
  const Json summary = summary_json(record);
  ResultFiles files{{kSummaryFile, summary_text(summary)},
                    {kJobsFile, jobs_csv(summary.at("jobs"))},
                    {kWorkstationsFile, workstations_csv(record.workstations)},
                    {kBarriersFile, barriers_csv(record.barriers)}};
  if (record.class_changes) files.emplace(kClassesFile, classes_csv(*record.class_changes));
  if (record.pair_changes) files.emplace(kPairsFile, pairs_csv(*record.pair_changes));
  return files;
}

ResultFiles result_files(const NumaRunRecord& record) {
  const Json summary = summary_json(record);
  return {{kSummaryFile, summary_text(summary)},
          {kJobsFile, jobs_csv(summary.at("jobs"))},
          {kNetworkFile, numa_network_csv(record.network)}};
}

ResultFiles result_files(const RunRecord& record) {
  return std::visit([](const auto& r) { return result_files(r); }, record);
}

void check_schema(const Json& summary, const std::string& where) {
  if (!summary.is_object())
    throw config::InputError(fmt::format("{}: expected a JSON object, a summary.json of cosched", where));
  const auto version = summary.find("schema_version");
  if (version == summary.end() || !version->is_number_integer() ||
      version->get<long long>() != kSchemaVersion)
    throw config::InputError(fmt::format(
        "{}: schema_version {}; expected {}, the version this cosched writes (rerun that run: delete its "
        "folder and run the sweep again)",
        where, version == summary.end() ? std::string("missing") : version->dump(), kSchemaVersion));
}

SummaryCells read_summary(const std::filesystem::path& file, std::span<const std::string_view> models) {
  const std::string where = file.string();
  Json summary;
  {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    try {
      summary = Json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
      throw UnreadableSummary(fmt::format("{}: not JSON ({})", where, e.what()));
    }
  }
  check_schema(summary, where);
  const auto model = summary.find("model");
  if (model == summary.end() || !model->is_string() ||
      std::find(models.begin(), models.end(), model->get<std::string>()) == models.end())
    throw config::InputError(fmt::format("{}: expected 'model' {}", where,
                                         util::join_list({models.begin(), models.end()}, " or ")));
  const auto jobs = summary.find("jobs");
  if (jobs == summary.end() || !jobs->is_array())
    throw config::InputError(fmt::format("{}: expected 'jobs', a list of job instances", where));
  SummaryCells cells;
  for (const auto& [key, value] : summary.items())
    if (key != "jobs") flatten(value, key, cells.run);
  for (std::size_t j = 0; j < jobs->size(); ++j) {
    const auto& job = (*jobs)[j];
    if (!job.is_object() || !job.contains("name") || !job["name"].is_string() || !job.contains("copy") ||
        !job["copy"].is_number_integer())
      throw config::InputError(fmt::format(
          "{}: jobs[{}]: expected an object with a string 'name' and an integer 'copy'", where, j));
    SummaryCells::Job out{job["name"].get<std::string>(), job["copy"].get<int>(), {}};
    for (const auto& [key, value] : job.items())
      if (key != "name" && key != "copy") flatten(value, key, out.fields);
    cells.jobs.push_back(std::move(out));
  }
  return cells;
}

}  // namespace cosched::metrics
