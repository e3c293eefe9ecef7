#include "calibrate/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace cosched::calibrate {
namespace {

std::int64_t whole(double value) {
  return std::max<std::int64_t>(0, std::llround(value));
}

// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Why a figure at or below 0 is no cost (docs/calibration.md, section 1: nothing is clamped).
constexpr const char* kNotPositive =
    "the loop without the operations took longer than the loop with them: another task, or the "
    "hypervisor, took the CPU while it ran; calibrate again on a quiet machine";

bool not_positive(const Measurement& m) {
  return m.measured() && !(m.figure().mean > 0);
}

std::string ns(double value) {
  return fmt::format("{:.3f}", value);
}
std::string cycles(double value_ns, double hz) {
  return fmt::format("{:.1f}", value_ns * hz * 1e-9);
}

// One figure of calibration.yaml, indented under its name; `operations` names the table's first column.
void yaml_figure(std::string& out, const std::string& name, const Measurement& m, double hz,
                 const char* operations, const std::string& extra = {}) {
  out += fmt::format("  {}:\n", name);
  if (!m.measured()) {
    out += fmt::format("    mean: null\n    std: null\n    unmeasured: {}\n", quoted(m.unmeasured));
    return;
  }
  const Stats s = m.figure();
  out += fmt::format("    mean: {}\n    std: {}\n    mean_cycles: {}\n    std_cycles: {}\n", ns(s.mean),
                     ns(s.std), cycles(s.mean, hz), cycles(s.std, hz));
  if (not_positive(m)) out += fmt::format("    not_positive: {}\n", quoted(kNotPositive));
  if (m.disturbances)
    out += fmt::format("    trials_rerun: {}\n    disturbed_trials_kept: {}\n", m.disturbances->reruns,
                       m.disturbances->kept);
  out += extra;
  out += "    table:\n";
  for (const Row& row : m.rows)
    out += fmt::format("      - {{{}: {}, mean: {}, std: {}, mean_cycles: {}, std_cycles: {}}}\n", operations,
                       row.operations, ns(row.ns.mean), ns(row.ns.std), cycles(row.ns.mean, hz),
                       cycles(row.ns.std, hz));
}

// A table of the seed's layout: the operations, then a mean and a standard deviation per column.
void text_table(std::string& out, const char* operations, const std::vector<std::string>& names,
                const std::vector<const Measurement*>& columns) {
  out += fmt::format("  {:>10}", operations);
  for (const auto& name : names) out += fmt::format("  {:>18}  {:>9}", name + " mean", "std");
  out += "\n";
  const Measurement* reference = nullptr;
  for (const auto* column : columns)
    if (column->measured()) reference = column;
  if (reference == nullptr) return;
  for (std::size_t r = 0; r < reference->rows.size(); ++r) {
    out += fmt::format("  {:>10}", reference->rows[r].operations);
    for (const auto* column : columns) {
      if (column->measured())
        out += fmt::format("  {:>18}  {:>9}", ns(column->rows[r].ns.mean), ns(column->rows[r].ns.std));
      else
        out += fmt::format("  {:>18}  {:>9}", "unmeasured", "");
    }
    out.erase(out.find_last_not_of(' ') + 1);  // an unmeasured last column leaves blanks
    out += "\n";
  }
}

void text_figure(std::string& out, const std::string& name, const Measurement& m, double hz) {
  if (!m.measured()) {
    out += fmt::format("  {:<22} unmeasured: {}\n", name, m.unmeasured);
    return;
  }
  const Stats s = m.figure();
  out += fmt::format("  {:<22} {:>10} ns  std {:>8} ns  {:>10} cycles\n", name, ns(s.mean), ns(s.std),
                     cycles(s.mean, hz));
}

}  // namespace

