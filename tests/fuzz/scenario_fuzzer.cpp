// libFuzzer target for the scenario loader and validator (built by scripts/fuzz.sh with clang,
// -fsanitize=fuzzer,address,undefined). Each input is a scenario file whose "#set PATH=VALUE" lines are also
// --set overrides (scenario_input.hpp). Every input must end in a valid scenario or a config::InputError;
// anything else (another exception, a crash, a sanitizer report, a leak, a hang) is a finding.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <typeinfo>

#include "scenario_input.hpp"

namespace {

// One private folder per process, holding the file that every input is written to.
class ScratchFile {
 public:
  ScratchFile() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/cosched-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) {
      std::perror("cosched fuzz: mkdtemp");
      std::abort();
    }
    dir_ = pattern;
    file_ = dir_ + "/scenario.yaml";
  }
  ~ScratchFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  const std::string& path() const { return file_; }

 private:
  std::string dir_;
  std::string file_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchFile scratch;
  try {
    cosched::fuzz::check_scenario_input(std::string_view(reinterpret_cast<const char*>(data), size),
                                        scratch.path());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosched fuzz: the loader threw %s, not config::InputError: %s\n", typeid(e).name(),
                 e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "cosched fuzz: the loader threw something that is not a std::exception\n");
    std::abort();
  }
  return 0;
}
