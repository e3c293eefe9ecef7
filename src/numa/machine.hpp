#pragma once
// The NUMA machine of Nobukuni 1997 (SSS-CORE on a 256-cluster DSM machine) as a discrete-event system in
// whole clocks. Pure C++: no SimGrid calls but through the Network it is given; numa/simulation.cpp drives
// it slice by slice from a SimGrid actor. docs/models/numa.md states every rule and the thesis section it
// comes from.

#include <cstdint>
#include <memory>
#include <vector>

#include "config/scenario.hpp"
#include "metrics/message_trace.hpp"
#include "metrics/run_record.hpp"
#include "metrics/timeline.hpp"
#include "numa/network.hpp"
#include "platform/numa_topology.hpp"

namespace cosched::numa {

// How a running thread's clocks are drawn (docs/models/numa.md section 6.2): one clock at a time as the
// thesis describes ("Processes make memory reference actions at each clock"), or the number of clocks to the
// next clock that needs more than a local action drawn at once from its geometric distribution, which gives
// the same distribution of events and is what runs use; stepping exists to test that.
enum class Execution { Skipping, Stepped };

struct MachineSetup {
  const config::NumaConfig* numa = nullptr;
  const platform::NumaTopology* topology = nullptr;
  Network* network = nullptr;
  std::uint64_t seed = 1;
  bool end_at_first_finish = true;
  bool timeline = false;  // record which thread holds which cluster in each slice
  // Records every message that crosses the network, for the traces (output.trace_messages); null: off.
  metrics::MessageRecorder* messages = nullptr;
  Execution execution = Execution::Skipping;
};

class Machine {
 public:
  explicit Machine(const MachineSetup& setup);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Schedules and runs the next time slice. Returns false, running nothing, once the run has ended: a
  // process finished (end first-finish), every process finished, or the slice limit was reached.
  bool run_slice();

  Clock now() const;
  int slices() const;
  std::uint64_t events() const;
  // Access events (clocks that needed more than a local action) of every thread so far.
  std::int64_t access_events() const;

  // The run's results (scenario, seed and resolved are the caller's).
  metrics::NumaRunRecord record() const;
  // Per thread: the slices it held a cluster (state "running", place the cluster) or waited.
  std::vector<metrics::TimelineLane> timeline() const;
  static const std::vector<std::string>& timeline_states();
  // The names of MessageKind in the traces, in its order.
  static const std::vector<std::string>& message_kinds();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cosched::numa
