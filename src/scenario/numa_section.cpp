#include "scenario/numa_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include "config/keys.hpp"
#include "config/limits.hpp"
#include "config/units.hpp"
#include "metrics/summary_text.hpp"
#include "numa/footprint.hpp"
#include "numa/reference_table.hpp"
#include "scenario/models.hpp"
#include "sched/numa/allocation_registry.hpp"
#include "sched/numa/replacement_registry.hpp"

namespace cosched::config {
namespace {

// Bounds of the keys (docs/scenario-format.md sections 10.3-10.6). Clock counts share the largest simulated
// time of every model; the others keep a run's tables within memory and their products far from overflow.
constexpr std::int64_t kMaxClocks = limits::kMaxSimulatedTime;
constexpr std::int64_t kMaxCount = 1'000'000;                     // threads of a process, copies
constexpr std::int64_t kMaxSpacePages = 10'000'000;               // pages of one local or shared space
constexpr std::int64_t kMaxPagesPerCluster = 1'000'000;           // frames of one cluster
constexpr std::int64_t kMaxPageSize = std::int64_t{1} << 30;      // bytes of a page or a message
constexpr double kMaxClusterBytes = 1024.0 * 1024 * 1024 * 1024;  // pages_per_cluster x page_size: 1 TiB
constexpr std::int64_t kMaxSlices = 100'000;
constexpr double kMinClockHz = 1e3, kMaxClockHz = 1e12;
constexpr double kMaxFrequency = 1e12;        // a table entry's weight
constexpr double kMaxAgingCoefficient = 1e9;  // C_r, in the units of U_r (processors)
constexpr double kMixTolerance = 1e-9;  // compute + read + write = 1 up to rounding of decimal fractions

const Names<NumaNetwork> kNetworkNames = {{"hops", NumaNetwork::Hops}, {"shared", NumaNetwork::Shared}};
const Names<NumaAccess> kAccessNames = {
    {"compute", NumaAccess::Compute}, {"read", NumaAccess::Read}, {"write", NumaAccess::Write}};
// A5: per-page is the thesis's "can be given for each page" (4.2.3 para 5).
const Names<NumaTypes> kTypesNames = {{"per-page", NumaTypes::PerPage},
                                      {"per-reference", NumaTypes::PerReference}};
// A6: who meets at a sync point; A6(a) (docs/models/numa.md section 8) is random-subset, the thesis's
// "randomly selected threads".
const Names<NumaSyncMembers> kBarrierNames = {{"random-subset", NumaSyncMembers::RandomSubset},
                                              {"all", NumaSyncMembers::All},
                                              {"pair", NumaSyncMembers::Pair}};
// 4.2.4: the thesis's sequential consistency; release is the relaxed model of its future work (5.3).
const Names<NumaConsistency> kConsistencyNames = {{"sequential", NumaConsistency::Sequential},
                                                  {"release", NumaConsistency::Release}};
// A12: nearest is the fewest hops; oldest the copy held longest, a home-based reading.
const Names<NumaCopySource> kCopySourceNames = {{"nearest", NumaCopySource::Nearest},
                                                {"oldest", NumaCopySource::Oldest}};
// A13: remote is the thesis's "Every write access starts update processing by sending update messages to
// every copy" (4.2.4 para 3); fetch is the reading that copies the page first.
const Names<NumaWriteMiss> kWriteMissNames = {{"remote", NumaWriteMiss::Remote},
                                              {"fetch", NumaWriteMiss::Fetch}};

std::int64_t bounded(const Field& f, std::int64_t min, std::int64_t max, std::string_view what) {
  const std::string expected = fmt::format("{} from {} to {}", what, min, max);
  const auto value = parse_integer(f.scalar(expected));
  if (!value || *value < min || *value > max) f.fail(expected);
  return *value;
}

int count(const Field& f, std::int64_t max, std::string_view what = "an integer") {
  return static_cast<int>(bounded(f, 1, max, what));
}

double number_in(const Field& f, double min, double max, std::string_view what) {
  const std::string expected = fmt::format("{} from {:g} to {:g}", what, min, max);
  const auto value = parse_number(f.scalar(expected));
  if (!value || *value < min || *value > max) f.fail(expected);
  return *value;
}

double fraction(const Field& f, std::string_view what) {
  return number_in(f, 0, 1, what);
}

// platform.clock_hz: "1GHz", "500MHz", "2.5kHz", "1Hz" or a plain number of clocks per second.
double clock_rate(const Field& f) {
  const std::string expected =
      fmt::format("a clock rate such as 1GHz, 500MHz or 1e9 (clocks per second, from {:g} to {:g})",
                  kMinClockHz, kMaxClockHz);
  const std::string given = f.scalar(expected);
  std::string_view text = given;
  double scale = 1;
  for (const auto& [unit, factor] :
       {std::pair<std::string_view, double>{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1}}) {
    if (text.size() > unit.size() && text.ends_with(unit)) {
      text.remove_suffix(unit.size());
      scale = factor;
      break;
    }
  }
  const auto value = parse_number(text);
  if (!value || !(*value * scale >= kMinClockHz) || *value * scale > kMaxClockHz) f.fail(expected);
  return *value * scale;
}

// sync_interval: N effective clocks, or "MIN-MAX" drawn once per process (A7; table 5.3's "1000-2000").
void read_sync_interval(const Field& f, NumaProcessProfile& process) {
  const std::string expected = fmt::format(
      "a synchronization interval in effective clocks, such as 1000, or a range MIN-MAX such as 1000-2000 "
      "(1 <= MIN <= MAX <= {})",
      kMaxClocks);
  const std::string text = f.scalar(expected);
  const auto dash = text.find('-', 1);  // a leading '-' is a sign, refused below
  const auto low = parse_integer(std::string_view(text).substr(0, dash));
  const auto high = dash == std::string::npos ? low : parse_integer(std::string_view(text).substr(dash + 1));
  if (!low || !high || *low < 1 || *high < *low || *high > kMaxClocks) f.fail(expected);
  process.sync_min = *low;
  process.sync_max = *high;
  process.sync_given = text;
}

// A reference-frequency table as written (thesis 4.2.3, A5), with the `entries` field for errors found
// once the space's page count is known.
struct TableAsRead {
  NumaTable table;
  std::optional<Field> entries;
};

TableAsRead read_table(const Field& f) {
  MapReader map(
      f,
      "a reference-frequency table: {hot_pages, hot_refs, compute, read, write, types} or {entries: "
      "[{pages, frequency, type}, ...]}");
  TableAsRead out;
  NumaTable& table = out.table;
  const auto hot_pages = map.optional("hot_pages");
  const auto hot_refs = map.optional("hot_refs");
  const auto compute = map.optional("compute");
  const auto read = map.optional("read");
  const auto write = map.optional("write");
  const auto types = map.optional("types");
  out.entries = map.optional("entries");
  map.finish();  // a misspelt key is reported as such, not as the key it should have been missing
  if (out.entries) {
    for (const auto* other : {&hot_pages, &hot_refs, &compute, &read, &write, &types})
      if (*other)
        (*other)->error(
            "a table is either the hot-cold shape (hot_pages, hot_refs, compute, read, write, types) or a "
            "list of entries; expected this key or 'entries', not both");
    table.shape = "entries";
    const auto items = out.entries->items("a list of entries {pages, frequency, type}");
    if (items.empty())
      out.entries->error(
          "an empty reference-frequency table; expected at least one entry {pages, frequency, type}");
    double total = 0;
    for (const auto& item : items) {
      MapReader entry(item, "an entry mapping {pages, frequency, type}");
      NumaTableEntry e;
      e.pages = count(entry.required("pages"), kMaxSpacePages, "a page count");
      e.frequency =
          number_in(entry.required("frequency"), 0, kMaxFrequency, "a reference frequency per page");
      e.type = choice(entry.required("type"), kAccessNames);
      entry.finish();
      total += e.frequency * e.pages;
      table.entries.push_back(e);
    }
    if (!(total > 0))
      out.entries->error("every entry has frequency 0; expected at least one page with a positive frequency");
  } else {
    table.shape = "hot-cold";
    // A share of pages of 0 would leave nothing to reference; a share of references may be 0 or 1.
    if (hot_pages) {
      table.hot_pages = fraction(*hot_pages, "a share of the space's pages");
      if (!(table.hot_pages > 0)) hot_pages->fail("a share of the space's pages in (0, 1]");
    }
    if (hot_refs) table.hot_refs = fraction(*hot_refs, "a share of the references");
    if (types) table.types = choice(*types, kTypesNames);
    // The mix is given whole or not at all: a partial one would mix the user's shares with the defaults.
    const bool any = compute || read || write;
    if (any) {
      for (const auto& [key, field] :
           {std::pair<const char*, const std::optional<Field>*>{"compute", &compute},
            {"read", &read},
            {"write", &write}})
        if (!*field)
          map.field().error(fmt::format(
              "missing key '{}'; expected the access mix whole (compute, read and write, adding up to 1) "
              "or none of its keys",
              key));
      table.compute = fraction(*compute, "a share of the references");
      table.read = fraction(*read, "a share of the references");
      table.write = fraction(*write, "a share of the references");
      const double sum = table.compute + table.read + table.write;
      if (std::abs(sum - 1) > kMixTolerance)
        write->error(fmt::format(
            "compute + read + write = {:g}; expected the access mix to add up to 1 (each a share of the "
            "pages, or of each page's references)",
            sum));
    }
  }
  return out;
}

// The table of one space of `pages` pages, as the machine draws from it. A hot-cold table becomes its hot
// and cold runs, each page's weight its run's share of the references over the run's pages, each run split
// into its pages of each type when types are per page (docs/scenario-format.md section 10.6). `whose` names
// the space for an entries table whose pages do not cover it.
NumaTable resolve_table(const TableAsRead& given, int pages, const std::string& whose) {
  NumaTable table = given.table;
  if (table.shape == "entries") {
    std::int64_t covered = 0;
    for (const auto& e : table.entries) covered += e.pages;
    if (covered != pages)
      given.entries->error(
          fmt::format("the entries cover {} pages; expected them to add up to the {} pages of {}", covered,
                      pages, whose));
    return table;
  }
  table.entries = numa::hot_cold_runs(table, pages);
  return table;
}

// What every process inherits from the workload level unless it says otherwise.
struct ProcessDefaults {
  double shared_rate = NumaProcessProfile{}.shared_rate;
  TableAsRead local_table{NumaProcessProfile{}.local_table, std::nullopt};
  TableAsRead shared_table{NumaProcessProfile{}.shared_table, std::nullopt};
};

NumaProcessProfile read_process(const Field& f, std::size_t index, const ProcessDefaults& defaults) {
  MapReader map(f, "a process mapping with threads, local_pages and shared_pages");
  NumaProcessProfile process;
  process.name = fmt::format("process{}", index);
  if (auto v = map.optional("name")) process.name = v->string();
  const auto threads = map.required("threads");
  // 4.2.3: the fixed number of processors it requests. Whether the platform has that many clusters is
  // known only once its file is loaded: `origin` lets that check point here.
  process.threads = count(threads, kMaxCount, "a number of threads (processors it requests)");
  process.origin = threads.location() + ": " + threads.path();
  if (auto v = map.optional("copies")) process.copies = count(*v, kMaxCount, "a number of copies");
  process.local_pages = count(map.required("local_pages"), kMaxSpacePages, "a page count per thread");
  process.shared_pages = count(map.required("shared_pages"), kMaxSpacePages, "a page count");
  process.shared_rate = defaults.shared_rate;
  if (auto v = map.optional("shared_rate")) process.shared_rate = fraction(*v, "a share of the references");
  if (auto v = map.optional("sync_interval")) read_sync_interval(*v, process);
  std::optional<TableAsRead> local, shared;
  if (auto v = map.optional("local_table")) local = read_table(*v);
  if (auto v = map.optional("shared_table")) shared = read_table(*v);
  map.finish();
  const std::string who = fmt::format("{} ({})", f.path(), process.name);
  process.local_table =
      resolve_table(local ? *local : defaults.local_table, process.local_pages, "the local space of " + who);
  process.shared_table = resolve_table(shared ? *shared : defaults.shared_table, process.shared_pages,
                                       "the shared space of " + who);
  return process;
}

nlohmann::ordered_json table_json(const NumaTable& table) {
  nlohmann::ordered_json out;
  out["shape"] = table.shape;
  const bool hot_cold = table.shape == "hot-cold";
  if (hot_cold) {
    out["hot_pages"] = table.hot_pages;
    out["hot_refs"] = table.hot_refs;
    out["compute"] = table.compute;
    out["read"] = table.read;
    out["write"] = table.write;
    out["types"] = name_of(kTypesNames, table.types);
  }
  auto& entries = out["entries"] = nlohmann::ordered_json::array();
  for (const auto& e : table.entries) {
    nlohmann::ordered_json entry{{"pages", e.pages}, {"frequency", e.frequency}};
    if (!hot_cold || table.types == NumaTypes::PerPage) entry["type"] = name_of(kAccessNames, e.type);
    entries.push_back(entry);
  }
  return out;
}

}  // namespace

// `end` takes either value: first-finish is the thesis's (chapter 5, the loader's default for numa) and
// all-jobs runs until every process has finished; both stop after scheduler.slices.
NumaConfig read_numa(MapReader& top, const std::string& scenario_dir, EndCondition) {
  NumaConfig numa;
  std::optional<Field> platform_file;
  {
    MapReader platform(top.required("platform"), "a mapping with 'file' and the network's keys");
    platform_file = platform.required("file");
    if (auto v = platform.optional("network")) numa.network = choice(*v, kNetworkNames);
    if (auto v = platform.optional("clock_hz")) numa.clock_hz = clock_rate(*v);
    if (auto v = platform.optional("page_transfer_base"))
      numa.page_transfer_base = bounded(*v, 1, 1'000'000'000, "a number of clocks");
    if (auto v = platform.optional("reference_bandwidth")) {
      const char* expected =
          "a bandwidth with a unit, such as 1GBps or 10Gbps (from 1kbps to 1000000GBps), or 0 for the "
          "bottom level's";
      const std::string text = v->scalar(expected);
      if (text != "0") {
        const auto value = parse_bandwidth_bytes_per_second(text);
        if (!value || *value < 125 || *value > 1e15) v->fail(expected);
        numa.reference_bandwidth = *value;
      }
    }
    if (auto v = platform.optional("update_bytes"))
      numa.update_bytes = static_cast<int>(bounded(*v, 1, kMaxPageSize, "a message size in bytes"));
    if (auto v = platform.optional("communication_bytes"))
      numa.communication_bytes = static_cast<int>(bounded(*v, 1, kMaxPageSize, "a message size in bytes"));
    if (auto v = platform.optional("buffers")) numa.buffers = v->boolean();
    platform.finish();
  }
  const auto& policies = sched::numa_allocation_policies();
  numa.policy = policies.defaults(policies.family().default_policy);
  if (auto section = top.optional("scheduler")) {
    MapReader scheduler(*section, "a mapping with policy, time_slice, slices and aging_coefficient");
    numa.policy = policies.read(scheduler).choice();
    if (auto v = scheduler.optional("time_slice"))
      numa.time_slice = bounded(*v, 1, kMaxClocks, "a time slice in clocks");
    if (auto v = scheduler.optional("slices")) numa.slices = count(*v, kMaxSlices, "a number of time slices");
    if (auto v = scheduler.optional("aging_coefficient"))
      numa.aging_coefficient = number_in(*v, 0, kMaxAgingCoefficient, "an aging coefficient C_r");
    scheduler.finish();
  }
  const auto& strategies = sched::numa_replacements();
  numa.replacement = strategies.defaults(strategies.family().default_policy);
  if (auto section = top.optional("memory")) {
    MapReader memory(*section,
                     "a mapping with replacement, pages_per_cluster, page_size, disk, local_access, "
                     "consistency, write_miss and copy_source");
    numa.replacement = strategies.read(memory).choice();
    const auto pages_per_cluster = memory.optional("pages_per_cluster");
    const auto page_size = memory.optional("page_size");
    if (pages_per_cluster)
      numa.pages_per_cluster = count(*pages_per_cluster, kMaxPagesPerCluster, "a number of page frames");
    if (page_size)
      numa.page_size = static_cast<int>(bounded(*page_size, 1, kMaxPageSize, "a page size in bytes"));
    if (static_cast<double>(numa.pages_per_cluster) * numa.page_size > kMaxClusterBytes)
      (page_size ? *page_size : *pages_per_cluster)
          .error(fmt::format("pages_per_cluster x page_size = {:g} bytes of memory per cluster; expected at "
                             "most {:g} (1 TiB)",
                             static_cast<double>(numa.pages_per_cluster) * numa.page_size, kMaxClusterBytes));
    if (auto v = memory.optional("disk"))
      numa.disk = bounded(*v, 0, kMaxClocks, "a disk access cost in clocks");
    if (auto v = memory.optional("local_access"))
      numa.local_access = bounded(*v, 1, 1'000'000'000, "a local access cost in clocks");
    if (auto v = memory.optional("consistency")) numa.consistency = choice(*v, kConsistencyNames);
    if (auto v = memory.optional("write_miss")) numa.write_miss = choice(*v, kWriteMissNames);
    if (auto v = memory.optional("copy_source")) numa.copy_source = choice(*v, kCopySourceNames);
    memory.finish();
  }
  {
    MapReader workload(top.required("workload"), "a mapping with 'processes'");
    if (auto v = workload.optional("work"))
      numa.work = number_in(*v, 1, static_cast<double>(kMaxClocks), "effective clocks per thread");
    if (auto v = workload.optional("barrier")) numa.barrier = choice(*v, kBarrierNames);
    ProcessDefaults defaults;
    if (auto v = workload.optional("shared_rate"))
      defaults.shared_rate = fraction(*v, "a share of the references");
    if (auto v = workload.optional("local_table")) defaults.local_table = read_table(*v);
    if (auto v = workload.optional("shared_table")) defaults.shared_table = read_table(*v);
    auto processes = workload.required("processes");
    const auto items = processes.items("a list of process profiles");
    if (items.empty()) processes.error("an empty list; expected at least one process");
    for (std::size_t i = 0; i < items.size(); ++i)
      numa.processes.push_back(read_process(items[i], i, defaults));
    workload.finish();
  }
  numa.output = read_output(top);
  // Resolved last, so that every other key is checked even where the file is not at hand (the fuzz target
  // runs scenarios from a scratch folder).
  numa.platform_file = resolve_platform_file(*platform_file, scenario_dir);
  return numa;
}

nlohmann::ordered_json numa_json(const NumaConfig& numa) {
  nlohmann::ordered_json out;
  auto& platform = out["platform"];
  platform["file"] = numa.platform_file;
  platform["network"] = name_of(kNetworkNames, numa.network);
  platform["clock_hz"] = numa.clock_hz;
  platform["page_transfer_base"] = numa.page_transfer_base;
  platform["reference_bandwidth"] = numa.reference_bandwidth;  // bytes/s; 0: the bottom level's
  platform["update_bytes"] = numa.update_bytes;
  platform["communication_bytes"] = numa.communication_bytes;
  platform["buffers"] = numa.buffers;
  auto& scheduler = out["scheduler"];
  sched::numa_allocation_policies().to_json(numa.policy, scheduler);
  scheduler["time_slice"] = numa.time_slice;
  scheduler["slices"] = numa.slices;
  scheduler["aging_coefficient"] = numa.aging_coefficient;
  auto& memory = out["memory"];
  sched::numa_replacements().to_json(numa.replacement, memory);
  memory["pages_per_cluster"] = numa.pages_per_cluster;
  memory["page_size"] = numa.page_size;
  memory["disk"] = numa.disk;
  memory["local_access"] = numa.local_access;
  memory["consistency"] = name_of(kConsistencyNames, numa.consistency);
  memory["write_miss"] = name_of(kWriteMissNames, numa.write_miss);
  memory["copy_source"] = name_of(kCopySourceNames, numa.copy_source);
  auto& workload = out["workload"];
  workload["work"] = numa.work;
  workload["barrier"] = name_of(kBarrierNames, numa.barrier);
  auto& processes = workload["processes"] = nlohmann::ordered_json::array();
  for (const auto& p : numa.processes) {
    nlohmann::ordered_json j;
    j["name"] = p.name;
    j["threads"] = p.threads;
    j["copies"] = p.copies;
    j["local_pages"] = p.local_pages;
    j["shared_pages"] = p.shared_pages;
    j["shared_rate"] = p.shared_rate;
    j["sync_interval"] = {{"min", p.sync_min}, {"max", p.sync_max}};
    j["local_table"] = table_json(p.local_table);
    j["shared_table"] = table_json(p.shared_table);
    processes.push_back(j);
  }
  // The readings of the thesis's open points that these keys select (docs/models/numa.md; its section 8
  // lists the open points A1-A30). The machine's fixed readings are documented there.
  const std::string reference = numa.reference_bandwidth > 0
                                    ? fmt::format("{:g} bytes/s", numa.reference_bandwidth)
                                    : std::string("the bottom level's bandwidth");
  const char* barrier =
      numa.barrier == NumaSyncMembers::RandomSubset ? "a random subset of the process's threads meets"
      : numa.barrier == NumaSyncMembers::All        ? "every thread of the process meets"
                                                    : "a random pair of the process's threads meets";
  out["choices"] = {
      {"A1", fmt::format("a page crosses a hop in page_transfer_base ({} clk) at {}; other sizes and "
                         "bandwidths scale it",
                         numa.page_transfer_base, reference)},
      {"A2", fmt::format("messages of {} bytes (update) and {} bytes (communication); a page message is "
                         "page_size ({} bytes)",
                         numa.update_bytes, numa.communication_bytes, numa.page_size)},
      {"A3", "local_pages per thread and shared_pages per process as each process gives them"},
      {"A4", "shared_rate: each process's share of references to its shared space, as given"},
      {"A5",
       "reference-frequency tables as given: hot-cold with its mix as pages of each type (per-page) or as "
       "every page's references (per-reference), or entries of one access type each"},
      {"A6", fmt::format("barrier {}: at each sync point {}", name_of(kBarrierNames, numa.barrier), barrier)},
      {"A7",
       "sync_interval counts each thread's effective clocks; a range MIN-MAX is drawn once per process, "
       "uniformly"},
      {"A9", fmt::format("a process finishes when its threads' effective clocks add up to threads x work "
                         "({:g} per thread on average)",
                         numa.work)},
      {"A10", fmt::format("aging coefficient C_r = {:g}", numa.aging_coefficient)},
      {"A12",
       numa.copy_source == NumaCopySource::Nearest
           ? "copy_source nearest: a copy is asked of the holder with the fewest hops, ties to the lowest "
             "cluster"
           : "copy_source oldest: a copy is asked of the holder of the oldest copy still held"},
      {"A13", numa.write_miss == NumaWriteMiss::Remote
                  ? "write_miss remote: a shared write with no copy here updates every copy and waits for "
                    "their acknowledgements, keeping no copy"
                  : "write_miss fetch: a shared write with no copy here fetches a copy first, then updates "
                    "the others"},
      {"A14",
       fmt::format("a local access costs local_access = {} clk, counted as effective", numa.local_access)},
      {"A28", numa.buffers
                  ? "under network hops, each switch output port buffers as many messages as the switch has "
                    "input lines; a message waits for a free entry"
                  : "under network hops, switch output ports buffer without limit"},
  };
  return out;
}

const ModelEntry kNumaModel{
    "numa",
    "the numa model has no key a calibration feeds: cosched calibrate measures context switches and loop "
    "dispatches, and the numa model charges neither (its costs are the thesis's clocks: page transfers, disk "
    "and local accesses)",
    nullptr,
    [](ModelInput& in) -> ModelConfig {
      // Nobukuni chapter 5: "carried on until one of the processes in a set stops execution or 100 time
      // slices has passed"; end: all-jobs is also allowed.
      if (!in.end_field) in.end = EndCondition::FirstFinish;
      return read_numa(in.top, in.dir, in.end);
    },
    [](const ModelConfig& config) { return numa_json(std::get<NumaConfig>(config)); },
    nullptr,
    [](const ModelConfig& config) { return numa::trace_estimate(std::get<NumaConfig>(config)); },
    [](const ModelConfig& config, const Field& root) {
      numa::check_limits(std::get<NumaConfig>(config), root);
    },
    metrics::numa_summary_lines};

}  // namespace cosched::config
