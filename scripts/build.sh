#!/usr/bin/env bash
# Configures and builds cosched into build/ (Release with debug info off; two parallel jobs fit 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j 2
