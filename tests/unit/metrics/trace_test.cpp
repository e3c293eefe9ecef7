// The trace writers (src/metrics/trace.*): hand-written timelines and the Paje and Chrome lines they must
// give.

#include "metrics/trace.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace cosched::metrics {
namespace {

using I = TimelineInterval;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The lines of `text` after its header (event definitions and types), that is from the first container.
std::string body(const std::string& text) {
  return text.substr(text.find("3 0 M MACHINE"));
}

// Thread a/0/0 computes on CPU 1 for 2 cycles then is ready on no CPU until 5; thread a/0/1 spins on CPU 1
// from 2 to 4 (at 1 cycle per ns: times are exact decimal seconds).
std::vector<TimelineLane> two_threads() {
  return {{"a", 0, 0, {I{0, 2, 0, 1}, I{2, 5, 2, -1}}}, {"a", 0, 1, {I{2, 4, 1, 1}}}};
}
const std::vector<std::string> kStates{"computing", "spinning", "ready"};

TEST(PajeTrace, ContainersPerPlaceAndThreadAndAPushPopPerInterval) {
  const auto paje = paje_trace(two_threads(), kStates, {"cpu", 1e9, "cycles"});
  EXPECT_TRUE(contains(paje, "%EventDef PajePushState 5\n%       Time date\n")) << paje;
  EXPECT_TRUE(contains(paje, "2 S1 STATE \"spinning\" ")) << paje;
  // At 2 a/0/0 pops its state on CPU 1 before a/0/1 pushes on it and a/0/0 pushes on no CPU; at 4 and 5 the
  // pops, then the containers are destroyed at the end (5).
  EXPECT_EQ(body(paje),
            "3 0 M MACHINE 0 \"run\"\n"
            "3 0 P1 PLACE M \"cpu 1\"\n"
            "3 0 P1L0 LANE P1 \"a/0/0 on cpu 1\"\n"
            "3 0 P1L1 LANE P1 \"a/0/1 on cpu 1\"\n"
            "3 0 PN PLACE M \"no cpu\"\n"
            "3 0 PNL0 LANE PN \"a/0/0 on no cpu\"\n"
            "5 0 STATE P1L0 S0\n"
            "6 0.000000002 STATE P1L0\n"
            "5 0.000000002 STATE P1L1 S1\n"
            "5 0.000000002 STATE PNL0 S2\n"
            "6 0.000000004 STATE P1L1\n"
            "6 0.000000005 STATE PNL0\n"
            "4 0.000000005 LANE P1L0\n"
            "4 0.000000005 LANE P1L1\n"
            "4 0.000000005 LANE PNL0\n"
            "4 0.000000005 PLACE PN\n"
            "4 0.000000005 PLACE P1\n"
            "4 0.000000005 MACHINE M\n");
}

// The compact form: back-to-back intervals on one container are a push, a set per next state and one pop;
// after a gap the next run pushes again.
TEST(PajeTrace, BackToBackIntervalsAreOneSetStatePerChange) {
  const std::vector<TimelineLane> lanes{{"j", 0, 0, {I{0, 2, 0, 1}, I{2, 3, 1, 1}, I{4, 5, 2, 1}}}};
  const auto paje = paje_trace(lanes, kStates, {"cpu", 1e9, "cycles"});
  EXPECT_TRUE(contains(paje, "%EventDef PajeSetState 10\n%       Time date\n%       Type string\n")) << paje;
  EXPECT_TRUE(contains(paje,
                       "5 0 STATE P1L0 S0\n"
                       "10 0.000000002 STATE P1L0 S1\n"
                       "6 0.000000003 STATE P1L0\n"
                       "5 0.000000004 STATE P1L0 S2\n"
                       "6 0.000000005 STATE P1L0\n"))
      << paje;
}

TEST(PajeTrace, NanosecondsAreExactDecimalSeconds) {
  const std::vector<TimelineLane> lanes{{"j", 0, 0, {I{1'500'000, 123'456'789'012, 0, 0}}}};
  const auto paje = paje_trace(lanes, kStates, {"workstation", 1e9, "ns"});
  EXPECT_TRUE(contains(paje, "5 0.0015 STATE P0L0 S0\n6 123.456789012 STATE P0L0\n")) << paje;
}

TEST(PajeTrace, AQuoteInAJobNameCannotEndTheName) {
  const std::vector<TimelineLane> lanes{{"say \"hi\"", 0, 0, {I{0, 1, 0, 0}}}};
  EXPECT_TRUE(contains(paje_trace(lanes, kStates, {"cpu", 1, "cycles"}), "\"say 'hi'/0/0 on cpu 0\""));
}

TEST(ChromeTrace, AProcessPerPlaceAThreadPerLaneAndCompleteEventsInMicroseconds) {
  const auto text = chrome_trace(two_threads(), kStates, {"cpu", 1e6, "cycles"});  // one cycle = 1 us
  const auto trace = nlohmann::json::parse(text);
  std::vector<nlohmann::json> complete, names;
  for (const auto& event : trace["traceEvents"]) (event["ph"] == "X" ? complete : names).push_back(event);
  // No CPU is the process after the last place (2).
  EXPECT_EQ(complete,
            (std::vector<nlohmann::json>{
                {{"name", "computing"}, {"ph", "X"}, {"ts", 0}, {"dur", 2}, {"pid", 1}, {"tid", 0}},
                {{"name", "ready"}, {"ph", "X"}, {"ts", 2}, {"dur", 3}, {"pid", 2}, {"tid", 0}},
                {{"name", "spinning"}, {"ph", "X"}, {"ts", 2}, {"dur", 2}, {"pid", 1}, {"tid", 1}}}));
  // The compact form of the complete events, the bulk of a trace: no spaces, no category.
  EXPECT_TRUE(contains(text, R"({"name":"ready","ph":"X","ts":2,"dur":3,"pid":2,"tid":0})")) << text;
  EXPECT_TRUE(contains(text, R"({"name": "process_name", "ph": "M", "pid": 2, "args": {"name": "no cpu"}})"));
  EXPECT_TRUE(
      contains(text, R"({"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "a/0/1"}})"));
  EXPECT_EQ(trace["otherData"]["timeline_unit"], "cycles");
}

TEST(ChromeTrace, NanosecondsAreExactDecimalMicroseconds) {
  const std::vector<TimelineLane> lanes{{"j", 0, 0, {I{1'500, 1'000'000'007, 0, 0}}}};
  const auto text = chrome_trace(lanes, kStates, {"workstation", 1e9, "ns"});
  EXPECT_TRUE(contains(text, R"("ts":1.5,"dur":999998.507,)")) << text;
}

TEST(TraceWindow, KeepsWhatIsInsideAndCutsWhatCrossesABound) {
  const auto cut = clip_to_window(two_threads(), 1, 3);
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_EQ(cut[0].intervals, (std::vector<I>{{1, 2, 0, 1}, {2, 3, 2, -1}}));
  EXPECT_EQ(cut[1].intervals, (std::vector<I>{{2, 3, 1, 1}}));
  EXPECT_TRUE(clip_to_window(two_threads(), 5, 9)[0].intervals.empty()) << "the end is exclusive";
}

TEST(TraceFiles, OnlyTheFormatsAskedForAndTheWindowApplied) {
  config::OutputConfig output;
  EXPECT_TRUE(trace_files(output, two_threads(), kStates, {"cpu", 1e9, "cycles"}).empty());
  output.trace_chrome = true;
  output.trace_window = std::make_pair(4, 5);
  const auto files = trace_files(output, two_threads(), kStates, {"cpu", 1e6, "cycles"});
  ASSERT_EQ(files.size(), 1u);
  const auto& text = files.at(kChromeFile);
  EXPECT_TRUE(contains(text, R"("name":"ready","ph":"X","ts":4,"dur":1,)")) << text;
  EXPECT_FALSE(contains(text, "computing")) << text;
}

// The recorder keeps a message sent within the window that arrives by its end, in a canonical order.
TEST(MessageRecorder, KeepsTheMessagesSentAndArrivedWithinTheWindowInSendOrder) {
  MessageRecorder recorder(std::make_pair(std::int64_t{10}, std::int64_t{20}));
  EXPECT_EQ(recorder.sent(0, 1, 0, 5), -1) << "sent before the window";
  EXPECT_EQ(recorder.sent(0, 1, 0, 20), -1) << "the window's end is exclusive";
  const auto late = recorder.sent(2, 0, 1, 12);
  const auto second = recorder.sent(3, 1, 2, 11);
  const auto first = recorder.sent(1, 2, 0, 11);
  const auto lost = recorder.sent(1, 3, 0, 19);  // never arrives: left out
  ASSERT_GE(late, 0);
  ASSERT_GE(lost, 0);
  recorder.arrived(-1, 13);    // one not kept: ignored
  recorder.arrived(late, 25);  // after the window's end: left out
  recorder.arrived(second, 20);
  recorder.arrived(first, 14);
  EXPECT_EQ(recorder.messages(), (std::vector<TraceMessage>{{1, 2, 0, 11, 14}, {3, 1, 2, 11, 20}}));
  MessageRecorder all;
  all.arrived(all.sent(4, 5, 1, 0), 7);
  EXPECT_EQ(all.messages(), (std::vector<TraceMessage>{{4, 5, 1, 0, 7}}));
}

// A message from CPU 1 to CPU 3 (a place with no interval), kind "update", sent at 1 and arrived at 3.
TraceMessages one_message() {
  return {{{1, 3, 1, 1, 3}}, {"page", "update"}};
}

TEST(PajeTrace, ALinkPerMessageFromTheSendersPlaceToTheReceivers) {
  const auto paje = paje_trace(two_threads(), kStates, {"cpu", 1e9, "cycles"}, one_message());
  EXPECT_TRUE(contains(paje,
                       "%EventDef PajeStartLink 8\n%       Time date\n%       Type string\n"
                       "%       Container string\n%       Value string\n%       StartContainer string\n"
                       "%       Key string\n%EndEventDef\n"))
      << paje;
  EXPECT_TRUE(contains(paje, "%EventDef PajeEndLink 9\n")) << paje;
  EXPECT_TRUE(contains(paje, "7 LINK MACHINE PLACE PLACE \"Message\"\n2 K0 LINK \"page\" ")) << paje;
  EXPECT_TRUE(contains(paje, "2 K1 LINK \"update\" ")) << paje;
  // The receiver's place gets a container; the link starts at 1 on P1 and ends at 3 on P3, after the states
  // of its instant; the containers live until the last arrival or interval end (5).
  EXPECT_EQ(body(paje),
            "3 0 M MACHINE 0 \"run\"\n"
            "3 0 P1 PLACE M \"cpu 1\"\n"
            "3 0 P1L0 LANE P1 \"a/0/0 on cpu 1\"\n"
            "3 0 P1L1 LANE P1 \"a/0/1 on cpu 1\"\n"
            "3 0 PN PLACE M \"no cpu\"\n"
            "3 0 PNL0 LANE PN \"a/0/0 on no cpu\"\n"
            "3 0 P3 PLACE M \"cpu 3\"\n"
            "5 0 STATE P1L0 S0\n"
            "8 0.000000001 LINK M K1 P1 m0\n"
            "6 0.000000002 STATE P1L0\n"
            "5 0.000000002 STATE P1L1 S1\n"
            "5 0.000000002 STATE PNL0 S2\n"
            "9 0.000000003 LINK M K1 P3 m0\n"
            "6 0.000000004 STATE P1L1\n"
            "6 0.000000005 STATE PNL0\n"
            "4 0.000000005 LANE P1L0\n"
            "4 0.000000005 LANE P1L1\n"
            "4 0.000000005 LANE PNL0\n"
            "4 0.000000005 PLACE PN\n"
            "4 0.000000005 PLACE P1\n"
            "4 0.000000005 PLACE P3\n"
            "4 0.000000005 MACHINE M\n");
}

TEST(PajeTrace, NoLinkTypeWithoutMessages) {
  EXPECT_FALSE(contains(paje_trace(two_threads(), kStates, {"cpu", 1e9, "cycles"}), "Link"));
}

TEST(ChromeTrace, AFlowPerMessageBetweenThePlacesMessageThreads) {
  const auto text = chrome_trace(two_threads(), kStates, {"cpu", 1e6, "cycles"}, one_message());
  const auto trace = nlohmann::json::parse(text);
  std::vector<nlohmann::json> messages, message_threads;
  int unplaced = -1;
  for (const auto& event : trace["traceEvents"]) {
    if (event["cat"] == "message") messages.push_back(event);
    if (event["name"] == "thread_name" && event["args"]["name"] == "messages")
      message_threads.push_back(event);
    if (event["name"] == "process_name" && event["args"]["name"] == "no cpu") unplaced = event["pid"];
  }
  EXPECT_EQ(unplaced, 4) << "no CPU comes after CPU 3, the receiver";
  // Lanes 0 and 1: the messages' thread is 2, on CPU 1 and CPU 3 (pids are places).
  EXPECT_EQ(message_threads.size(), 2u);
  for (const auto& t : message_threads) EXPECT_EQ(t["tid"], 2) << t;
  ASSERT_EQ(messages.size(), 4u) << text;
  EXPECT_EQ(messages[0], (nlohmann::json{{"name", "update"},
                                         {"cat", "message"},
                                         {"ph", "i"},
                                         {"s", "t"},
                                         {"ts", 1},
                                         {"pid", 1},
                                         {"tid", 2},
                                         {"args", {{"message", 0}, {"to", "cpu 3"}}}}));
  EXPECT_EQ(messages[1], (nlohmann::json{{"name", "update"},
                                         {"cat", "message"},
                                         {"ph", "s"},
                                         {"id", 0},
                                         {"ts", 1},
                                         {"pid", 1},
                                         {"tid", 2}}));
  EXPECT_EQ(messages[2]["ph"], "i");
  EXPECT_EQ(messages[2]["pid"], 3);
  EXPECT_EQ(messages[2]["ts"], 3);
  EXPECT_EQ(messages[3], (nlohmann::json{{"name", "update"},
                                         {"cat", "message"},
                                         {"ph", "f"},
                                         {"bp", "e"},
                                         {"id", 0},
                                         {"ts", 3},
                                         {"pid", 3},
                                         {"tid", 2}}));
}

}  // namespace
}  // namespace cosched::metrics
