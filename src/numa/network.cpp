#include "numa/network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "numa/hop_network.hpp"

namespace cosched::numa {

// Thesis 4.2.2 ("the size parameter for each of these types of messages are given"); A2 for the two sizes
// the thesis does not give.
std::array<int, kMessageKinds> message_bytes(const config::NumaConfig& numa) {
  return {numa.page_size, numa.update_bytes, numa.communication_bytes};
}

// Thesis 4.2.2: a hop's time "is computed from the basic transfer cost and the bandwidth of the network level
// where it is passing"; A1(a): the base cost is a page's hop at the reference bandwidth, scaled by size and
// bandwidth, and no hop takes less than one clock (a thread acts at most once a clock, thesis 3.3).
Clock hop_clocks(const config::NumaConfig& numa, double reference_bandwidth, int bytes, double bandwidth) {
  if (!(bandwidth > 0) || !(reference_bandwidth > 0) || numa.page_size <= 0 || bytes < 0 ||
      numa.page_transfer_base < 0)
    throw std::logic_error("hop_clocks: bandwidths and the page size must be positive");
  const double exact =
      static_cast<double>(numa.page_transfer_base) * bytes / numa.page_size * reference_bandwidth / bandwidth;
  if (!(exact < 1e15)) throw std::logic_error("hop_clocks: a hop of more than 1e15 clocks");
  // A ratio that is an integer on paper can come out a few ulps above it (7 / 0.7 gives 500.00000000000006
  // clocks for a page): within a relative 1e-9 of an integer, that integer, before taking the ceiling.
  const double nearest = std::round(exact);
  const double clocks =
      std::abs(exact - nearest) <= 1e-9 * std::max(1.0, nearest) ? nearest : std::ceil(exact);
  return std::max<Clock>(1, static_cast<Clock>(clocks));
}

std::unique_ptr<Network> make_hop_network(const platform::NumaTopology& topology,
                                          const config::NumaConfig& numa) {
  return std::make_unique<HopNetwork>(topology, numa);
}

}  // namespace cosched::numa
