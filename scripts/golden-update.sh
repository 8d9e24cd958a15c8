#!/usr/bin/env bash
# Regenerates tests/golden/*.txt (the golden-results test, tests/test_golden.c)
# from the current build. Only for a deliberate change of results: read the
# `git diff tests/golden` afterwards and commit it with the change that
# caused it, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tests/test_golden ] || { echo "build first (bash scripts/build.sh)" >&2; exit 2; }
SATURN_GOLDEN_UPDATE=1 SATURN_SRC="$PWD" build/tests/test_golden
git status --short tests/golden
