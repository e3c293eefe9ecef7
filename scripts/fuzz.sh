#!/usr/bin/env bash
# Fuzzes the scenario loader and validator (tests/fuzz/) for a bounded time: builds the libFuzzer target with
# clang into build-fuzz/ and runs it on a scratch copy of the committed corpus, which is never modified.
# Exits 1 when the fuzzer finds a crash, a sanitizer report, a leak, a hang (-timeout) or an out-of-memory
# (-rss_limit_mb); the input that did it is kept in build-fuzz/findings/. Skips with one line (exit 0) when
# clang cannot build fuzz targets (scripts/install-deps.sh installs clang and libclang-rt-14-dev).
# Usage: bash scripts/fuzz.sh [SECONDS]   (default 60; extra libFuzzer flags in FUZZ_FLAGS)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
cxx=${FUZZ_CXX:-clang++}

work=$(mktemp -d "${TMPDIR:-/tmp}/cosched-fuzz-run-XXXXXX")
trap 'rm -rf "$work"' EXIT

probe='extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }'
if ! command -v "$cxx" >/dev/null 2>&1 ||
  ! echo "$probe" | "$cxx" -x c++ -fsanitize=fuzzer,address,undefined - -o "$work/probe" >/dev/null 2>&1; then
  echo "fuzz: skipped: $cxx cannot build with -fsanitize=fuzzer (install clang and libclang-rt-14-dev)"
  exit 0
fi

if ! { cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCOSCHED_FUZZ=ON -DBUILD_TESTING=OFF \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" &&
  cmake --build build-fuzz -j 2 --target scenario_fuzzer; } >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log"
  echo "fuzz: FAILED: the fuzz target does not build"
  exit 1
fi

rm -rf build-fuzz/findings  # only this run's
mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
cp tests/fuzz/corpus/* "$work/corpus/"
set +e
# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
TMPDIR="$work/tmp" ./build-fuzz/tests/fuzz/scenario_fuzzer "$work/corpus" \
  -dict=tests/fuzz/scenario.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 ${FUZZ_FLAGS:-} >"$work/log" 2>&1
status=$?
set -e

runs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$work/log" | tail -1 || true)
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/log"
  mkdir build-fuzz/findings
  cp "$work"/artifacts/* build-fuzz/findings/ 2>/dev/null || true
  echo "fuzz: FAILED (exit $status): the input is in build-fuzz/findings/;" \
    "replay it with ./build-fuzz/tests/fuzz/scenario_fuzzer FILE"
  exit 1
fi
if [ -z "$runs" ]; then
  tail -n 20 "$work/log"
  echo "fuzz: FAILED: libFuzzer did not report its run count"
  exit 1
fi
seeds=$(ls tests/fuzz/corpus | wc -l)
grown=$(ls "$work/corpus" | wc -l)
echo "fuzz: ${runs}s, no finding (corpus of $seeds seeds grew to $grown inputs in a scratch copy)"
