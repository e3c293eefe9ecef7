#!/usr/bin/env bash
# Configures and builds cosched into build/ (Release; two parallel jobs fit 2 cores).
#   bash scripts/build.sh        the `cosched` program only: what the quick starts need
#   bash scripts/build.sh all    every target: the tests and the benchmarks too (scripts/test.sh does this)
# COSCHED_WERROR=ON in the environment makes compiler warnings errors (CI sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-cosched}" in
  cosched) targets=(--target cosched) ;;
  all) targets=() ;;
  *)
    echo "build: unknown argument '$1'; expected nothing (the cosched program) or 'all'" >&2
    exit 2
    ;;
esac
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOSCHED_WERROR="${COSCHED_WERROR:-OFF}" >/dev/null
cmake --build build -j 2 "${targets[@]}"