ScenarioKeys scenario_keys(const Calibration& calibration) {
  const double hz = calibration.clock.hz;
  const double kernel_ns = calibration.kernel.figure().mean;
  ScenarioKeys keys;
  keys.now_context_switch_ns = whole(kernel_ns);
  const std::int64_t kernel_cycles = whole(kernel_ns * hz * 1e-9);
  keys.smp_cs_in_cycles = (kernel_cycles + 1) / 2;
  keys.smp_cs_out_cycles = kernel_cycles - keys.smp_cs_in_cycles;
  if (calibration.idle_wakeup.measured())
    keys.smp_idle_wakeup_cycles = whole((calibration.idle_wakeup.figure().mean - kernel_ns) * hz * 1e-9);
  keys.loop_dispatch_cycles = whole(calibration.dispatch_uncontended.figure().mean * hz * 1e-9);
  keys.task_switch_cycles = whole(calibration.ucontext.figure().mean * hz * 1e-9);
  // Marks the keys `m` feeds when it is not positive; tells whether it did.
  const auto flag = [&keys](const Measurement& m, const char* figure,
                            std::initializer_list<const char*> fed) {
    if (!not_positive(m)) return false;
    for (const char* key : fed) keys.not_positive.push_back({key, figure});
    return true;
  };
  flag(calibration.kernel, "switch_ns.kernel",
       {"now.scheduler.context_switch", "smp.scheduler.cs_in", "smp.scheduler.cs_out"});
  // The idle wake-up comes from two figures: the first not positive is named.
  if (keys.smp_idle_wakeup_cycles &&
      !flag(calibration.idle_wakeup, "switch_ns.idle_wakeup", {"smp.scheduler.idle_wakeup"}))
    flag(calibration.kernel, "switch_ns.kernel", {"smp.scheduler.idle_wakeup"});
  flag(calibration.dispatch_uncontended, "dispatch_ns.uncontended", {"smp_job.loop.dispatch"});
  flag(calibration.ucontext, "switch_ns.ucontext", {"smp_job.tasks.switch"});
  return keys;
}

std::string calibration_yaml(const Calibration& c) {
  const double hz = c.clock.hz;
  std::string out =
      "# cosched calibrate: this machine's context-switch and dispatch costs (docs/calibration.md).\n"
      "# Each figure is the seed's t = (time of N operations - time of the same loop without them) / N,\n"
      "# repeated: mean and sample standard deviation of the row of its table with the most operations, in "
      "ns,\n"
      "# and in cycles at cpu_hz.\n";
  out += fmt::format("quick: {}\nrepetitions: {}\n", c.quick ? "true" : "false", c.repetitions);
  out += fmt::format("cpu_hz: {:.0f}\ncpu_hz_source: {}\n", hz, quoted(c.clock.source));
  out += fmt::format("cpus:\n  allowed: {}\n  measured_on: {}\n  contending: {}\n", c.allowed_cpus, c.cpu,
                     c.contending_cpu < 0 ? std::string("null") : std::to_string(c.contending_cpu));
  out += "switch_ns:\n";
  yaml_figure(out, "ucontext", c.ucontext, hz, "switches");
  yaml_figure(out, "fcontext", c.fcontext, hz, "switches");
  yaml_figure(out, "kernel", c.kernel, hz, "switches",
              fmt::format("    context_switches_per_handover: {:.3f}\n", c.kernel_switches_per_handover));
  yaml_figure(out, "idle_wakeup", c.idle_wakeup, hz, "handovers");
  out += "dispatch_ns:\n";
  yaml_figure(out, "uncontended", c.dispatch_uncontended, hz, "dispatches");
  yaml_figure(out, "contended", c.dispatch_contended, hz, "dispatches");

  const ScenarioKeys keys = scenario_keys(c);
  out +=
      "# The scenario keys these figures feed (docs/calibration.md), and the same as cosched run "
      "arguments.\n";
  out += "scenario_keys:\n";
  out += fmt::format("  now:\n    scheduler.context_switch: {}ns  # one kernel switch\n",
                     keys.now_context_switch_ns);
  out += fmt::format(
      "  smp:\n    scheduler.cs_in: {}  # cycles: half a kernel switch each\n    scheduler.cs_out: {}\n",
      keys.smp_cs_in_cycles, keys.smp_cs_out_cycles);
  if (keys.smp_idle_wakeup_cycles)
    out += fmt::format(
        "    scheduler.idle_wakeup: {}  # cycles: a hand-over to an idle CPU less one on the same CPU\n",
        *keys.smp_idle_wakeup_cycles);
  out += fmt::format(
      "  smp_job:  # keys of a job profile, workload.jobs[i]\n"
      "    loop.dispatch: {}  # cycles: one uncontended dispatch\n"
      "    tasks.switch: {}  # cycles: one ucontext switch\n",
      keys.loop_dispatch_cycles, keys.task_switch_cycles);
  if (!keys.not_positive.empty()) {
    out += "  not_positive:  # keys fed by a figure at or below 0, which is no cost: they take 0\n";
    for (const auto& [key, figure] : keys.not_positive) out += fmt::format("    {}: {}\n", key, figure);
  }
  out += fmt::format("  set_now: --set scheduler.context_switch={}ns\n", keys.now_context_switch_ns);
  out += fmt::format("  set_smp: --set scheduler.cs_in={} --set scheduler.cs_out={}{}\n",
                     keys.smp_cs_in_cycles, keys.smp_cs_out_cycles,
                     keys.smp_idle_wakeup_cycles
                         ? fmt::format(" --set scheduler.idle_wakeup={}", *keys.smp_idle_wakeup_cycles)
                         : std::string());
  return out;
}

