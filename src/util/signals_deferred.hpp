#pragma once
// Holds SIGINT and SIGTERM back while it lives; they are delivered when it ends. For steps that an
// interruption must not split (cli/interrupt.hpp).

#include <csignal>

namespace cosched::util {

class SignalsDeferred {
 public:
  SignalsDeferred() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalsDeferred() { ::sigprocmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsDeferred(const SignalsDeferred&) = delete;
  SignalsDeferred& operator=(const SignalsDeferred&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace cosched::util
