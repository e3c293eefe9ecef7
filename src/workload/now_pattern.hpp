#pragma once
// How a NOW job's phases are filled (Brim & Miller 3.1): whom a process reads from, and what a phase's
// length counts. `pattern` and `interval_basis` in a scenario (docs/models/now.md).

namespace cosched::workload {

enum class Pattern { None, News, Random };
enum class IntervalBasis { Compute, Dedicated };

}  // namespace cosched::workload
