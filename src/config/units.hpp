#pragma once
// Durations and bandwidths written with units, as the NOW model's keys take them ("10us", "1Gbps").

#include <cstdint>
#include <optional>
#include <string_view>

namespace cosched::config {

// "150ms", "10us", "2s", "100ns", "1.5ms"; a bare 0 is also accepted. Result in whole nanoseconds.
std::optional<std::int64_t> parse_duration_ns(std::string_view text);

// "1Gbps", "100Mbps", "10kbps", "125MBps", "1GBps" (b: bits, B: bytes). Result in bytes per second.
std::optional<double> parse_bandwidth_bytes_per_second(std::string_view text);

}  // namespace cosched::config
