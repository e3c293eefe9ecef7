#!/usr/bin/env bash
# Shared by the whole-run digest checks (run_digests.sh, linux24_decisions.sh): runs cosched into a scratch
# directory and compares the digest lines a check writes with its recorded file, or records them.
#
# A check sources this file, calls `regression_start DIGESTS BIN [record]`, then `regression_run` once per
# case (its result directory is "$work/NAME"), appends its digest lines to "$out", and ends with
# `regression_finish LABEL`. With REGRESSION_KEEP=DIR the runs' result directories are kept in DIR (to diff
# two binaries' runs).

# regression_start DIGESTS BIN [record]
regression_start() {
  digests=$1
  bin=${2:?usage: $(basename "$0") COSCHED_BIN [record]}
  mode=${3:-check}
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  out="$work/digests"
  : >"$out"
}

# regression_run NAME SCENARIO SEED SETS [cosched options...]: SETS are --set overrides separated by ';'.
regression_run() {
  local name=$1 scenario=$2 seed=$3 sets=$4
  shift 4
  local args=() s set
  IFS=';' read -ra s <<<"$sets"
  for set in "${s[@]}"; do [ -n "$set" ] && args+=(--set "$set"); done
  "$bin" run "$scenario" --seed "$seed" "${args[@]}" "$@" --out "$work/$name" --quiet
  local keep=${REGRESSION_KEEP:-}
  if [ -n "$keep" ]; then mkdir -p "$keep" && rm -rf "${keep:?}/$name" && cp -r "$work/$name" "$keep/$name"; fi
}

# The SHA-256 of summary.json without its wall_seconds line (the one field that differs between runs).
# A platform file's path in `resolved` names the checkout the scenario was read from: with the caller's $root
# (the repository) set, it is written relative to it, so that the digests hold in every clone.
regression_summary_digest() {
  if [ -n "${root:-}" ]; then
    grep -v '"wall_seconds"' "$1/summary.json" | sed "s|$root/|ROOT/|g" | sha256sum | cut -d' ' -f1
  else
    grep -v '"wall_seconds"' "$1/summary.json" | sha256sum | cut -d' ' -f1
  fi
}

# regression_finish LABEL: records the digest lines, or compares them with the recorded ones.
regression_finish() {
  if [ "$mode" = record ]; then
    cp "$out" "$digests"
    echo "recorded $(wc -l <"$digests") digest lines in $digests"
    return 0
  fi
  if diff -u "$digests" "$out"; then
    echo "$1: all $(wc -l <"$out") digest lines identical to the recorded ones"
  else
    echo "$1: runs differ from the recorded ones (above); see the header of $0" >&2
    return 1
  fi
}