std::string calibration_text(const Calibration& c) {
  const double hz = c.clock.hz;
  std::string out = fmt::format(
      "cosched calibrate: {} repetitions per row, measured on CPU {} ({} CPU{} allowed)\n"
      "cpu_hz {:.1f} MHz ({})\n\n",
      c.repetitions, c.cpu, c.allowed_cpus, c.allowed_cpus == 1 ? "" : "s", hz * 1e-6, c.clock.source);
  out += "User-level context switches, ns per switch: (time of N switches - time without them) / N\n";
  text_table(out, "Switches", {"ucontext", "fcontext"}, {&c.ucontext, &c.fcontext});
  out += fmt::format(
      "\nKernel context switch, ns per hand-over: two threads and a futex, both on CPU {} ({:.2f} switches "
      "counted per hand-over)\n",
      c.cpu, c.kernel_switches_per_handover);
  text_table(out, "Switches", {"kernel"}, {&c.kernel});
  out +=
      c.contending_cpu < 0
          ? std::string("\nWake-up on an idle CPU, ns per hand-over: the same, the partner on another CPU\n")
          : fmt::format("\nWake-up on an idle CPU, ns per hand-over: the same, the partner on CPU {}\n",
                        c.contending_cpu);
  text_table(out, "Hand-overs", {"idle CPU"}, {&c.idle_wakeup});
  out +=
      c.contending_cpu < 0
          ? std::string("\nDispatch of one chunk, ns per fetch_add on a shared counter\n")
          : fmt::format("\nDispatch of one chunk, ns per fetch_add on a shared counter (CPU {} contending)\n",
                        c.contending_cpu);
  text_table(out, "Dispatches", {"uncontended", "contended"},
             {&c.dispatch_uncontended, &c.dispatch_contended});
  out += fmt::format("\nFigures (the rows with the most operations; cycles at {:.1f} MHz)\n", hz * 1e-6);
  std::string suspects;
  for (const auto& [name, m] : {std::pair<const char*, const Measurement*>{"switch ucontext", &c.ucontext},
                                {"switch fcontext", &c.fcontext},
                                {"switch kernel", &c.kernel},
                                {"wake-up on an idle CPU", &c.idle_wakeup},
                                {"dispatch uncontended", &c.dispatch_uncontended},
                                {"dispatch contended", &c.dispatch_contended}}) {
    text_figure(out, name, *m, hz);
    if (not_positive(*m)) suspects += fmt::format("{}{}", suspects.empty() ? "" : ", ", name);
  }
  if (!suspects.empty()) out += fmt::format("Not positive, so not a cost: {}; {}.\n", suspects, kNotPositive);
  std::string reruns;
  for (const auto& [name, m] : {std::pair<const char*, const Measurement*>{"ucontext", &c.ucontext},
                                {"fcontext", &c.fcontext},
                                {"uncontended", &c.dispatch_uncontended},
                                {"contended", &c.dispatch_contended}})
    if (m->disturbances)
      reruns += fmt::format("{}{} {} timed again, {} kept", reruns.empty() ? "" : "; ", name,
                            m->disturbances->reruns, m->disturbances->kept);
  out += fmt::format(
      "Trials the kernel interrupted (another task ran while they were timed) are timed again, up to half "
      "of each figure's trials; those kept anyway can be off either way.\n  {}\n",
      reruns);
  if (c.quick)
    out +=
        "These are --quick figures: few repetitions, so they are rough. For a study, run cosched "
        "calibrate without --quick.\n";
  return out;
}

}  // namespace cosched::calibrate
