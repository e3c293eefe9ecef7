// The NUMA model's footprint (docs/scenario-format.md, "Traces" and "Limits"): its trace estimate, with and
// without a window, worked out by hand.

#include "numa/footprint.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace cosched::numa {
namespace {

using config::limits::kChromeBytesPerInterval;
using config::limits::kChromeBytesPerMessage;
using config::limits::kPajeBytesPerInterval;
using config::limits::kPajeBytesPerMessage;

TEST(NumaFootprint, AnIntervalPerThreadAndSliceAndAWindowKeepsItsShare) {
  config::NumaConfig numa;
  numa.slices = 10;
  numa.time_slice = 1000;
  config::NumaProcessProfile process;
  process.name = "p";
  process.threads = 4;
  process.copies = 2;
  numa.processes = {process};
  auto& output = numa.output;
  const auto traced = [&] { return config::limits::traced(output, trace_estimate(numa)); };
  EXPECT_DOUBLE_EQ(traced().intervals, 8 * 12.0) << "8 threads, 10 slices and the two ends";
  EXPECT_DOUBLE_EQ(config::limits::trace_bytes(output, traced()), 0) << "no trace asked for";
  output.trace_paje = output.trace_chrome = output.trace_messages = true;
  output.trace_window = std::make_pair(0, 2500);  // a quarter of 10 slices of 1000 clocks
  EXPECT_DOUBLE_EQ(traced().intervals, 8 * 12.0 / 4);
  // Messages: 4 threads run at once (the largest process stands for the unknown clusters), 0.02 messages
  // each per clock, over the window's 2500 clocks.
  EXPECT_DOUBLE_EQ(traced().messages, 4 * 0.02 * 2500);
  EXPECT_DOUBLE_EQ(config::limits::trace_bytes(output, traced()),
                   8 * 12.0 / 4 * (kPajeBytesPerInterval + kChromeBytesPerInterval) +
                       4 * 0.02 * 2500 * (kPajeBytesPerMessage + kChromeBytesPerMessage));
  output.trace_messages = false;
  EXPECT_DOUBLE_EQ(traced().messages, 0);
  EXPECT_DOUBLE_EQ(config::limits::trace_bytes(output, traced()),
                   8 * 12.0 / 4 * (kPajeBytesPerInterval + kChromeBytesPerInterval));
}

}  // namespace
}  // namespace cosched::numa
