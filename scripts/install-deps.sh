#!/usr/bin/env bash
# Installs every system package cosched needs on Debian bookworm (run as root), then the analysis/
# package's Python environment in .venv/ (pinned in analysis/requirements.txt).
# Idempotent: packages already present are left as they are, and .venv/ is only touched when
# analysis/requirements.txt changed since it was last installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libsimgrid-dev libyaml-cpp-dev libboost-graph-dev
  libboost-context-dev  # cosched calibrate's fcontext switches (Boost.Context's library and CMake config)
  googletest libgtest-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  python3 python3-venv python3-pip
  # The fuzz target (scripts/fuzz.sh): clang, and libclang-rt-14-dev for -fsanitize=fuzzer's runtime
  # (libclang_rt.fuzzer-x86_64.a, only recommended by clang; libfuzzer-14-dev is the standalone libFuzzer.a,
  # which -fsanitize=fuzzer does not use).
  clang libclang-rt-14-dev
  # Traces and the HTML report (tests/traces, analysis/tests/test_report_html.py): pj_dump parses every Paje
  # trace the tests write; headless Chromium opens report.html.
  pajeng chromium
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
else
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The analysis/ package's virtual environment. Debian's own python3 (not whichever python3 comes
# first on PATH), so that the environment matches the python3-venv package installed above. A stamp
# holding the requirements file's checksum makes a second run instant.
cd "$(dirname "$0")/.."
requirements=analysis/requirements.txt
stamp=.venv/.requirements.sha256
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ -x .venv/bin/python ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
  echo "install-deps: .venv already matches $requirements"
else
  echo "install-deps: installing $requirements into .venv/"
  rm -f "$stamp"
  /usr/bin/python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --requirement "$requirements"
  echo "$wanted" >"$stamp"
fi

# The Lublin-Feitelson generator's environment, .venv/lublin/ (analysis/requirements-lublin.txt): its
# package ships its model only for CPython 3.8-3.10, which Debian bookworm does not package, so it is made
# from one of those found on the machine (docs/models/now-streams.md section 2.1). Made here rather than on
# first use so that a machine without one says so now; remade only when its requirements change.
.venv/bin/python -c 'from analysis.workload import generator_python; generator_python()' ||
  { echo "install-deps: cannot make .venv/lublin/ (above: why); python -m analysis workload lublin needs it" >&2; exit 1; }
