// NOW model speed: simulated messages per wall second on a scenario (default: the Brim & Miller short
// configuration, scenarios/brim-miller/short.yaml), next to a bare SimGrid micro-benchmark of the same
// traffic shape: one detached 1-byte message per read request and per reply between per-workstation
// actors on 32 hosts. Each measurement runs in its own process (the SimGrid engine is a singleton).
//
// Usage: now_bench [SCENARIO] [--set PATH=VALUE ...]

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "now/simulation.hpp"
#include "platform/now_platform.hpp"
#include "workload/now_program.hpp"

namespace sg4 = simgrid::s4u;

namespace {

using Clock = std::chrono::steady_clock;

// The bare micro-benchmark: every actor reads from its NEWS neighbours in turn, one outstanding read at a
// time; a request is answered at once with a reply. Returns messages per wall second.
double bare_messages_per_second(int hosts, int reads_per_actor) {
  int argc = 1;
  char name[] = "now_bench";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  cosched::platform::configure_network_model();
  cosched::config::NowConfig now;
  now.workstations = hosts;
  auto platform = cosched::platform::build_now_platform(engine, now);
  struct Msg {
    bool request;
    int from;
  };
  std::vector<sg4::Mailbox*> boxes;
  for (int h = 0; h < hosts; ++h) boxes.push_back(sg4::Mailbox::by_name("bare-" + std::to_string(h)));
  long messages = 0;
  int done = 0;
  for (int h = 0; h < hosts; ++h) {
    sg4::Actor::create("bare", platform.workstations[h],
                       [h, hosts, reads_per_actor, &boxes, &messages, &done] {
                         boxes[h]->set_receiver(sg4::Actor::self());
                         auto neighbours = cosched::workload::news_neighbours(h, hosts);
                         int reads = 0;
                         auto read = [&] {
                           boxes[neighbours[reads % 4]]->put_init(new Msg{true, h}, 1)->detach();
                           ++messages;
                         };
                         read();
                         bool finished = false;
                         while (!(finished && done == hosts)) {
                           Msg* m = boxes[h]->get<Msg>();
                           if (m->request) {
                             boxes[m->from]->put_init(new Msg{false, h}, 1)->detach();
                             ++messages;
                           } else if (++reads < reads_per_actor) {
                             read();
                           } else if (!finished) {
                             finished = true;
                             ++done;
                             if (done == hosts) {  // wake the others so that they can stop
                               for (int o = 0; o < hosts; ++o)
                                 if (o != h) boxes[o]->put_init(new Msg{false, -1}, 1)->detach();
                             }
                           }
                           delete m;
                         }
                         boxes[h]->set_receiver(nullptr);
                       });
  }
  auto start = Clock::now();
  engine.run();
  return static_cast<double>(messages) / std::chrono::duration<double>(Clock::now() - start).count();
}

// Runs `body` in a child process and returns the double it writes back.
template <typename Body>
double in_child(Body body) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    double value = body();
    if (write(fds[1], &value, sizeof value) != sizeof value) _exit(1);
    _exit(0);
  }
  double value = -1;
  if (read(fds[0], &value, sizeof value) != sizeof value) value = -1;
  waitpid(pid, nullptr, 0);
  close(fds[0]);
  close(fds[1]);
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = std::string(COSCHED_SOURCE_DIR) + "/scenarios/brim-miller/short.yaml";
  std::vector<std::string> sets;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--set" && i + 1 < argc) {
      sets.push_back(argv[++i]);
    } else {
      file = arg;
    }
  }
  long model_messages = 0;
  double model_seconds = 0;
  double model_rate = in_child([&] {
    auto scenario = cosched::config::load_scenario(file, sets);
    auto start = Clock::now();
    auto out = cosched::now::run(scenario, {});
    double s = std::chrono::duration<double>(Clock::now() - start).count();
    fmt::print("model run: {} messages, makespan {:.4f} s simulated, {:.2f} s wall\n",
               out.summary["messages"].get<long>(), out.summary["makespan"].get<double>(), s);
    std::fflush(stdout);
    return out.summary["messages"].get<double>() / s;
  });
  (void)model_messages;
  (void)model_seconds;
  double bare_rate = in_child([] { return bare_messages_per_second(32, 20000); });
  fmt::print("scenario                 {}\n", file);
  fmt::print("model                    {:.0f} messages/s\n", model_rate);
  fmt::print("bare SimGrid messages    {:.0f} messages/s (32 hosts, detached 1-byte request and reply)\n",
             bare_rate);
  fmt::print("ratio                    {:.2f} (target >= 0.7)\n", model_rate / bare_rate);
  return 0;
}
