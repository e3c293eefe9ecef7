#!/usr/bin/env bash
# Builds cosched and runs the whole test suite: the C++ unit and end-to-end tests through ctest, then
# the analysis/ package's pytest tests with the .venv/ made by scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh all
ctest --test-dir build --output-on-failure -j 2 "$@"

if [ ! -x .venv/bin/python ]; then
  echo "test: .venv/bin/python missing: run 'bash scripts/install-deps.sh' first" >&2
  exit 1
fi
# pytest exits 5 when it collected no test: that is a failure here too, never a silent pass.
status=0
.venv/bin/python -m pytest analysis/tests -q -p no:cacheprovider || status=$?
if [ "$status" -eq 5 ]; then
  echo "test: pytest collected no test in analysis/tests" >&2
fi
exit "$status"
