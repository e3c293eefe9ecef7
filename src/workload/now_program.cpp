#include "workload/now_program.hpp"

#include <cmath>

#include "util/normal.hpp"

namespace cosched::workload {

double imbalance_factor(double v, std::mt19937_64& engine) {
  if (v <= 1.0) return 1.0;
  const double low = 2.0 / (1.0 + v);
  return low + (v * low - low) * util::uniform_open01(engine);
}

double imbalance_spread(double v) {
  return 2.0 * (v - 1.0) / (1.0 + v);
}

std::array<int, 4> news_neighbours(int rank, int processes) {
  int rows = 1;
  for (int r = 1; r * r <= processes; ++r)
    if (processes % r == 0) rows = r;
  const int cols = processes / rows;
  const int row = rank / cols, col = rank % cols;
  auto at = [&](int r, int c) { return ((r + rows) % rows) * cols + (c + cols) % cols; };
  return {at(row - 1, col), at(row, col + 1), at(row, col - 1), at(row + 1, col)};
}

ProcessProgram::ProcessProgram(const ProgramSpec& spec, int rank, std::uint64_t stream_seed)
    : spec_(spec), rank_(rank), news_(news_neighbours(rank, spec.processes)), engine_(stream_seed) {}

Phase ProcessProgram::next_phase() {
  const double factor = imbalance_factor(spec_.imbalance, engine_);
  const auto budget = static_cast<Nanos>(std::llround(static_cast<double>(spec_.sync_interval) * factor));
  Phase phase;
  phase.budget = budget;
  if (spec_.pattern == Pattern::None || spec_.processes < 2) {
    phase.residual = budget;
    return phase;
  }
  phase.chunk = spec_.comm_interval;
  // compute basis: the intervals count computation only. dedicated basis: a chunk of computation and one
  // read's round trip together take comm_interval + 2L + 4o on a dedicated machine.
  const Nanos step = spec_.basis == IntervalBasis::Compute ? spec_.comm_interval
                                                           : spec_.comm_interval + spec_.read_round_trip;
  phase.reads = budget / step;
  const Nanos rest = budget - phase.reads * step;
  phase.residual =
      spec_.basis == IntervalBasis::Compute
          ? rest
          : static_cast<Nanos>(std::llround(static_cast<double>(rest) * spec_.comm_interval / step));
  return phase;
}

std::optional<std::array<int, 4>> ProcessProgram::news_partners() const {
  if (spec_.pattern != Pattern::News) return std::nullopt;
  return news_;
}

int ProcessProgram::read_partner(std::int64_t read) {
  if (spec_.pattern == Pattern::News) return news_partner(news_, read);
  // random: uniform among the other processes.
  auto other = static_cast<int>(engine_() % static_cast<std::uint64_t>(spec_.processes - 1));
  return other >= rank_ ? other + 1 : other;
}

}  // namespace cosched::workload
