#!/usr/bin/env bash
# Installs every system package cosched needs on Debian bookworm (run as root).
# Idempotent: packages already present are left as they are.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libsimgrid-dev libyaml-cpp-dev libboost-graph-dev
  googletest libgtest-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  python3
  # The fuzz target (scripts/fuzz.sh): clang, and libclang-rt-14-dev for -fsanitize=fuzzer's runtime
  # (libclang_rt.fuzzer-x86_64.a, only recommended by clang; libfuzzer-14-dev is the standalone libFuzzer.a,
  # which -fsanitize=fuzzer does not use).
  clang libclang-rt-14-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
