#!/usr/bin/env bash
# Builds cosched and runs the whole test suite (C++ unit and end-to-end tests through ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j 2 "$@"
